import { Module } from '@nestjs/common';
import { IssueService } from './issue.service';
import { IssueCreateBatcher } from './issue-create-batcher';
import { IssueChildrenService } from './issue-children.service';
import { IssueOperationsService } from './issue-operations.service';
import { ReactionService } from './reaction.service';
import { IssueListener } from './issue.listener';

/** The issue feature: its services, and listeners; exports what other features and the API modules use. */
@Module({
  providers: [IssueService, IssueCreateBatcher, IssueChildrenService, IssueOperationsService, ReactionService, IssueListener],
  exports: [IssueService, IssueCreateBatcher, IssueChildrenService, IssueOperationsService, ReactionService],
})
export class IssueFeatureModule {}
