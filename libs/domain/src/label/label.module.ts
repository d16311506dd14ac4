import { Module } from '@nestjs/common';
import { LabelRepository } from './label.repository';
import { LabelService } from './label.service';

/** The label feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [LabelRepository, LabelService],
  exports: [LabelService],
})
export class LabelFeatureModule {}
