import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { SearchRepository } from './search.repository';
import { SearchService } from './search.service';

/** The search feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [SearchRepository, SearchService],
  exports: [SearchService],
})
export class SearchFeatureModule {}
