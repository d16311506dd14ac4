// kernel
import { ScheduledJobState } from './kernel/jobs/scheduled-job.entity';

// analytics
import { AnalyticView } from './analytics/analytic-view.entity';

// api-token
import { ApiToken } from './api-token/api-token.entity';

// attachment
import { FileAsset } from './attachment/file-asset.entity';

// auth
import { AuthCode } from './auth/auth-code.entity';
import { UserAccount } from './auth/user-account.entity';
import { AuthSession } from './auth/auth-session.entity';
import { AuthToken } from './auth/auth-token.entity';
import { SsoConnection } from './auth/sso-connection.entity';
import { SsoConnectionDomain } from './auth/sso-connection-domain.entity';
import { SamlAssertion, SamlRequest, SamlSession } from './auth/saml-message.entity';

// cycle
import { Cycle } from './cycle/cycle.entity';
import { CycleIssue } from './cycle/cycle-issue.entity';

// deploy-board
import { DeployBoard } from './deploy-board/deploy-board.entity';

// exporter
import { ExporterHistory } from './exporter/exporter-history.entity';

// email-notification
import { EmailNotificationLog } from './email-notification/email-notification-log.entity';

// estimate
import { Estimate } from './estimate/estimate.entity';
import { EstimatePoint } from './estimate/estimate-point.entity';

// favorite
import { UserFavorite } from './favorite/user-favorite.entity';

// instance
import { Instance } from './instance/instance.entity';
import { InstanceAdmin } from './instance/instance-admin.entity';
import { InstanceAdminSession } from './instance/instance-admin-session.entity';

// instance-config
import { InstanceConfiguration } from './instance-config/instance-configuration.entity';

// intake
import { Intake } from './intake/intake.entity';
import { IntakeIssue } from './intake/intake-issue.entity';

// invitation
import { WorkspaceInvitation } from './invitation/workspace-invitation.entity';

// issue
import { Issue } from './issue/issue.entity';
import { IssueAssignee } from './issue/issue-assignee.entity';
import { IssueLabel } from './issue/issue-label.entity';
import { IssueDescriptionVersion } from './issue/issue-description-version.entity';
import { ProjectIssueCounter } from './issue/project-issue-counter.entity';
import { IssueComment } from './issue/issue-comment.entity';
import { IssueLink } from './issue/issue-link.entity';
import { IssueActivity } from './issue/issue-activity.entity';
import { CommentReaction } from './issue/comment-reaction.entity';
import { IssueReaction } from './issue/issue-reaction.entity';
import { IssueVote } from './issue/issue-vote.entity';

// label
import { Label } from './label/label.entity';

// module
import { Module } from './module/module.entity';
import { ModuleIssue } from './module/module-issue.entity';
import { ModuleLink } from './module/module-link.entity';
import { ModuleMember } from './module/module-member.entity';

// notification
import { IssueSubscriber } from './notification/issue-subscriber.entity';
import { Notification } from './notification/notification.entity';
import { UserNotificationPreference } from './notification/user-notification-preference.entity';

// profiles: themes, project invitations
import { WorkspaceTheme } from './preference/workspace-theme.entity';
import { ProjectInvitation } from './member/project-invitation.entity';

// page
import { Page } from './page/page.entity';
import { ProjectPage } from './page/project-page.entity';
import { PageLabel } from './page/page-label.entity';
import { PageVersion } from './page/page-version.entity';

// preference
import { WorkspaceHomePreference } from './preference/workspace-home-preference.entity';
import { WorkspaceUserPreference } from './preference/workspace-user-preference.entity';
import { WorkspaceUserLink } from './preference/workspace-user-link.entity';
import { UserRecentVisit } from './preference/user-recent-visit.entity';
import { WorkspaceUserProperties } from './preference/workspace-user-properties.entity';
import { IssueUserProperty } from './preference/issue-user-property.entity';
import { CycleUserProperties } from './preference/cycle-user-properties.entity';
import { ModuleUserProperties } from './preference/module-user-properties.entity';

// project
import { ProjectMember } from './project/project-member.entity';
import { Project } from './project/project.entity';

// relation
import { IssueRelation } from './relation/issue-relation.entity';

// draft
import { DraftIssue } from './draft/draft-issue.entity';
import { DraftIssueAssignee } from './draft/draft-issue-assignee.entity';
import { DraftIssueCycle } from './draft/draft-issue-cycle.entity';
import { DraftIssueLabel } from './draft/draft-issue-label.entity';
import { DraftIssueModule } from './draft/draft-issue-module.entity';

// state
import { State } from './state/state.entity';

// sticky
import { Sticky } from './sticky/sticky.entity';

// user
import { User } from './user/user.entity';
import { Profile } from './user/profile.entity';

// audit
import { AuditLog } from './audit/audit-log.entity';

// view
import { IssueView } from './view/issue-view.entity';

// webhook
import { Webhook } from './webhook/webhook.entity';
import { WebhookDelivery } from './webhook/webhook-delivery.entity';
import { WebhookLog } from './webhook/webhook-log.entity';

// workspace
import { WorkspaceMember } from './workspace/workspace-member.entity';
import { Workspace } from './workspace/workspace.entity';

/** Every entity; the data source (libs/database) registers exactly these. One line per feature. */
export const ENTITIES = [
  // analytics
  AnalyticView,

  // api-token
  ApiToken,

  // audit
  AuditLog,

  // attachment
  FileAsset,

  // auth
  AuthCode,
  UserAccount,
  AuthSession,
  AuthToken,
  SsoConnection,
  SsoConnectionDomain,
  SamlRequest,
  SamlAssertion,
  SamlSession,

  // cycle
  Cycle,
  CycleIssue,

  // deploy-board
  DeployBoard,

  // exporter
  ExporterHistory,

  // email-notification
  EmailNotificationLog,

  // estimate
  Estimate,
  EstimatePoint,

  // favorite
  UserFavorite,

  // instance
  Instance,
  InstanceAdmin,
  InstanceAdminSession,

  // instance-config
  InstanceConfiguration,

  // intake
  Intake,
  IntakeIssue,

  // invitation
  WorkspaceInvitation,

  // issue
  Issue,
  IssueAssignee,
  IssueLabel,
  IssueDescriptionVersion,
  ProjectIssueCounter,
  IssueComment,
  IssueLink,
  IssueActivity,
  CommentReaction,
  IssueReaction,
  IssueVote,

  // label
  Label,

  // module
  Module,
  ModuleIssue,
  ModuleLink,
  ModuleMember,

  // notification
  IssueSubscriber,
  Notification,
  UserNotificationPreference,

  // profiles: themes, project invitations
  WorkspaceTheme,
  ProjectInvitation,

  // page
  Page,
  ProjectPage,
  PageLabel,
  PageVersion,

  // preference
  WorkspaceHomePreference,
  WorkspaceUserPreference,
  WorkspaceUserLink,
  UserRecentVisit,
  WorkspaceUserProperties,
  IssueUserProperty,
  CycleUserProperties,
  ModuleUserProperties,

  // project
  ProjectMember,
  Project,

  // relation
  IssueRelation,

  // draft
  DraftIssue,
  DraftIssueAssignee,
  DraftIssueCycle,
  DraftIssueLabel,
  DraftIssueModule,

  // state
  State,

  // sticky
  Sticky,

  // user
  User,
  Profile,

  // view
  IssueView,

  // webhook
  Webhook,
  WebhookDelivery,
  WebhookLog,

  // workspace
  WorkspaceMember,
  Workspace,

  // kernel: the job runner's state
  ScheduledJobState,
];
