import assert from 'node:assert/strict';
import { AccountService, ProjectService, WorkspaceInvitationService, WorkspaceService } from '#domain';
import type { DomainContext } from './domain-context';
import { unique } from './fixtures';

/** A workspace owner (signed up through `AccountService`) with a workspace and a project, made by the services. */
export async function seedProject(d: DomainContext) {
  const email = `${unique('owner')}@example.com`;
  const account = await d
    .get(AccountService)
    .signUp({ email, password: 'correct horse 1' }, { ipAddress: '127.0.0.1' });
  const userId = account.user.id as string;
  const slug = unique('ws-');
  const workspace = await d.get(WorkspaceService).create(userId, { name: `Workspace ${slug}`, slug });
  const identifier = unique('P').slice(0, 8).toUpperCase();
  const project = await d
    .get(ProjectService)
    .create(workspace.id, { userId, workspaceRole: 20 }, { name: `Project ${identifier}`, identifier });
  return { userId, email, tokens: account, workspaceId: workspace.id as string, projectId: project.id as string };
}

/** Asserts that `promise` rejects with a `MeridianError` of `code`, and returns it. */
export async function rejectsWith(
  promise: Promise<unknown>,
  code: string,
): Promise<{ code: string; extra: Record<string, unknown> }> {
  let caught: unknown;
  await promise.then(
    () => assert.fail(`expected ${code}, but it succeeded`),
    (err: unknown) => (caught = err),
  );
  const err = caught as { name?: string; code?: string; extra?: Record<string, unknown> };
  assert.equal(err.name, 'MeridianError', String((caught as Error)?.stack ?? caught));
  assert.equal(err.code, code);
  return { code: err.code!, extra: err.extra ?? {} };
}

/**
 * A new account made a member of `workspaceId` with `role`, through the invitation room's door
 * (invited by `inviter`, an Admin of it, and accepted signed in): `{userId, email, memberRowId}`.
 */
export async function addWorkspaceMember(
  d: DomainContext,
  workspaceId: string,
  inviter: { userId: string; email: string },
  role: number,
) {
  const email = `${unique('member')}@example.com`;
  const account = await d
    .get(AccountService)
    .signUp({ email, password: 'correct horse 1' }, { ipAddress: '127.0.0.1' });
  const userId = account.user.id as string;
  const invitations = d.get(WorkspaceInvitationService);
  await invitations.invite(workspaceId, { ...inviter, role: 20 }, { emails: [{ email, role }] });
  const [invitation] = await d.sql<{ id: string }>(
    'SELECT id FROM workspace_member_invites WHERE workspace_id = $1 AND email = $2 AND deleted_at IS NULL',
    [workspaceId, email],
  );
  await invitations.acceptMine({ userId, email }, [invitation.id]);
  const [row] = await d.sql<{ id: string }>(
    'SELECT id FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
    [workspaceId, userId],
  );
  return { userId, email, memberRowId: row.id };
}
