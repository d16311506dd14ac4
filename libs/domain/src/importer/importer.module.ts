import { Module } from '@nestjs/common';
import { ImporterRepository } from './importer.repository';
import { ImporterService } from './importer.service';

/** The importer feature (`meridian import plane`): its reads and the people it brings over. */
@Module({
  providers: [ImporterRepository, ImporterService],
  exports: [ImporterService],
})
export class ImporterFeatureModule {}
