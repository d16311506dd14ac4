import { Module } from '@nestjs/common';
import { FavoriteFeatureModule } from '../favorite';
import { LabelFeatureModule } from '../label';
import { ProjectFeatureModule } from '../project';
import { PageRepository } from './page.repository';
import { PageService } from './page.service';

/** The page feature (project pages): its services; exports what the API modules use. */
@Module({
  imports: [FavoriteFeatureModule, ProjectFeatureModule, LabelFeatureModule],
  providers: [PageRepository, PageService],
  exports: [PageService],
})
export class PageFeatureModule {}
