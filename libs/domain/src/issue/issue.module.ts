import { Module } from '@nestjs/common';
import { LabelFeatureModule } from '../label';
import { ProjectFeatureModule } from '../project';
import { StateFeatureModule } from '../state';
import { UserFeatureModule } from '../user';
import { WorkspaceFeatureModule } from '../workspace';
import { IssueRepository } from './issue.repository';
import { IssueQueryService } from './issue-query.service';
import { IssueCommandService } from './issue-command.service';
import { IssueCreateBatcher } from './issue-create-batcher';
import { IssueChildrenService } from './issue-children.service';
import { IssueOperationsService } from './issue-operations.service';
import { ReactionService } from './reaction.service';
import { IssueListener } from './issue.listener';

/**
 * The issue feature: its repository (all of its SQL), the query and command sides of work items,
 * what hangs off them, and its listeners; exports what other features and the API modules inject.
 * The people, workspaces, projects, states and labels it shows or checks come through their doors.
 */
@Module({
  imports: [UserFeatureModule, WorkspaceFeatureModule, ProjectFeatureModule, StateFeatureModule, LabelFeatureModule],
  providers: [
    IssueRepository,
    IssueQueryService,
    IssueCommandService,
    IssueCreateBatcher,
    IssueChildrenService,
    IssueOperationsService,
    ReactionService,
    IssueListener,
  ],
  exports: [IssueQueryService, IssueCommandService, IssueChildrenService, IssueOperationsService, ReactionService],
})
export class IssueFeatureModule {}
