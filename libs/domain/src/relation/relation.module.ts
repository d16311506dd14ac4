import { Module } from '@nestjs/common';
import { IssueRelationService } from './issue-relation.service';

/** The relation feature: its services; exports what other features and the API modules use. */
@Module({
  providers: [IssueRelationService],
  exports: [IssueRelationService],
})
export class RelationFeatureModule {}
