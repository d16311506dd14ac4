import { Module } from '@nestjs/common';
import { IssueRelationService } from './issue-relation.service';
import { RelationRepository } from './relation.repository';

/** The relation feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [RelationRepository, IssueRelationService],
  exports: [IssueRelationService],
})
export class RelationFeatureModule {}
