import { MeridianError, Principal, singleParam, ProjectAccess, WorkspaceAccess } from '#common';
import type { IssueContext } from '#domain';

/** The change context the domain services take, from the guards' findings. */
export function issueContext(me: Principal, ws: WorkspaceAccess, project: ProjectAccess): IssueContext {
  return { workspaceId: ws.workspaceId, projectId: project.projectId, userId: me.userId, role: project.role };
}

/** One query parameter given at most once (`singleParam` of `#common`, the query-list reader's). */
export const single = singleParam;

/**
 * An integer query parameter from 1 to `max`, `fallback` when absent or empty; 400
 * `INVALID_QUERY_PARAMETER` ("<name> must be an integer from 1 to <max>.") otherwise.
 */
export function intInRange(query: Record<string, unknown>, name: string, fallback: number, max: number): number {
  const raw = single(query, name)?.trim();
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1 || Number(raw) > max) {
    throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} must be an integer from 1 to ${max}.`);
  }
  return Number(raw);
}
