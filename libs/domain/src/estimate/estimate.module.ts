import { Module } from '@nestjs/common';
import { EstimateService } from './estimate.service';

/** The estimate feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [EstimateService],
  exports: [EstimateService],
})
export class EstimateFeatureModule {}
