import { CoverImagesController } from './cover-images.controller';
import { DomainModule } from '#domain';
import { Module } from '@nestjs/common';
import { ApiTokensController, ServiceApiTokensController } from './api-tokens.controller';
import {
  AppLegacyAssetsController,
  AppProjectAssetsController,
  AppStaticAssetsController,
  AppUserAssetsController,
  AppWorkItemAttachmentsController,
  AppWorkspaceAssetsController,
} from './assets.controller';
import { DeployBoardsController } from './deploy-boards.controller';
import { AppAnalyticsController, AppExportsController, AppUserDashboardController } from './analytics.controller';
import { InvitationJoinController, InvitationsController } from './invitations.controller';
import { MembersController } from './members.controller';
import { AppProjectsController, ProjectIdentifiersController, ProjectMembersController } from './projects.controller';
import { UsersController } from './users.controller';
import { AppStatesController, WorkspaceStatesController } from './states.controller';
import { AppBulkLabelsController, AppLabelsController, WorkspaceLabelsController } from './labels.controller';
import { AppCyclesController } from './cycles.controller';
import { AppModuleLinksController, AppModulesController } from './modules.controller';
import { AppEstimatesController } from './estimates.controller';
import {
  AppLegacyWorkItemAttachmentsController,
  AppProjectEstimatePointsController,
  AppProjectUserViewsController,
  AppWorkspaceProjectMembersController,
} from './project-rest.controller';
import {
  AppInboxController,
  AppInboxObjectsController,
  AppIntakeController,
  AppIntakeObjectsController,
} from './intake.controller';
import { AppStickiesController } from './stickies.controller';
import { AppDraftsController } from './drafts.controller';
import { AppDisplayPropertiesController, AppWorkspacePreferencesController } from './preferences.controller';
import { AppEntityFavoritesController, AppFavoritesController } from './favorites.controller';
import {
  AppUserWorkspaceController,
  AppWorkspaceListsController,
  TimezonesController,
} from './workspace-lists.controller';
import { SearchController } from './search.controller';
import { AppMyActivityController, AppProfilesController } from './profiles.controller';
import { AppAccountController, AppUserSessionController } from './account.controller';
import { AppAiAssistantController, AppWorkspaceThemesController } from './workspace-themes.controller';
import {
  AppMyProjectInvitationsController,
  AppProjectInvitationsController,
  AppProjectJoinController,
} from './project-invitations.controller';
import { AppProjectViewsController, AppWorkspaceViewsController } from './views.controller';
import { AppPagesController } from './pages.controller';
import { WorkItemSubscribersController, NotificationsController } from './notifications.controller';
import { MembershipMeController, ProfileController } from './me.controller';
import { WebhookLogsController, WebhooksController } from './webhooks.controller';
import { AppAuditLogsController } from './audit-logs.controller';
import { WorkspacesController, WorkspaceSlugCheckController } from './workspaces.controller';
import {
  AppArchivedWorkItemsController,
  AppBulkWorkItemsController,
  AppWorkItemDetailsController,
  AppWorkItemKeyController,
  AppWorkItemLinksToOthersController,
  AppWorkItemsController,
  AppWorkItemSyncController,
  AppWorkItemVersionsController,
  AppWorkspaceWorkItemsController,
} from './work-items.controller';
import {
  AppCommentReactionsController,
  AppWorkItemCommentsController,
  AppWorkItemLinksController,
  AppWorkItemReactionsController,
} from './work-item-comments.controller';

/** App API, mounted at `/api/`: the web app's operations, authenticated with Bearer access tokens. */
@Module({
  imports: [DomainModule],
  controllers: [
    WorkspacesController,
    ApiTokensController,
    ServiceApiTokensController,
    UsersController,
    WorkspaceSlugCheckController,
    MembersController,
    InvitationsController,
    InvitationJoinController,
    // before AppProjectsController: `projects/details/` must win over `projects/:project_id/`
    AppWorkspaceListsController,
    AppProjectsController,
    ProjectIdentifiersController,
    ProjectMembersController,
    DeployBoardsController,
    AppStatesController,
    AppLabelsController,
    AppBulkLabelsController,
    AppCyclesController,
    AppModulesController,
    AppModuleLinksController,
    AppProjectViewsController,
    AppPagesController,
    AppWorkspaceViewsController,
    AppEstimatesController,
    AppLegacyWorkItemAttachmentsController,
    AppProjectEstimatePointsController,
    AppProjectUserViewsController,
    AppWorkspaceProjectMembersController,
    AppIntakeController,
    AppInboxController,
    AppIntakeObjectsController,
    AppInboxObjectsController,
    WorkspaceStatesController,
    WorkspaceLabelsController,
    AppStickiesController,
    AppDraftsController,
    SearchController,
    NotificationsController,
    WorkItemSubscribersController,
    ProfileController,
    MembershipMeController,
    AppWorkItemsController,
    AppArchivedWorkItemsController,
    AppBulkWorkItemsController,
    AppWorkItemKeyController,
    AppWorkItemSyncController,
    AppWorkItemVersionsController,
    AppWorkItemDetailsController,
    AppWorkspaceWorkItemsController,
    AppWorkItemLinksToOthersController,
    AppWorkItemCommentsController,
    AppWorkItemLinksController,
    AppWorkItemReactionsController,
    AppCommentReactionsController,
    WebhooksController,
    AppAuditLogsController,
    WebhookLogsController,
    CoverImagesController,
    AppUserAssetsController,
    AppWorkspaceAssetsController,
    AppStaticAssetsController,
    AppProjectAssetsController,
    AppWorkItemAttachmentsController,
    AppLegacyAssetsController,
    AppWorkspacePreferencesController,
    AppDisplayPropertiesController,
    AppFavoritesController,
    AppEntityFavoritesController,
    AppUserWorkspaceController,
    TimezonesController,
    AppAnalyticsController,
    AppExportsController,
    AppUserDashboardController,
    AppProfilesController,
    AppMyActivityController,
    AppAccountController,
    AppProjectInvitationsController,
    AppProjectJoinController,
    AppMyProjectInvitationsController,
    AppUserSessionController,
    AppWorkspaceThemesController,
    AppAiAssistantController,
  ],
})
export class AppApiModule {}
