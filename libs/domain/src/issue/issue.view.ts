import { iso, Time } from '../kernel/time';
import { IssueActivity } from './issue-activity.entity';
import { IssueComment } from './issue-comment.entity';
import { IssueLink } from './issue-link.entity';
import { Issue } from './issue.entity';

/**
 * A work item as the views read it: an `Issue`, or a row of a hot statement read with `ISO_TIMES`
 * (`issueRecordFromRow`), whose times are ISO 8601 text already (`Time`).
 */
export type IssueRecord = Omit<Issue, 'createdAt' | 'updatedAt' | 'deletedAt' | 'completedAt'> & {
  createdAt: Time;
  updatedAt: Time;
  deletedAt: Time | null;
  completedAt: Time | null;
};

/** A work item of a list read with `ISSUE_LIST_COLUMNS` (issue.sql.ts): an `IssueRecord` without its description. */
export type IssueListRecord = Omit<IssueRecord, 'descriptionHtml' | 'descriptionStripped'>;

/**
 * Plane's IssueSerializer output (`plane/api/serializers/issue.py`): the model fields plus
 * `assignees` and `labels` (ids) and `type_id`. No counts, no `description` JSON.
 */
export function issueView(i: IssueRecord, assignees: string[], labels: string[]) {
  return {
    id: i.id,
    name: i.name,
    description_html: i.descriptionHtml,
    description_stripped: i.descriptionStripped,
    description_binary: null,
    priority: i.priority,
    state: i.stateId,
    parent: i.parentId,
    point: i.point,
    estimate_point: i.estimatePointId,
    start_date: i.startDate,
    target_date: i.targetDate,
    sequence_id: i.sequenceId,
    sort_order: i.sortOrder,
    completed_at: iso(i.completedAt),
    archived_at: i.archivedAt,
    is_draft: i.isDraft,
    external_source: i.externalSource,
    external_id: i.externalId,
    type: i.typeId,
    type_id: i.typeId,
    assignees,
    labels,
    project: i.projectId,
    workspace: i.workspaceId,
    created_at: iso(i.createdAt),
    updated_at: iso(i.updatedAt),
    deleted_at: iso(i.deletedAt),
    created_by: i.createdById,
    updated_by: i.updatedById,
  };
}
export type IssueJson = ReturnType<typeof issueView>;

/**
 * A work item from a row of `ISSUE_COLUMNS` (issue.sql.ts: snake_case columns, dates as text), in
 * the shape TypeORM would have loaded.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function issueFromRow(r: Record<string, any>): Issue {
  return {
    id: r.id,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
    deletedAt: r.deleted_at,
    createdById: r.created_by_id,
    updatedById: r.updated_by_id,
    workspaceId: r.workspace_id,
    projectId: r.project_id,
    name: r.name,
    descriptionHtml: r.description_html,
    descriptionStripped: r.description_stripped,
    priority: r.priority,
    stateId: r.state_id,
    parentId: r.parent_id,
    point: r.point,
    estimatePointId: r.estimate_point_id,
    startDate: r.start_date,
    targetDate: r.target_date,
    sequenceId: r.sequence_id,
    sortOrder: r.sort_order,
    completedAt: r.completed_at,
    archivedAt: r.archived_at,
    isDraft: r.is_draft,
    externalSource: r.external_source,
    externalId: r.external_id,
    typeId: r.type_id,
  } as Issue;
}

/** `issueFromRow` for a row read with `ISO_TIMES` (hot-query.ts): its times stay ISO 8601 text. */
export const issueRecordFromRow = issueFromRow as (r: Record<string, unknown>) => IssueRecord;

/** Plane's IssueCommentSerializer (`plane/api/serializers/issue.py`). `is_member` only on reads. */
export function commentView(c: IssueComment, isMember?: boolean) {
  return {
    id: c.id,
    comment_html: c.commentHtml,
    comment_stripped: c.commentStripped,
    attachments: c.attachments,
    access: c.access,
    external_source: c.externalSource,
    external_id: c.externalId,
    edited_at: iso(c.editedAt),
    actor: c.actorId,
    issue: c.issueId,
    project: c.projectId,
    workspace: c.workspaceId,
    created_at: iso(c.createdAt),
    updated_at: iso(c.updatedAt),
    deleted_at: iso(c.deletedAt),
    created_by: c.createdById,
    updated_by: c.updatedById,
    ...(isMember === undefined ? {} : { is_member: isMember }),
  };
}
export type CommentJson = ReturnType<typeof commentView>;

/** Plane's IssueLinkSerializer (`plane/api/serializers/issue.py`). */
export function linkView(l: IssueLink) {
  return {
    id: l.id,
    title: l.title,
    url: l.url,
    metadata: l.metadata,
    issue: l.issueId,
    project: l.projectId,
    workspace: l.workspaceId,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    deleted_at: iso(l.deletedAt),
    created_by: l.createdById,
    updated_by: l.updatedById,
  };
}
export type LinkJson = ReturnType<typeof linkView>;

/**
 * Plane's `IssueLinkLiteSerializer` (`plane/app/serializers/issue.py`): a link as `expand=issue_link`
 * nests it in the App API's work item detail.
 */
export function linkLiteView(l: IssueLink) {
  return {
    id: l.id,
    issue_id: l.issueId,
    title: l.title,
    url: l.url,
    metadata: l.metadata,
    created_by_id: l.createdById,
    created_at: iso(l.createdAt),
  };
}

/** Plane's IssueActivitySerializer (`plane/api/serializers/issue.py`). */
export function activityView(a: IssueActivity) {
  return {
    id: a.id,
    verb: a.verb,
    field: a.field,
    old_value: a.oldValue,
    new_value: a.newValue,
    comment: a.comment,
    attachments: a.attachments,
    old_identifier: a.oldIdentifier,
    new_identifier: a.newIdentifier,
    epoch: a.epoch,
    issue: a.issueId,
    issue_comment: a.issueCommentId,
    actor: a.actorId,
    project: a.projectId,
    workspace: a.workspaceId,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
    deleted_at: iso(a.deletedAt),
  };
}
export type ActivityJson = ReturnType<typeof activityView>;
