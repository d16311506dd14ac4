import { Module } from '@nestjs/common';
import { ProjectFeatureModule } from '../project';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { ImporterRepository } from './importer.repository';
import { ImporterService } from './importer.service';

/** The importer feature (`meridian import plane`): its reads and the people it brings over. */
@Module({
  imports: [ProjectFeatureModule, UserFeatureModule, WorkspaceFeatureModule],
  providers: [ImporterRepository, ImporterService],
  exports: [ImporterService],
})
export class ImporterFeatureModule {}
