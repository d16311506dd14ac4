import { Module } from '@nestjs/common';
import { InstanceConfigRepository } from './instance-config.repository';
import { InstanceSettings } from './instance-settings.service';

/** The instance-config feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [InstanceConfigRepository, InstanceSettings],
  exports: [InstanceSettings],
})
export class InstanceConfigFeatureModule {}
