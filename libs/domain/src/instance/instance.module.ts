import { Module } from '@nestjs/common';
import { InstanceConfigFeatureModule } from '../instance-config';
import { ProjectFeatureModule } from '../project';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { InstanceService } from './instance.service';
import { InstanceAdminService } from './instance-admin.service';
import { InstanceRepository } from './instance.repository';

/** The instance feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [InstanceConfigFeatureModule, UserFeatureModule, WorkspaceFeatureModule, ProjectFeatureModule],
  providers: [InstanceRepository, InstanceService, InstanceAdminService],
  exports: [InstanceService, InstanceAdminService],
})
export class InstanceFeatureModule {}
