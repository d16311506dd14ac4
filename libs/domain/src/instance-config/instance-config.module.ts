import { Module } from '@nestjs/common';
import { InstanceSettings } from './instance-settings.service';

/** The instance-config feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [InstanceSettings],
  exports: [InstanceSettings],
})
export class InstanceConfigFeatureModule {}
