import { Module } from '@nestjs/common';
import { FavoriteFeatureModule } from '../favorite';
import { IssueFeatureModule } from '../issue';
import { ViewRepository } from './view.repository';
import { ViewService } from './view.service';

/** The view feature (saved views): its services; exports what the API modules use. */
@Module({
  imports: [IssueFeatureModule, FavoriteFeatureModule],
  providers: [ViewRepository, ViewService],
  exports: [ViewService],
})
export class ViewFeatureModule {}
