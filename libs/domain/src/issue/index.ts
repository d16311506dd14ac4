// The issue room's door: what other features, apps/, test/ and bench/ use.
export { IssueFeatureModule } from './issue.module';
export { IssueQueryService } from './issue-query.service';
export type {
  ActorActivityScope,
  BoardIssueFilters,
  BoardIssueOrder,
  PickerExclusions,
  PlanningLinkScope,
} from './issue.repository';
export type {
  AppIssueJson,
  GroupedIssues,
  IssueListQuery,
  SubGroupedIssues,
  SyncPage,
  SyncQuery,
} from './issue-query.service';
export { IssueCommandService } from './issue-command.service';
export type { IssueContext, IssueInput } from './issue-command.service';
export { IssueChildrenService } from './issue-children.service';
export type { CommentInput, HistoryKind, LinkInput } from './issue-children.service';
export { IssueOperationsService } from './issue-operations.service';
export type { BulkIssueProperties } from './issue-operations.service';
export { ReactionService } from './reaction.service';
export { IssueCreateBatcher } from './issue-create-batcher';
export { Issue, PRIORITIES } from './issue.entity';
export type { Priority } from './issue.entity';
export { IssueAssignee } from './issue-assignee.entity';
export { IssueLabel } from './issue-label.entity';
export { IssueComment } from './issue-comment.entity';
export { IssueReaction } from './issue-reaction.entity';
export { CommentReaction } from './comment-reaction.entity';
export { IssueVote } from './issue-vote.entity';
export { commentView, issueView } from './issue.view';
// the App history row (Plane's IssueActivitySerializer), for the profile pages' activity lists
export { IssueActivity } from './issue-activity.entity';
export { appActivityView, issueFlatView } from './issue.app-view';
export type { AppActivityJson, AppIssueDetails, IntakeSource } from './issue.app-view';
export type { IssueJson } from './issue.view';
export { stripHtml, writeActivities } from './activity-writer';
export type { ActivityEntry, ChangeContext } from './activity-writer';
// priority order and ordering keys, for the features above (the published boards, views)
export { ISSUE_ORDER_KEYS } from './issue-filters';
// the work item search's statement, for the tests that read it both ways (walk and trigram index)
export { issueSearch } from './issue.repository';
export type { DateFilter, IssueOrderKey } from './issue-filters';
// The issue room's read contract: the SQL it publishes for the statements of other rooms that read
// work items (the read models: analytics, the daily automation, a cycle's or module's distribution,
// email notifications, exports, the inbox, the profile counts; and intake's list) to compose: one
// definition each of visibility (the live project, the visible work item, triage), the Guest rule,
// the visible work items' query and the filter compiler with its binders (and which filters the
// tallies answer: `talliedFilters`). Those repositories may
// import these names alone from this door (ISSUE_READ_CONTRACT, .dependency-cruiser.read-models.cjs).
export { LIVE_PROJECT, notInTriage, VISIBLE_ISSUE } from './issue.sql';
// the projects whose tallies per assignee and per label (`issue_set_tallies`) a scope reads
export { tallyProjects } from './issue-tallies';
export {
  bindNamed,
  bindPositional,
  guestCondition,
  guestRule,
  issueFilterConditions,
  talliedFilters,
} from './issue-filters';
export type { IssueFilterSet } from './issue-filters';
export { visibleIssuesQuery } from './issue.repository';
