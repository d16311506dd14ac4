import { ApiToken } from './api-token/api-token.entity';
import { AuthCode } from './auth/auth-code.entity';
import { UserAccount } from './auth/user-account.entity';
import { AuthSession } from './auth/auth-session.entity';
import { AuthToken } from './auth/auth-token.entity';
import { Instance, InstanceAdmin, InstanceAdminSession, InstanceConfiguration } from './instance-config/instance.entity';
import { WorkspaceInvitation } from './invitation/workspace-invitation.entity';
import { ProjectMember } from './project/project-member.entity';
import { Project } from './project/project.entity';
import { State } from './state/state.entity';
import { User } from './user/user.entity';
import { Label } from './label/label.entity';
import { Issue, IssueAssignee, IssueLabel, ProjectIssueCounter } from './issue/issue.entity';
import { IssueComment } from './issue/issue-comment.entity';
import { IssueLink } from './issue/issue-link.entity';
import { IssueActivity } from './issue/issue-activity.entity';
import { CommentReaction } from './issue/comment-reaction.entity';
import { DeployBoard } from './deploy-board/deploy-board.entity';
import { IssueReaction } from './issue/issue-reaction.entity';
import { IssueVote } from './issue/issue-vote.entity';
import { Cycle, CycleIssue } from './cycle/cycle.entity';
import { Module, ModuleIssue, ModuleMember } from './module/module.entity';
import { IssueRelation } from './relation/issue-relation.entity';
import { Estimate, EstimatePoint } from './estimate/estimate.entity';
import { Sticky } from './sticky/sticky.entity';
import { Intake, IntakeIssue } from './intake/intake.entity';
import { FileAsset } from './attachment/file-asset.entity';
import { IssueSubscriber, Notification } from './notification/notification.entity';
import { Profile } from './user/profile.entity';
import { WorkspaceMember } from './workspace/workspace-member.entity';
import { Workspace } from './workspace/workspace.entity';
import { Webhook, WebhookDelivery, WebhookLog } from './webhook/webhook.entity';

/** Every entity; the data source (libs/database) registers exactly these. */
export const ENTITIES = [
  User, AuthSession, AuthToken, AuthCode, UserAccount, Workspace, WorkspaceMember, ApiToken, Project, ProjectMember, State,
  Instance, InstanceAdmin, InstanceConfiguration, InstanceAdminSession,
  WorkspaceInvitation,
  Label, Issue, ProjectIssueCounter, IssueAssignee, IssueLabel, IssueComment, IssueLink, IssueActivity,
  DeployBoard, IssueReaction, IssueVote,
  Cycle, CycleIssue, Module, ModuleMember, ModuleIssue,
  IssueRelation,
  Estimate, EstimatePoint,
  Sticky,
  Intake, IntakeIssue,
  FileAsset,
  Notification, IssueSubscriber, Profile,
  CommentReaction,
  Webhook, WebhookLog, WebhookDelivery,
];
