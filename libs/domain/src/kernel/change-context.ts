/** Where a change happened and who made it. */
export interface ChangeContext {
  workspaceId: string;
  projectId: string;
  userId: string;
}

/**
 * One work item history row to write (Plane's `issue_activity`): `verb` created/updated/deleted,
 * the `field` changed (null for the work item itself), old and new values as text, and the ids of
 * referenced objects in `old_identifier` / `new_identifier` (state, parent, assignees, labels…).
 */
export interface ActivityEntry {
  issueId: string | null;
  verb: string;
  field?: string | null;
  oldValue?: string | null;
  newValue?: string | null;
  oldIdentifier?: string | null;
  newIdentifier?: string | null;
  comment: string;
  issueCommentId?: string | null;
}
