import { Module } from '@nestjs/common';
import { IssueFeatureModule } from '../issue';
import { IssueRelationService } from './issue-relation.service';
import { RelationRepository } from './relation.repository';

/** The relation feature: its services; exports what other features and the API modules use. */
@Module({
  imports: [IssueFeatureModule],
  providers: [RelationRepository, IssueRelationService],
  exports: [IssueRelationService],
})
export class RelationFeatureModule {}
