/**
 * SQL condition on a work item alias: not waiting in intake (pending or snoozed). Such work items
 * stay out of every list and lookup (v1 and public) until they are accepted, declined or marked
 * duplicate (Plane's issue manager).
 */
export function notInTriage(alias: string): string {
  return `NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = ${alias}.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))`;
}
