import { MeridianError, Principal, ProjectAccess, WorkspaceAccess } from '#common';
import type { IssueContext } from '#domain';

/** The change context the domain services take, from the guards' findings. */
export function issueContext(me: Principal, ws: WorkspaceAccess, project: ProjectAccess): IssueContext {
  return { workspaceId: ws.workspaceId, projectId: project.projectId, userId: me.userId, role: project.role };
}

/** One query parameter given at most once; 400 `INVALID_QUERY_PARAMETER` otherwise. */
export function single(query: Record<string, unknown>, name: string): string | undefined {
  const v = query[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new MeridianError('INVALID_QUERY_PARAMETER', `${name} was given more than once.`);
  return v;
}
