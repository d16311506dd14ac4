import { Module } from '@nestjs/common';
import { FavoriteFeatureModule } from '../favorite';
import { IssueFeatureModule } from '../issue';
import { ProjectFeatureModule } from '../project';
import { ViewRepository } from './view.repository';
import { ViewService } from './view.service';

/** The view feature (saved views): its services; exports what the API modules use. */
@Module({
  imports: [IssueFeatureModule, FavoriteFeatureModule, ProjectFeatureModule],
  providers: [ViewRepository, ViewService],
  exports: [ViewService],
})
export class ViewFeatureModule {}
