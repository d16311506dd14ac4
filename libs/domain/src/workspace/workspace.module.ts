import { Module } from '@nestjs/common';
import { InstanceConfigFeatureModule } from '../instance-config';
import { WorkspaceRepository } from './workspace.repository';
import { WorkspaceService } from './workspace.service';

/** The workspace feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [InstanceConfigFeatureModule],
  providers: [WorkspaceRepository, WorkspaceService],
  exports: [WorkspaceService],
})
export class WorkspaceFeatureModule {}
