import { Module } from '@nestjs/common';
import { EstimateRepository } from './estimate.repository';
import { EstimateService } from './estimate.service';

/** The estimate feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [EstimateRepository, EstimateService],
  exports: [EstimateService],
})
export class EstimateFeatureModule {}
