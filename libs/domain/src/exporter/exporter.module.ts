import { Module } from '@nestjs/common';
import { AttachmentFeatureModule } from '../attachment';
import { ProjectFeatureModule } from '../project';
import { WorkspaceFeatureModule } from '../workspace';
import { ExporterRepository } from './exporter.repository';
import { ExporterJobs } from './exporter.jobs';
import { ExporterService } from './exporter.service';

/** The exporter feature (work item exports, written in the background): its services; exports what the API modules use. */
@Module({
  imports: [AttachmentFeatureModule, ProjectFeatureModule, WorkspaceFeatureModule],
  providers: [ExporterRepository, ExporterService, ExporterJobs],
  exports: [ExporterService],
})
export class ExporterFeatureModule {}
