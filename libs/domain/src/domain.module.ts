import { AttachmentService } from './attachment/attachment.service';
import { OBJECT_STORAGE } from './attachment/object-storage';
import { OBJECT_STORAGE_PROVIDER } from './attachment/storage.provider';
import { CREDENTIAL_VERIFIER, INSTANCE_ADMIN_VERIFIER, PROJECT_ACCESS_RESOLVER, WORKSPACE_ACCESS_RESOLVER } from '#common';
import { Module } from '@nestjs/common';
import { KernelModule } from './kernel/kernel.module';
import { IssueListener } from './issue/issue.listener';
import { NotificationListener } from './notification/notification.listener';
import { ApiTokenService } from './api-token/api-token.service';
import { AccountService } from './auth/account.service';
import { AuthFlowService } from './auth/auth-flow.service';
import { OAuthService } from './auth/oauth.service';
import { CredentialVerifierService } from './auth/credential-verifier.service';
import { SessionService } from './auth/session.service';
import { InstanceAdminService } from './instance/instance-admin.service';
import { InstanceSettings } from './instance-config/instance-settings.service';
import { InstanceService } from './instance/instance.service';
import { MailService } from './mail/mail.service';
import { ProjectService } from './project/project.service';
import { StateService } from './state/state.service';
import { LabelService } from './label/label.service';
import { CycleService } from './cycle/cycle.service';
import { ModuleService } from './module/module.service';
import { MemberService } from './member/member.service';
import { IssueService } from './issue/issue.service';
import { IssueCreateBatcher } from './issue/issue-create-batcher';
import { IssueChildrenService } from './issue/issue-children.service';
import { DeployBoardService } from './deploy-board/deploy-board.service';
import { PublicBoardService } from './deploy-board/public-board.service';
import { IssueRelationService } from './relation/issue-relation.service';
import { EstimateService } from './estimate/estimate.service';
import { StickyService } from './sticky/sticky.service';
import { IntakeService } from './intake/intake.service';
import { WorkspaceService } from './workspace/workspace.service';
import { WorkspaceSettingsService } from './member/workspace-settings.service';
import { WorkspaceMemberService } from './member/workspace-member.service';
import { WorkspaceInvitationService } from './invitation/workspace-invitation.service';
import { UserProfileService } from './user/user-profile.service';
import { AppProjectService } from './project/app-project.service';
import { ProjectMemberService } from './project/project-member.service';
import { IssueSubscriberService, NotificationService } from './notification/notification.service';
import { ProfileService } from './member/profile.service';
import { SearchService } from './search/search.service';
import { IssueOperationsService } from './issue/issue-operations.service';
import { ReactionService } from './issue/reaction.service';
import { WebhookOutbox } from './webhook/webhook-outbox.service';
import { WebhookService } from './webhook/webhook.service';
import { WebhookDeliveryWorker } from './webhook/webhook-delivery.worker';
import { AccessChangeSubscriber } from './kernel/access-change.subscriber';

const SERVICES = [
  AccountService, SessionService, WorkspaceService, ApiTokenService, ProjectService, MailService,
  InstanceSettings, InstanceService, InstanceAdminService, AuthFlowService, OAuthService,
  StateService, LabelService, MemberService, IssueService, IssueCreateBatcher, IssueChildrenService, CycleService, ModuleService,
  DeployBoardService, PublicBoardService,
  IssueRelationService, EstimateService, StickyService, IntakeService, AttachmentService,
  WebhookOutbox, WebhookService, WebhookDeliveryWorker,
];
/** App API services (users, workspace settings, members, invitations, projects). */
const APP_API_SERVICES = [
  UserProfileService, WorkspaceSettingsService, WorkspaceMemberService, WorkspaceInvitationService, AppProjectService, ProjectMemberService,
  NotificationService, IssueSubscriberService, ProfileService, SearchService,
  IssueOperationsService, ReactionService,
];

/**
 * The domain: entities' rules and services, shared by every API module. Also binds the
 * cross-cutting guards' ports (`CREDENTIAL_VERIFIER`, `WORKSPACE_ACCESS_RESOLVER`,
 * `PROJECT_ACCESS_RESOLVER`, `INSTANCE_ADMIN_VERIFIER`) and empties their cache when access changes
 * (`AccessChangeSubscriber`). Side effects of changes (webhooks, notifications, history) are
 * `@OnChange` listeners run by `ChangeBus` in the writer's transaction.
 */
@Module({
  imports: [KernelModule],
  providers: [
    IssueListener,
    NotificationListener,
    ...SERVICES,
    ...APP_API_SERVICES,
    OBJECT_STORAGE_PROVIDER,
    AccessChangeSubscriber,
    CredentialVerifierService,
    { provide: CREDENTIAL_VERIFIER, useExisting: CredentialVerifierService },
    { provide: WORKSPACE_ACCESS_RESOLVER, useExisting: WorkspaceService },
    { provide: PROJECT_ACCESS_RESOLVER, useExisting: ProjectService },
    { provide: INSTANCE_ADMIN_VERIFIER, useExisting: InstanceAdminService },
  ],
  exports: [...SERVICES, OBJECT_STORAGE, ...APP_API_SERVICES, CREDENTIAL_VERIFIER, WORKSPACE_ACCESS_RESOLVER, PROJECT_ACCESS_RESOLVER, INSTANCE_ADMIN_VERIFIER],
})
export class DomainModule {}
