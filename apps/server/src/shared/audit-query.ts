import { MeridianError } from '#common';
import { AUDIT_EVENTS, type AuditFilters } from '#domain';
import { single } from './context';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const KNOWN_EVENTS = new Set<string>(AUDIT_EVENTS);

function uuid(query: Record<string, unknown>, name: string): string | undefined {
  const v = single(query, name)?.trim();
  if (!v) return undefined;
  if (!UUID.test(v)) throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be a UUID.`);
  return v.toLowerCase();
}

function time(query: Record<string, unknown>, name: string): Date | undefined {
  const v = single(query, name)?.trim();
  if (!v) return undefined;
  const d = /^\d{4}-\d\d-\d\d([T ]\d\d:\d\d(:\d\d(\.\d{1,6})?)?(Z|[+-]\d\d:?\d\d)?)?$/.test(v) ? new Date(v) : null;
  if (!d || Number.isNaN(d.getTime()))
    throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be an ISO 8601 date or time.`);
  return d;
}

/**
 * The audit log's filters from the query string (docs/audit.md): `event` (one or more names,
 * comma-separated), `actor` (user id), `project` (project id), `from` (at or after) and `to`
 * (before), ISO 8601; on the instance's route also `workspace` (workspace id). 400
 * `INVALID_QUERY_PARAMETER` for an unknown event, a malformed id or time, or a parameter given twice.
 */
export function auditFilters(query: Record<string, unknown>, options: { workspace: boolean }): AuditFilters {
  const filters: AuditFilters = {};
  const events = single(query, 'event')
    ?.split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (events?.length) {
    const unknown = events.find((e) => !KNOWN_EVENTS.has(e));
    if (unknown !== undefined)
      throw new MeridianError('INVALID_QUERY_PARAMETER', `event: unknown audit event "${unknown.slice(0, 64)}".`);
    filters.events = events;
  }
  filters.actorId = uuid(query, 'actor');
  filters.projectId = uuid(query, 'project');
  if (options.workspace) filters.workspaceId = uuid(query, 'workspace');
  filters.from = time(query, 'from');
  filters.to = time(query, 'to');
  return filters;
}
