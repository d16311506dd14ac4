import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { TestApp } from './test-app';

export const unique = (prefix = 'x') => `${prefix}${randomBytes(4).toString('hex')}`;

export interface SignedUp {
  token: string;
  userId: string;
  email: string;
  password: string;
}

export async function signUp(
  t: TestApp,
  email = `${unique('user')}@example.com`,
  password = 'correct horse 1',
): Promise<SignedUp> {
  const res = await t.api.post('/auth/sign-up/').send({ email, password });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { token: res.body.access_token, userId: res.body.user.id, email, password };
}

export async function createWorkspace(
  t: TestApp,
  token: string,
  slug = unique('ws-'),
): Promise<{ id: string; slug: string }> {
  const res = await t.api
    .post('/api/workspaces/')
    .auth(token, { type: 'bearer' })
    .send({ name: `Workspace ${slug}`, slug });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return { id: res.body.id, slug };
}

export async function createApiKey(
  t: TestApp,
  token: string,
  slug: string,
  body: Record<string, unknown> = {},
): Promise<string> {
  const res = await t.api
    .post(`/api/workspaces/${slug}/api-tokens/`)
    .auth(token, { type: 'bearer' })
    .send({ label: 'ci', ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.token;
}

export async function createProject(t: TestApp, key: string, slug: string, body: Record<string, unknown> = {}) {
  const identifier = (body.identifier as string | undefined) ?? unique('P').slice(0, 8).toUpperCase();
  const res = await t.api
    .post(`/api/v1/workspaces/${slug}/projects/`)
    .set('X-API-Key', key)
    .send({ name: `Project ${identifier}`, identifier, ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; identifier: string; name: string };
}

/** Adds an existing user to a workspace with a role (the invitation flow comes with the App API issue). */
export async function addMember(t: TestApp, workspaceId: string, userId: string, role: number): Promise<void> {
  await t.sql('INSERT INTO workspace_members (workspace_id, member_id, role) VALUES ($1, $2, $3)', [
    workspaceId,
    userId,
    role,
  ]);
}

/** Asserts Meridian's error shape and returns the body. */
export function assertError(res: { status: number; body: unknown }, status: number, code: string) {
  assert.equal(res.status, status, JSON.stringify(res.body));
  const body = res.body as { detail?: unknown; error_code?: unknown };
  assert.equal(body.error_code, code, JSON.stringify(res.body));
  assert.equal(typeof body.detail, 'string');
  return body as { detail: string; error_code: string; [k: string]: unknown };
}

/** Signs in as the test app's instance admin (`startTestApp()` sets one up) and returns the admin access token. */
export async function adminToken(t: TestApp): Promise<string> {
  assert.ok(t.admin, 'this test app was started with { setup: false }');
  const res = await t.api
    .post('/api/instances/admins/sign-in/')
    .send({ email: t.admin.email, password: t.admin.password });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body.access_token;
}

/** PATCHes instance configuration values with an admin token and asserts 200. */
export async function configure(t: TestApp, token: string, values: Record<string, string | null>) {
  const res = await t.api.patch('/api/instances/configurations/').auth(token, { type: 'bearer' }).send(values);
  assert.equal(res.status, 200, JSON.stringify(res.body));
  return res.body as { key: string; value: string; is_set: boolean; source: string }[];
}

/** Sets a role on an existing membership row (test setup). */
export async function setWorkspaceRole(t: TestApp, workspaceId: string, userId: string, role: number): Promise<void> {
  await t.sql('UPDATE workspace_members SET role = $3 WHERE workspace_id = $1 AND member_id = $2', [
    workspaceId,
    userId,
    role,
  ]);
}

/** Creates a project through the App API as `token`'s user. */
export async function createAppProject(t: TestApp, token: string, slug: string, body: Record<string, unknown> = {}) {
  const identifier = (body.identifier as string | undefined) ?? unique('P').slice(0, 8).toUpperCase();
  const res = await t.api
    .post(`/api/workspaces/${slug}/projects/`)
    .auth(token, { type: 'bearer' })
    .send({ name: `Project ${identifier}`, identifier, ...body });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body as { id: string; identifier: string; name: string; network: number };
}

/** Adds an existing workspace member to a project with a role (test setup). */
export async function addProjectMember(
  t: TestApp,
  workspaceId: string,
  projectId: string,
  userId: string,
  role: number,
): Promise<void> {
  await t.sql('INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, $4)', [
    workspaceId,
    projectId,
    userId,
    role,
  ]);
}

/** The id of a user's workspace membership row. */
export async function membershipId(t: TestApp, workspaceId: string, userId: string): Promise<string> {
  const rows = await t.sql<{ id: string }>(
    'SELECT id FROM workspace_members WHERE workspace_id = $1 AND member_id = $2',
    [workspaceId, userId],
  );
  assert.equal(rows.length, 1);
  return rows[0].id;
}

/** The id of a user's project membership row. */
export async function projectMembershipId(t: TestApp, projectId: string, userId: string): Promise<string> {
  const rows = await t.sql<{ id: string }>('SELECT id FROM project_members WHERE project_id = $1 AND member_id = $2', [
    projectId,
    userId,
  ]);
  assert.equal(rows.length, 1);
  return rows[0].id;
}

/**
 * Adds an existing user to a workspace with `role` and returns an API key of theirs (keys are made
 * by workspace Admins, so the user is an Admin while the key is created).
 */
export async function addMemberWithKey(
  t: TestApp,
  ws: { id: string; slug: string },
  user: SignedUp,
  role: number,
): Promise<string> {
  await addMember(t, ws.id, user.userId, 20);
  const key = await createApiKey(t, user.token, ws.slug);
  await setWorkspaceRole(t, ws.id, user.userId, role);
  return key;
}

/**
 * The External API's (v1) writes of a project's work items with an API key, each asserting its
 * status: `create` (201, the new id), `patch` (200), `submit` to intake (201, the work item's id)
 * and `triage` of an intake work item (200).
 */
export function v1WorkItems(t: TestApp, slug: string, key: string) {
  const v1 = (pid: string, path: string) => `/api/v1/workspaces/${slug}/projects/${pid}/${path}`;
  const send = async (req: import('supertest').Test, body: Record<string, unknown>, status: number) => {
    const res = await req.set('X-API-Key', key).send(body);
    assert.equal(res.status, status, JSON.stringify(res.body));
    return res.body as Record<string, unknown>;
  };
  return {
    create: async (pid: string, body: Record<string, unknown> = {}) =>
      (await send(t.api.post(v1(pid, 'work-items/')), { name: 'Item', ...body }, 201)).id as string,
    patch: async (pid: string, id: string, body: Record<string, unknown>) => {
      await send(t.api.patch(v1(pid, `work-items/${id}/`)), body, 200);
    },
    submit: async (pid: string, name: string) =>
      (await send(t.api.post(v1(pid, 'intake-issues/')), { issue: { name } }, 201)).issue as string,
    triage: async (pid: string, issueId: string, body: Record<string, unknown>) => {
      await send(t.api.patch(v1(pid, `intake-issues/${issueId}/`)), body, 200);
    },
  };
}

/**
 * Runs migration `name`'s `down`, then its `up`, in a transaction that is rolled back (a lane's
 * database is shared), calling `afterDown` and `afterUp` with a query function of that transaction.
 */
export async function rerunMigration(
  t: TestApp,
  name: string,
  checks: {
    afterDown: (query: (text: string, params?: unknown[]) => Promise<unknown[]>) => Promise<void>;
    afterUp: (query: (text: string, params?: unknown[]) => Promise<unknown[]>) => Promise<void>;
  },
): Promise<void> {
  const migration = t.database.dataSource.migrations.find((m) => m.name === name);
  assert.ok(migration, `migration ${name} is known to the server`);
  const runner = t.database.dataSource.createQueryRunner();
  const query = (text: string, params?: unknown[]) => runner.query(text, params) as Promise<unknown[]>;
  try {
    await runner.startTransaction();
    await migration.down(runner);
    await checks.afterDown(query);
    await migration.up(runner);
    await checks.afterUp(query);
  } finally {
    await runner.rollbackTransaction();
    await runner.release();
  }
}
