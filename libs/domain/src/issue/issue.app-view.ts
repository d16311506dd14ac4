import type { ProjectLiteJson } from '../project';
import type { User } from '../user';
import type { IssueActivity } from './issue-activity.entity';
import type { Issue } from './issue.entity';
import { activityView, CommentJson } from './issue.view';
import { storedSides } from './activity-writer';
import type { ReactionJson } from './reaction.service';

/** Plane's `UserLiteSerializer` (`plane/app/serializers/user.py`): the `actor_detail` of a comment. */
export function actorDetailView(u: User) {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    avatar: u.avatar,
    avatar_url: u.avatar,
    is_bot: u.isBot,
    display_name: u.displayName,
  };
}

/**
 * Plane's `IssueFlatSerializer` (`plane/app/serializers/issue.py`): the `issue_detail` of a history
 * row or comment. Plane's `description` (a JSON document Meridian does not keep) is left out.
 */
export function issueFlatView(i: Issue) {
  return {
    id: i.id,
    name: i.name,
    description_html: i.descriptionHtml,
    priority: i.priority,
    start_date: i.startDate,
    target_date: i.targetDate,
    sequence_id: i.sequenceId,
    sort_order: Number(i.sortOrder),
    is_draft: i.isDraft,
  };
}

/**
 * The work item, project and workspace a history row or comment hangs off, as Plane's serializers
 * nest them (`issue_detail`: `IssueFlatSerializer`, `project_detail`: `ProjectLiteSerializer`,
 * `workspace_detail`: `WorkspaceLiteSerializer`); the same for every row of one work item.
 */
export interface AppIssueDetails {
  issue_detail: ReturnType<typeof issueFlatView>;
  project_detail: ProjectLiteJson;
  workspace_detail: { id: string; name: string; slug: string; logo_url: string | null };
}

/** Where a work item came from when it came through intake (Plane's `source_data`), else null. */
export interface IntakeSource {
  source: string | null;
  source_email: string | null;
  extra: Record<string, unknown>;
}

/**
 * A comment on the App API: Plane's `IssueCommentSerializer` (`plane/app/serializers/issue.py`:
 * the model fields plus `actor_detail`, `issue_detail`, `project_detail`, `workspace_detail` and
 * `comment_reactions`, each a `CommentReactionSerializer`) with `issue_id`, `project_id` and
 * `workspace_id` beside `issue`, `project` and `workspace`. With `fields=`, the `_id` keys follow
 * the picked ones; `actor_detail` (null without `actor`), the details and `comment_reactions` are
 * always there.
 */
export function appCommentView(
  c: Partial<CommentJson>,
  actor: User | undefined,
  reactions: ReactionJson[],
  details: AppIssueDetails,
) {
  return {
    ...c,
    ...(c.issue !== undefined ? { issue_id: c.issue } : {}),
    ...(c.project !== undefined ? { project_id: c.project } : {}),
    ...(c.workspace !== undefined ? { workspace_id: c.workspace } : {}),
    actor_detail: actor ? actorDetailView(actor) : null,
    ...details,
    comment_reactions: reactions,
  };
}
export type AppCommentJson = ReturnType<typeof appCommentView>;

/**
 * A history row on the App API: Plane's `IssueActivitySerializer` (`plane/app/serializers/issue.py`:
 * the model fields plus `actor_detail` (null for a row without an actor), `issue_detail`,
 * `project_detail`, `workspace_detail` and `source_data`, the intake source of the work item or null).
 */
export function appActivityView(
  a: IssueActivity,
  actor: User | undefined,
  details: AppIssueDetails,
  source: IntakeSource | null,
) {
  const row = activityView(a);
  // Plane writes "" for the empty side of some kinds (a label, assignee, cycle, module, relation or
  // parent added or removed, a date set or cleared); its web app tells "added" from "removed" by
  // `old_value === ""`. Rows written before Meridian stored "" read the same.
  const sides = storedSides(a.field, a.verb, row.old_value, row.new_value);
  return {
    ...row,
    old_value: sides.oldValue,
    new_value: sides.newValue,
    created_by: a.createdById,
    updated_by: a.updatedById,
    actor_detail: actor ? actorDetailView(actor) : null,
    ...details,
    source_data: source,
  };
}
export type AppActivityJson = ReturnType<typeof appActivityView>;
