import {
  CREDENTIAL_VERIFIER,
  INSTANCE_ADMIN_VERIFIER,
  PROJECT_ACCESS_RESOLVER,
  WORKSPACE_ACCESS_RESOLVER,
} from '#common';
import { Module } from '@nestjs/common';
import { KernelModule } from './kernel/kernel.module';
import { AccessChangeSubscriber } from './kernel/access-change.subscriber';
import { CredentialVerifierService } from './auth/credential-verifier.service';
import { WorkspaceService } from './workspace/workspace.service';
import { ProjectService } from './project/project.service';
import { InstanceAdminService } from './instance/instance-admin.service';
import { AnalyticsFeatureModule } from './analytics/analytics.module';
import { ApiTokenFeatureModule } from './api-token/api-token.module';
import { AttachmentFeatureModule } from './attachment/attachment.module';
import { AuthFeatureModule } from './auth/auth.module';
import { AutomationFeatureModule } from './automation/automation.module';
import { CoverImageFeatureModule } from './cover-image/cover-image.module';
import { CycleFeatureModule } from './cycle/cycle.module';
import { DraftFeatureModule } from './draft/draft.module';
import { DeployBoardFeatureModule } from './deploy-board/deploy-board.module';
import { EstimateFeatureModule } from './estimate/estimate.module';
import { ExporterFeatureModule } from './exporter/exporter.module';
import { FavoriteFeatureModule } from './favorite/favorite.module';
import { InstanceFeatureModule } from './instance/instance.module';
import { InstanceConfigFeatureModule } from './instance-config/instance-config.module';
import { IntakeFeatureModule } from './intake/intake.module';
import { InvitationFeatureModule } from './invitation/invitation.module';
import { IssueFeatureModule } from './issue/issue.module';
import { LabelFeatureModule } from './label/label.module';
import { MailFeatureModule } from './mail/mail.module';
import { EmailNotificationFeatureModule } from './email-notification/email-notification.module';
import { MemberFeatureModule } from './member/member.module';
import { ModuleFeatureModule } from './module/module.module';
import { NotificationFeatureModule } from './notification/notification.module';
import { PageFeatureModule } from './page/page.module';
import { PreferenceFeatureModule } from './preference/preference.module';
import { ProjectFeatureModule } from './project/project.module';
import { RelationFeatureModule } from './relation/relation.module';
import { SearchFeatureModule } from './search/search.module';
import { StateFeatureModule } from './state/state.module';
import { StickyFeatureModule } from './sticky/sticky.module';
import { UserFeatureModule } from './user/user.module';
import { ViewFeatureModule } from './view/view.module';
import { WebhookFeatureModule } from './webhook/webhook.module';
import { WorkspaceFeatureModule } from './workspace/workspace.module';
import { WorkspaceProfileFeatureModule } from './workspace-profile/workspace-profile.module';
import { ImporterFeatureModule } from './importer/importer.module';
import { AuditFeatureModule } from './audit/audit.module';

/** One Nest module per feature (its `<feature>.module.ts`), lowest first in the import graph. */
const FEATURE_MODULES = [
  AnalyticsFeatureModule,
  ApiTokenFeatureModule,
  AttachmentFeatureModule,
  AuditFeatureModule,
  AuthFeatureModule,
  AutomationFeatureModule,
  CoverImageFeatureModule,
  CycleFeatureModule,
  DeployBoardFeatureModule,
  DraftFeatureModule,
  EmailNotificationFeatureModule,
  EstimateFeatureModule,
  ExporterFeatureModule,
  FavoriteFeatureModule,
  InstanceFeatureModule,
  InstanceConfigFeatureModule,
  IntakeFeatureModule,
  InvitationFeatureModule,
  IssueFeatureModule,
  LabelFeatureModule,
  MailFeatureModule,
  MemberFeatureModule,
  ModuleFeatureModule,
  NotificationFeatureModule,
  PageFeatureModule,
  PreferenceFeatureModule,
  ProjectFeatureModule,
  RelationFeatureModule,
  SearchFeatureModule,
  StateFeatureModule,
  StickyFeatureModule,
  UserFeatureModule,
  ViewFeatureModule,
  WebhookFeatureModule,
  WorkspaceFeatureModule,
  WorkspaceProfileFeatureModule,
  ImporterFeatureModule,
];

/**
 * The domain: the features' modules, re-exported to the API modules. Also binds the cross-cutting
 * guards' ports (`CREDENTIAL_VERIFIER`, `WORKSPACE_ACCESS_RESOLVER`, `PROJECT_ACCESS_RESOLVER`,
 * `INSTANCE_ADMIN_VERIFIER`) and empties their cache when access changes (`AccessChangeSubscriber`).
 * Side effects of changes (webhooks, notifications, history) are `@OnChange` listeners run by
 * `ChangeBus` in the writer's transaction.
 */
@Module({
  imports: [KernelModule, ...FEATURE_MODULES],
  providers: [
    AccessChangeSubscriber,
    { provide: CREDENTIAL_VERIFIER, useExisting: CredentialVerifierService },
    { provide: WORKSPACE_ACCESS_RESOLVER, useExisting: WorkspaceService },
    { provide: PROJECT_ACCESS_RESOLVER, useExisting: ProjectService },
    { provide: INSTANCE_ADMIN_VERIFIER, useExisting: InstanceAdminService },
  ],
  exports: [
    ...FEATURE_MODULES,
    CREDENTIAL_VERIFIER,
    WORKSPACE_ACCESS_RESOLVER,
    PROJECT_ACCESS_RESOLVER,
    INSTANCE_ADMIN_VERIFIER,
  ],
})
export class DomainModule {}
