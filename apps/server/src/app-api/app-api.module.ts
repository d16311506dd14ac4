import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { ApiTokensController } from './api-tokens.controller';
import { DeployBoardsController } from './deploy-boards.controller';
import { InvitationJoinController, InvitationsController } from './invitations.controller';
import { MembersController } from './members.controller';
import { AppProjectsController, ProjectIdentifiersController, ProjectMembersController } from './projects.controller';
import { UsersController } from './users.controller';
import { WebhookLogsController, WebhooksController } from './webhooks.controller';
import { WorkspacesController, WorkspaceSlugCheckController } from './workspaces.controller';
import {
  AppArchivedWorkItemsController, AppBulkWorkItemsController, AppWorkItemKeyController, AppWorkItemLinksToOthersController, AppWorkItemsController,
} from './work-items.controller';
import { AppCommentReactionsController, AppIssueCommentsController, AppIssueLinksController, AppIssueReactionsController } from './issue-comments.controller';

/** App API, mounted at `/api/`: the web app's operations, authenticated with Bearer access tokens. */
@Module({
  imports: [DomainModule],
  controllers: [
    WorkspacesController, ApiTokensController,
    UsersController, WorkspaceSlugCheckController, MembersController, InvitationsController, InvitationJoinController,
    AppProjectsController, ProjectIdentifiersController, ProjectMembersController,
    DeployBoardsController,
    AppWorkItemsController, AppArchivedWorkItemsController, AppBulkWorkItemsController, AppWorkItemKeyController, AppWorkItemLinksToOthersController, AppIssueCommentsController, AppIssueLinksController, AppIssueReactionsController, AppCommentReactionsController,
    WebhooksController, WebhookLogsController,
  ],
})
export class AppApiModule {}
