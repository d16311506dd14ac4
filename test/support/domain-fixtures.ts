import assert from 'node:assert/strict';
import { after, before } from 'node:test';
import { AccountService, ProjectService, WorkspaceInvitationService, WorkspaceService } from '#domain';
import { DomainContext, startDomainContext } from './domain-context';
import { unique } from './fixtures';

/**
 * A workspace owner (signed up through `AccountService`) with a workspace and a project, made by the
 * services, and the contexts the owner acts with: `ctx` (project Admin, the project rooms'
 * `ChangeContext`) and `actor` (workspace Admin, the workspace and project rooms' `Actor`).
 */
export async function seedProject(d: DomainContext): Promise<Seeded> {
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
  const workspaceId = workspace.id as string;
  const projectId = project.id as string;
  return {
    userId,
    email,
    tokens: account,
    workspaceId,
    projectId,
    ctx: { workspaceId, projectId, userId, role: 20 },
    actor: { userId, workspaceRole: 20 },
  };
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

/** A seeded workspace owner, their workspace and project (`seedProject`). */
export interface Seeded {
  userId: string;
  email: string;
  /** the owner's sign-up answer (tokens and user) */
  tokens: Awaited<ReturnType<AccountService['signUp']>>;
  workspaceId: string;
  projectId: string;
  /** the owner acting as project Admin (`ChangeContext` of the project rooms) */
  ctx: ProjectContext;
  /** the owner as a workspace Admin (`Actor` of the workspace and project rooms) */
  actor: { userId: string; workspaceRole: number };
}

/** The context the project rooms' services take: the project, its workspace, the user and their project role. */
export interface ProjectContext {
  workspaceId: string;
  projectId: string;
  userId: string;
  role: number;
}

/** What `domainSuite` hands its set-up: the context, and `projects` seeded owners (the first also as `p`). */
export interface DomainSuite {
  d: DomainContext;
  /** the first seeded project (undefined with `projects: 0`) */
  p: Seeded;
  /** the second seeded project, another workspace and owner (a stranger to `p`) */
  other: Seeded;
  /** `p.ctx` */
  ctx: ProjectContext;
  seeded: Seeded[];
}

/**
 * The set-up every domain test file shares, registered as the enclosing `describe`'s `before` and
 * `after`: a domain context on a fresh database (`startDomainContext(env)`), `projects` seeded owners
 * (default 1, each in a workspace of their own), then `setUp` with them (take the services there);
 * the context is closed after the suite.
 */
export function domainSuite(
  opts: { projects?: number; env?: Record<string, string> },
  setUp?: (s: DomainSuite) => void | Promise<void>,
): void {
  let d: DomainContext | undefined;
  before(async () => {
    d = await startDomainContext(opts.env);
    const seeded: Seeded[] = [];
    for (let k = 0; k < (opts.projects ?? 1); k++) seeded.push(await seedProject(d));
    await setUp?.({ d, p: seeded[0], other: seeded[1], ctx: seeded[0]?.ctx, seeded });
  });
  after(() => d?.close());
}
