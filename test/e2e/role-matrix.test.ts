import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  createApiKey,
  createAppProject,
  createWorkspace,
  membershipId,
  projectMembershipId,
  signUp,
  SignedUp,
  unique,
} from '../support/fixtures';
import { ROOT } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Every App API route called as anonymous, a signed-in non-member, a workspace Guest, Member and
 * Admin (in that order, so that a permitted write happens last), checking each status. In the
 * world of each route, the Admin created the workspace and a public project where the Member is a
 * project Member (15) and the Guest a project Guest (5).
 */
type Caller = 'anonymous' | 'outsider' | 'guest' | 'member' | 'admin';
const CALLERS: Caller[] = ['anonymous', 'outsider', 'guest', 'member', 'admin'];

interface World {
  admin: SignedUp;
  member: SignedUp;
  guest: SignedUp;
  outsider: SignedUp;
  w: { id: string; slug: string };
  project: { id: string };
}

interface Call {
  path: string;
  body?: Record<string, unknown>;
  query?: Record<string, string>;
  /** a multipart upload: the file as the `field` part (Plane's legacy uploads: `asset`), and text fields */
  upload?: { field: string; name: string; type: string; content: Buffer; fields?: Record<string, string> };
}

interface Case {
  route: string;
  prepare: (world: World, caller: SignedUp | null) => Promise<Call> | Call;
  expect: [number, number, number, number, number];
}

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');

describe('role matrix: every App API route × anonymous, non-member, Guest, Member, Admin', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp()));
  after(() => t.close());

  type Users = Pick<World, 'admin' | 'member' | 'guest' | 'outsider'>;
  const newUsers = async (): Promise<Users> => {
    const [admin, member, guest, outsider] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    return { admin, member, guest, outsider };
  };
  /**
   * The four callers that most worlds share: those of the read-only (GET) routes, and of the routes
   * under a workspace (`/api/workspaces/{slug}/…`), whose writes change that world's workspace and
   * project, not the user. Each world has its own workspace and project, so a caller's role there is
   * the one the world gives. The other routes that write (`/api/users/…`, the user's assets) get four
   * new users: their writes touch the user (profile, onboarding, deactivation). Four sign-ups are
   * about two thirds of a world's cost.
   */
  let shared: Promise<Users> | null = null;
  const sharesUsers = (route: string) => route.startsWith('GET ') || / \/api\/workspaces\//.test(route);

  async function world(users?: Users): Promise<World> {
    const { admin, member, guest, outsider } = users ?? (await newUsers());
    const w = await createWorkspace(t, admin.token);
    await addMember(t, w.id, member.userId, 15);
    await addMember(t, w.id, guest.userId, 5);
    const project = await createAppProject(t, admin.token, w.slug, { network: 2 });
    await addProjectMember(t, w.id, project.id, member.userId, 15);
    await addProjectMember(t, w.id, project.id, guest.userId, 5);
    return { admin, member, guest, outsider, w, project };
  }

  async function wsMember(x: World, role: number): Promise<SignedUp> {
    const u = await signUp(t);
    await addMember(t, x.w.id, u.userId, role);
    return u;
  }

  async function projectMemberRow(x: World, role: number): Promise<string> {
    const u = await wsMember(x, role);
    await addProjectMember(t, x.w.id, x.project.id, u.userId, role);
    return projectMembershipId(t, x.project.id, u.userId);
  }

  /** An invitation made by the Admin, with a known link token. */
  async function invitation(x: World, slug = x.w.slug, inviter = x.admin, email = `${unique('inv')}@example.com`) {
    const res = await t.api
      .post(`/api/workspaces/${slug}/invitations/`)
      .auth(inviter.token, { type: 'bearer' })
      .send({ emails: [{ email, role: 5 }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const token = unique('tok');
    const rows = await t.sql<{ id: string }>(
      'SELECT i.id FROM workspace_member_invites i JOIN workspaces w ON w.id = i.workspace_id WHERE w.slug = $1 AND i.email = $2 AND i.deleted_at IS NULL',
      [slug, email],
    );
    assert.equal(rows.length, 1);
    await t.sql('UPDATE workspace_member_invites SET token_digest = $2 WHERE id = $1', [rows[0].id, sha256(token)]);
    return { id: rows[0].id, email, token };
  }

  async function apiToken(x: World): Promise<string> {
    const res = await t.api
      .post(`/api/workspaces/${x.w.slug}/api-tokens/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ label: 'm' });
    return res.body.id;
  }

  /** A webhook made by the Admin, to a public address literal (no events subscribed, so nothing is sent). */
  async function webhook(x: World): Promise<string> {
    const res = await t.api
      .post(`/api/workspaces/${x.w.slug}/webhooks/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ url: `https://93.184.215.14/${unique('hook')}` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }

  const ws = (x: World) => `/api/workspaces/${x.w.slug}`;
  const proj = (x: World) => `${ws(x)}/projects/${x.project.id}`;

  /** The project's deploy board, published once per world by the Admin. */
  const boards = new WeakMap<World, string>();
  async function board(x: World): Promise<string> {
    if (!boards.has(x)) {
      const res = await t.api
        .post(`${proj(x)}/project-deploy-boards/`)
        .auth(x.admin.token, { type: 'bearer' })
        .send({});
      assert.equal(res.status, 201, JSON.stringify(res.body));
      boards.set(x, res.body.id);
    }
    return boards.get(x)!;
  }

  // ---- planning, search, notifications, profile (App API work-tracking surface) ----

  /** The Admin's API key, once per world, to create work items through v1 (the App API work item routes are elsewhere). */
  const keys = new WeakMap<World, string>();
  async function adminKey(x: World): Promise<string> {
    if (!keys.has(x)) keys.set(x, await createApiKey(t, x.admin.token, x.w.slug));
    return keys.get(x)!;
  }
  async function workItem(x: World, body: Record<string, unknown> = {}): Promise<string> {
    const res = await t.api
      .post(`/api/v1/workspaces/${x.w.slug}/projects/${x.project.id}/issues/`)
      .set('X-API-Key', await adminKey(x))
      .send({ name: unique('wi'), ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  async function adminPost(x: World, url: string, body: unknown): Promise<Record<string, string>> {
    const res = await t.api
      .post(url)
      .auth(x.admin.token, { type: 'bearer' })
      .send(body as object);
    assert.ok(res.status === 201 || res.status === 200, `${url}: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }
  const state = async (x: World) =>
    adminPost(x, `${proj(x)}/states/`, { name: unique('st'), color: '#123456' }).then((b) => b.id);
  const label = async (x: World) => adminPost(x, `${proj(x)}/issue-labels/`, { name: unique('lb') }).then((b) => b.id);
  const cycle = async (x: World, body: Record<string, unknown> = {}) =>
    adminPost(x, `${proj(x)}/cycles/`, { name: unique('cy'), ...body }).then((b) => b.id);
  const ended = (x: World) => cycle(x, { start_date: '2020-01-01', end_date: '2020-01-10' });
  const mod = async (x: World, body: Record<string, unknown> = {}) =>
    adminPost(x, `${proj(x)}/modules/`, { name: unique('mo'), ...body }).then((b) => b.id);
  const estimates = new WeakMap<World, string>();
  async function estimate(x: World): Promise<string> {
    if (!estimates.has(x)) {
      estimates.set(x, (await adminPost(x, `${proj(x)}/estimates/`, { name: 'Points', type: 'points' })).id);
    }
    return estimates.get(x)!;
  }
  async function point(x: World): Promise<string> {
    const res = await t.api
      .post(`${proj(x)}/estimates/${await estimate(x)}/estimate-points/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send([{ value: '1' }]);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body[0].id;
  }
  async function intakeItem(x: World): Promise<string> {
    await t.sql('UPDATE projects SET intake_view = true WHERE id = $1', [x.project.id]);
    return (
      (await adminPost(x, `${proj(x)}/intake-issues/`, { issue: { name: unique('in') } })) as unknown as {
        issue: { id: string };
      }
    ).issue.id;
  }
  const inWorld = (x: World, c: SignedUp | null) => !!c && c !== x.outsider;
  async function sticky(x: World, caller: SignedUp | null): Promise<string> {
    const owner = inWorld(x, caller) ? caller! : x.admin;
    const res = await t.api
      .post(`${ws(x)}/stickies/`)
      .auth(owner.token, { type: 'bearer' })
      .send({ name: 's' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  async function quickLink(x: World, caller: SignedUp | null): Promise<string> {
    const owner = inWorld(x, caller) ? caller! : x.admin;
    const res = await t.api
      .post(`${ws(x)}/quick-links/`)
      .auth(owner.token, { type: 'bearer' })
      .send({ url: `${unique('q')}.example.com` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  /** A favourite folder of the caller's (the Admin's for those who may not have one). */
  async function favoriteFolder(x: World, caller: SignedUp | null): Promise<string> {
    const owner = inWorld(x, caller) && caller !== x.guest ? caller! : x.admin;
    const res = await t.api
      .post(`${ws(x)}/user-favorites/`)
      .auth(owner.token, { type: 'bearer' })
      .send({ entity_type: 'folder', name: unique('f') });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body.id;
  }
  /** A public saved view made by the Admin: the project's, or with `workspace` the workspace's. */
  async function adminView(x: World, workspace = false): Promise<string> {
    return (await adminPost(x, `${workspace ? ws(x) : proj(x)}/views/`, { name: unique('view') })).id;
  }
  /** Favourites the entity through the older route as the caller (a project member), when the caller is in the world. */
  async function oldFavorite(x: World, caller: SignedUp | null, path: string, body: Record<string, string>) {
    if (!inWorld(x, caller)) return;
    const res = await t.api.post(path).auth(caller!.token, { type: 'bearer' }).send(body);
    assert.ok([204, 403].includes(res.status), JSON.stringify(res.body));
  }
  /** A notification for the caller: the Admin mentions them in a comment (another user's id for outsiders). */
  async function notification(x: World, caller: SignedUp | null): Promise<string> {
    const who = inWorld(x, caller) && caller !== x.admin ? caller! : x.member;
    const issueId = await workItem(x);
    // a Guest is notified only of work items they may read (Plane's Guest rule): make it theirs
    if (caller === x.guest)
      await t.sql('UPDATE issues SET created_by_id = $1 WHERE id = $2', [x.guest.userId, issueId]);
    const html = `<p>hi <mention-component entity_name="user_mention" entity_identifier="${who.userId}"></mention-component></p>`;
    const res = await t.api
      .post(`/api/v1/workspaces/${x.w.slug}/projects/${x.project.id}/issues/${issueId}/comments/`)
      .set('X-API-Key', await adminKey(x))
      .send({ comment_html: html });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    // the Admin cannot be notified of their own comment: hand the Member's notification to them
    if (caller === x.admin)
      await t.sql('UPDATE notifications SET receiver_id = $1 WHERE entity_identifier = $2', [x.admin.userId, issueId]);
    const rows = await t.sql<{ id: string }>('SELECT id FROM notifications WHERE entity_identifier = $1', [issueId]);
    assert.equal(rows.length, 1);
    return rows[0].id;
  }
  const note = (x: World) => `${ws(x)}/users/notifications`;
  const sub = async (x: World) => `${proj(x)}/issues/${await workItem(x)}`;
  /** A work item made through the App API (by the Admin unless `by`); `completed` puts it in a completed state. */
  async function item(
    x: World,
    by: SignedUp = x.admin,
    completed = false,
  ): Promise<{ id: string; sequence_id: number }> {
    const body: Record<string, unknown> = { name: unique('item ') };
    if (completed) {
      body.state_id = (
        await t.sql<{ id: string }>(`SELECT id FROM states WHERE project_id = $1 AND "group" = 'completed' LIMIT 1`, [
          x.project.id,
        ])
      )[0].id;
    }
    const res = await t.api
      .post(`${proj(x)}/issues/`)
      .auth(by.token, { type: 'bearer' })
      .send(body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  }

  async function archived(x: World): Promise<string> {
    const { id } = await item(x, x.admin, true);
    const res = await t.api.post(`${proj(x)}/issues/${id}/archive/`).auth(x.admin.token, { type: 'bearer' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return id;
  }

  /** The caller if they are a project member who can write comments or reactions, else the Admin. */
  const author = (x: World, caller: SignedUp | null) => (caller && caller !== x.outsider ? caller : x.admin);

  async function comment(x: World, by: SignedUp = x.admin): Promise<{ issue: string; id: string }> {
    const { id: issue } = await item(x);
    // a Guest comments only on work items they may see: theirs (made by the Admin, handed over)
    if (by === x.guest) await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [issue, by.userId]);
    const res = await t.api
      .post(`${proj(x)}/issues/${issue}/comments/`)
      .auth(by.token, { type: 'bearer' })
      .send({ comment_html: '<p>c</p>' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { issue, id: res.body.id };
  }

  async function link(x: World): Promise<{ issue: string; id: string }> {
    const { id: issue } = await item(x);
    const res = await t.api
      .post(`${proj(x)}/issues/${issue}/issue-links/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ url: `https://example.com/${unique('l')}` });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return { issue, id: res.body.id };
  }

  // ---- uploads (`/api/assets/v2/…`) ----

  const png = { name: 'i.png', type: 'image/png', size: 3 };
  /** a legacy multipart upload's image (`POST …/file-assets/`) */
  const legacyImage = { field: 'asset', name: 'i.png', type: 'image/png', content: Buffer.from('PNG') };
  const assetsOf = (x: World) => `/api/assets/v2/workspaces/${x.w.slug}`;
  /** Creates an asset at `url` as `by` and posts its file (not yet marked uploaded); `complete` also PATCHes it. */
  async function asset(
    url: string,
    by: SignedUp,
    body: Record<string, unknown>,
    complete = false,
  ): Promise<{ id: string; url: string; key: string }> {
    const res = await t.api.post(url).auth(by.token, { type: 'bearer' }).send(body);
    assert.equal(res.status, 200, `${url}: ${res.status} ${JSON.stringify(res.body)}`);
    const up = res.body.upload_data as { url: string; fields: Record<string, string> };
    const target = new URL(up.url);
    let form = t.api.post(target.pathname + target.search);
    for (const [k, v] of Object.entries(up.fields)) form = form.field(k, v);
    const sent = await form.attach('file', Buffer.from('abc'), {
      filename: 'i.png',
      contentType: up.fields['Content-Type'],
    });
    assert.equal(sent.status, 204, JSON.stringify(sent.body));
    const self = (res.body.asset_url as string | null) ?? `${url}${res.body.asset_id}/`;
    if (complete) {
      const done = await t.api.patch(`${url}${res.body.asset_id}/`).auth(by.token, { type: 'bearer' });
      assert.equal(done.status, 204, JSON.stringify(done.body));
    }
    const [{ asset: key }] = await t.sql<{ asset: string }>('SELECT asset FROM file_assets WHERE id = $1', [
      res.body.asset_id,
    ]);
    return { id: res.body.asset_id, url: self, key };
  }
  const mine = (x: World, c: SignedUp | null) => (c ? c : x.admin);
  const userAsset = (x: World, c: SignedUp | null, complete = false) =>
    asset('/api/assets/v2/user-assets/', mine(x, c), { ...png, entity_type: 'USER_AVATAR' }, complete);
  const workspaceImage = (x: World, complete = false) =>
    asset(`${assetsOf(x)}/`, x.admin, { ...png, entity_type: 'PAGE_DESCRIPTION', entity_identifier: '' }, complete);
  const logo = (x: World) => asset(`${assetsOf(x)}/`, x.admin, { ...png, entity_type: 'WORKSPACE_LOGO' });
  const projectImage = (x: World, complete = false) =>
    asset(
      `${assetsOf(x)}/projects/${x.project.id}/`,
      x.admin,
      { ...png, entity_type: 'ISSUE_DESCRIPTION', entity_identifier: '' },
      complete,
    );
  async function attachment(x: World, complete = false): Promise<{ issue: string; id: string; url: string }> {
    const { id: issue } = await item(x);
    const a = await asset(
      `${assetsOf(x)}/projects/${x.project.id}/issues/${issue}/attachments/`,
      x.admin,
      { name: 'a.txt', type: 'text/plain', size: 3 },
      complete,
    );
    return { issue, id: a.id, url: a.url };
  }

  // ---- pages ----
  /** A public page made by the Admin; `archived` archives it, `version` saves a description (one version). */
  async function adminPage(x: World, opts: { archived?: boolean; version?: boolean } = {}): Promise<string> {
    const id = (await adminPost(x, `${proj(x)}/pages/`, { name: unique('page') })).id;
    if (opts.archived) await adminPost(x, `${proj(x)}/pages/${id}/archive/`, {});
    if (opts.version) {
      const res = await t.api
        .patch(`${proj(x)}/pages/${id}/description/`)
        .auth(x.admin.token, { type: 'bearer' })
        .send({ description_binary: 'AAAA', description_html: `<p>${unique('v')}</p>` });
      assert.equal(res.status, 200, JSON.stringify(res.body));
    }
    return id;
  }
  async function pageVersion(x: World): Promise<{ page: string; version: string }> {
    const page = await adminPage(x, { version: true });
    const res = await t.api.get(`${proj(x)}/pages/${page}/versions/`).auth(x.admin.token, { type: 'bearer' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return { page, version: res.body[0].id };
  }
  // ---- analytics and exports ----

  const wsApi = (x: World) => `/api/workspaces/${x.w.slug}`;
  /** A saved chart of the workspace, by the Admin. */
  async function analyticView(x: World): Promise<string> {
    const res = await t.api
      .post(`${wsApi(x)}/analytic-view/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ name: unique('chart'), query_dict: { x_axis: 'priority', y_axis: 'issue_count' } });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  /** A completed CSV export of the workspace, by the Admin: its download path. */
  async function completedExport(x: World): Promise<string> {
    const res = await t.api
      .post(`${wsApi(x)}/export-issues/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ provider: 'csv' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    for (let i = 0; i < 200; i++) {
      const list = await t.api
        .get(`${wsApi(x)}/export-issues/?per_page=1&cursor=1:0:0`)
        .auth(x.admin.token, { type: 'bearer' });
      const e = list.body.results[0] as { id: string; status: string };
      if (e.status === 'completed') return `${wsApi(x)}/export-issues/${e.id}/download/`;
      assert.notEqual(e.status, 'failed');
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error('export did not complete');
  }
  // ---- profiles ----
  /** A project invitation made by the project Admin; its id. */
  async function projectInvitation(x: World, email = `${unique('pinv')}@example.com`): Promise<string> {
    const base = `/api/workspaces/${x.w.slug}/projects/${x.project.id}/invitations/`;
    const res = await t.api
      .post(base)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ emails: [{ email }] });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    const list = await t.api.get(base).auth(x.admin.token, { type: 'bearer' });
    return (list.body as Array<{ id: string; email: string }>).find((i) => i.email === email)!.id;
  }

  /** A workspace theme made by the Admin; its id. */
  async function theme(x: World): Promise<string> {
    const res = await t.api
      .post(`/api/workspaces/${x.w.slug}/workspace-themes/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ name: unique('theme') });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }

  /** A linked OAuth account of `u`; its id. */
  async function linkedAccount(u: SignedUp): Promise<string> {
    const rows = await t.sql<{ id: string }>(
      "INSERT INTO user_accounts (user_id, provider, provider_account_id) VALUES ($1, 'github', $2) RETURNING id",
      [u.userId, unique('gh')],
    );
    return rows[0].id;
  }
  // ---- drafts (workspace draft work items) ----
  /** A draft in the world's project owned by the caller (the Admin for callers outside the world). */
  async function draftOf(x: World, caller: SignedUp | null): Promise<string> {
    const owner = inWorld(x, caller) ? caller! : x.admin;
    const res = await t.api
      .post(`${ws(x)}/draft-issues/`)
      .auth(owner.token, { type: 'bearer' })
      .send({ name: 'd', project_id: x.project.id });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id;
  }
  // ---- work item leftovers (versions) ----
  /** A work item of the Admin whose description changed once, and its description version. */
  async function describedItem(x: World): Promise<{ issue: string; version: string }> {
    const issue = (await item(x)).id;
    const res = await t.api
      .patch(`${proj(x)}/issues/${issue}/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({ description_html: '<p>changed</p>' });
    assert.equal(res.status, 204, JSON.stringify(res.body));
    const [{ id }] = await t.sql<{ id: string }>('SELECT id FROM issue_description_versions WHERE issue_id = $1', [
      issue,
    ]);
    return { issue, version: id };
  }

  // ---- rest ----
  /** An ended cycle, or a completed module, archived by the Admin; its id. */
  async function archivedOne(x: World, kind: 'cycles' | 'modules'): Promise<string> {
    const id = kind === 'cycles' ? await ended(x) : await mod(x, { status: 'completed' });
    const res = await t.api
      .post(`${proj(x)}/${kind}/${id}/archive/`)
      .auth(x.admin.token, { type: 'bearer' })
      .send({});
    assert.ok(res.status < 300, `${res.status} ${JSON.stringify(res.body)}`);
    return id;
  }

  // ---- intake objects ----
  /** The project's intake object (made by its first intake item); its id. */
  async function intakeObject(x: World): Promise<string> {
    await intakeItem(x);
    const rows = await t.sql<{ id: string }>('SELECT id FROM intakes WHERE project_id = $1 AND deleted_at IS NULL', [
      x.project.id,
    ]);
    return rows[0].id;
  }

  const CASES: Case[] = [
    { route: 'GET /api/users/me/', prepare: () => ({ path: '/api/users/me/' }), expect: [401, 200, 200, 200, 200] },
    {
      route: 'PATCH /api/users/me/',
      prepare: () => ({ path: '/api/users/me/', body: { first_name: 'X' } }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/workspaces/',
      prepare: () => ({ path: '/api/users/me/workspaces/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/workspaces/invitations/',
      prepare: () => ({ path: '/api/users/me/workspaces/invitations/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'POST /api/users/me/workspaces/invitations/',
      prepare: async (x, caller) => {
        // a host invites the caller to a workspace they are not in yet
        const host = await signUp(t);
        const hw = await createWorkspace(t, host.token);
        const inv = await invitation(x, hw.slug, host, caller?.email);
        return { path: '/api/users/me/workspaces/invitations/', body: { invitations: [inv.id] } };
      },
      expect: [401, 204, 204, 204, 204],
    },
    {
      route: 'POST /api/users/me/workspaces/{slug}/projects/invitations/',
      prepare: async (x) => {
        const p = await createAppProject(t, x.admin.token, x.w.slug, { network: 2 });
        return { path: `/api/users/me/workspaces/${x.w.slug}/projects/invitations/`, body: { project_ids: [p.id] } };
      },
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspace-slug-check/',
      prepare: () => ({ path: '/api/workspace-slug-check/', query: { slug: unique('s-') } }),
      expect: [401, 200, 200, 200, 200],
    },
    { route: 'GET /api/workspaces/', prepare: () => ({ path: '/api/workspaces/' }), expect: [401, 200, 200, 200, 200] },
    {
      route: 'POST /api/workspaces/',
      prepare: () => ({ path: '/api/workspaces/', body: { name: 'W', slug: unique('w-') } }),
      expect: [401, 201, 201, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/',
      prepare: (x) => ({ path: `${ws(x)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/',
      prepare: (x) => ({ path: `${ws(x)}/`, body: { name: 'Renamed' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/',
      prepare: (x) => ({ path: `${ws(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/members/',
      prepare: (x) => ({ path: `${ws(x)}/members/` }),
      expect: [401, 404, 200, 200, 200],
    },
    // the Guest and the Member leave; the Admin is then the only Admin
    {
      route: 'POST /api/workspaces/{slug}/members/leave/',
      prepare: (x) => ({ path: `${ws(x)}/members/leave/` }),
      expect: [401, 404, 204, 204, 400],
    },
    {
      route: 'GET /api/workspaces/{slug}/members/{member_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/members/${await membershipId(t, x.w.id, x.guest.userId)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/members/{member_id}/',
      prepare: async (x) => ({
        path: `${ws(x)}/members/${await membershipId(t, x.w.id, (await wsMember(x, 15)).userId)}/`,
        body: { role: 5 },
      }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/members/{member_id}/',
      prepare: async (x) => ({
        path: `${ws(x)}/members/${await membershipId(t, x.w.id, (await wsMember(x, 15)).userId)}/`,
      }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/invitations/',
      prepare: (x) => ({ path: `${ws(x)}/invitations/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/invitations/',
      prepare: (x) => ({
        path: `${ws(x)}/invitations/`,
        body: { emails: [{ email: `${unique('n')}@example.com`, role: 5 }] },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/invitations/{invitation_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/invitations/${(await invitation(x)).id}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/invitations/{invitation_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/invitations/${(await invitation(x)).id}/`, body: { role: 15 } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/invitations/{invitation_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/invitations/${(await invitation(x)).id}/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/invitations/{invitation_id}/join/',
      prepare: async (x) => {
        const inv = await invitation(x);
        return { path: `${ws(x)}/invitations/${inv.id}/join/`, query: { token: inv.token } };
      },
      expect: [200, 200, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/invitations/{invitation_id}/join/',
      prepare: async (x) => {
        const inv = await invitation(x);
        return {
          path: `${ws(x)}/invitations/${inv.id}/join/`,
          body: { email: inv.email, accepted: false, token: inv.token },
        };
      },
      expect: [200, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/api-tokens/',
      prepare: (x) => ({ path: `${ws(x)}/api-tokens/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/api-tokens/',
      prepare: (x) => ({ path: `${ws(x)}/api-tokens/`, body: { label: 'k' } }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/api-tokens/{token_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/api-tokens/${await apiToken(x)}/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/api-tokens/{token_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/api-tokens/${await apiToken(x)}/`, body: { label: 'renamed' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/api-tokens/{token_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/api-tokens/${await apiToken(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/service-api-tokens/',
      prepare: (x) => ({ path: `${ws(x)}/service-api-tokens/` }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/audit-logs/',
      prepare: (x) => ({ path: `${ws(x)}/audit-logs/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/audit-logs/export/',
      prepare: (x) => ({ path: `${ws(x)}/audit-logs/export/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/webhooks/',
      prepare: (x) => ({ path: `${ws(x)}/webhooks/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/webhooks/',
      prepare: (x) => ({ path: `${ws(x)}/webhooks/`, body: { url: `https://93.184.215.14/${unique('hook')}` } }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/webhooks/{webhook_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/webhooks/${await webhook(x)}/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/webhooks/{webhook_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/webhooks/${await webhook(x)}/`, body: { cycle: false } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/webhooks/{webhook_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/webhooks/${await webhook(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/webhooks/{webhook_id}/regenerate/',
      prepare: async (x) => ({ path: `${ws(x)}/webhooks/${await webhook(x)}/regenerate/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/webhook-logs/{webhook_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/webhook-logs/${await webhook(x)}/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/',
      prepare: (x) => ({ path: `${ws(x)}/projects/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/',
      prepare: (x) => {
        const identifier = unique('N').slice(0, 7).toUpperCase();
        return { path: `${ws(x)}/projects/`, body: { name: identifier, identifier } };
      },
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/project-identifiers/',
      prepare: (x) => ({ path: `${ws(x)}/project-identifiers/`, query: { name: 'ABC' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/',
      prepare: (x) => ({ path: `${proj(x)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/',
      prepare: (x) => ({ path: `${proj(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/',
      prepare: (x) => ({ path: `${proj(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/archive/',
      prepare: (x) => ({ path: `${proj(x)}/archive/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/archive/',
      prepare: (x) => ({ path: `${proj(x)}/archive/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/members/',
      prepare: (x) => ({ path: `${proj(x)}/members/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/members/',
      prepare: async (x) => ({
        path: `${proj(x)}/members/`,
        body: { members: [{ member_id: (await wsMember(x, 15)).userId, role: 15 }] },
      }),
      expect: [401, 404, 403, 403, 201],
    },
    // the Guest and the Member leave; the Admin is the project's only Admin
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/members/leave/',
      prepare: (x) => ({ path: `${proj(x)}/members/leave/` }),
      expect: [401, 404, 204, 204, 400],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/members/{member_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/members/${await projectMemberRow(x, 15)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/members/{member_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/members/${await projectMemberRow(x, 15)}/`, body: { role: 5 } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/members/{member_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/members/${await projectMemberRow(x, 15)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/project-deploy-boards/',
      prepare: (x) => ({ path: `${proj(x)}/project-deploy-boards/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/project-deploy-boards/',
      prepare: (x) => ({ path: `${proj(x)}/project-deploy-boards/`, body: { is_comments_enabled: true } }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/project-deploy-boards/{board_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/project-deploy-boards/${await board(x)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/project-deploy-boards/{board_id}/',
      prepare: async (x) => ({
        path: `${proj(x)}/project-deploy-boards/${await board(x)}/`,
        body: { is_votes_enabled: true },
      }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/project-deploy-boards/{board_id}/',
      prepare: async (x) => {
        // published (again) by the Admin before each call: the Member's unpublish succeeds first
        const res = await t.api
          .post(`${proj(x)}/project-deploy-boards/`)
          .auth(x.admin.token, { type: 'bearer' })
          .send({});
        assert.ok([200, 201].includes(res.status), JSON.stringify(res.body));
        return { path: `${proj(x)}/project-deploy-boards/${res.body.id}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/users/me/profile/',
      prepare: () => ({ path: '/api/users/me/profile/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'PATCH /api/users/me/profile/',
      prepare: () => ({ path: '/api/users/me/profile/', body: { theme: { theme: 'dark' } } }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/settings/',
      prepare: () => ({ path: '/api/users/me/settings/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/unsplash/',
      prepare: () => ({ path: '/api/unsplash/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/project-covers/',
      prepare: () => ({ path: '/api/project-covers/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'PATCH /api/users/me/onboard/',
      prepare: () => ({ path: '/api/users/me/onboard/', body: { is_onboarded: true } }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'PATCH /api/users/me/tour-completed/',
      prepare: () => ({ path: '/api/users/me/tour-completed/', body: { is_tour_completed: true } }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/workspace-members/me/',
      prepare: (x) => ({ path: `${ws(x)}/workspace-members/me/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/workspace-views/',
      prepare: (x) => ({
        path: `${ws(x)}/workspace-views/`,
        body: { view_props: { display_filters: { layout: 'list' } } },
      }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/project-members/me/',
      prepare: (x) => ({ path: `${proj(x)}/project-members/me/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/search/',
      prepare: (x) => ({ path: `${ws(x)}/search/`, query: { search: 'a' } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/search-issues/',
      prepare: (x) => ({ path: `${proj(x)}/search-issues/`, query: { search: 'a' } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/states/',
      prepare: (x) => ({ path: `${ws(x)}/states/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/labels/',
      prepare: (x) => ({ path: `${ws(x)}/labels/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/states/',
      prepare: (x) => ({ path: `${proj(x)}/states/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/states/',
      prepare: (x) => ({ path: `${proj(x)}/states/`, body: { name: unique('s'), color: '#000000' } }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/states/{state_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/states/${await state(x)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/states/{state_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/states/${await state(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/states/{state_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/states/${await state(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/states/{state_id}/mark-default/',
      prepare: async (x) => ({ path: `${proj(x)}/states/${await state(x)}/mark-default/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issue-labels/',
      prepare: (x) => ({ path: `${proj(x)}/issue-labels/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issue-labels/',
      prepare: (x) => ({ path: `${proj(x)}/issue-labels/`, body: { name: unique('l') } }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issue-labels/{label_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/issue-labels/${await label(x)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/issue-labels/{label_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/issue-labels/${await label(x)}/`, body: { color: '#ff0000' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issue-labels/{label_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/issue-labels/${await label(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/',
      prepare: (x) => ({ path: `${proj(x)}/cycles/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/cycles/',
      prepare: (x) => ({ path: `${proj(x)}/cycles/`, body: { name: unique('c') } }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/archived-cycles/',
      prepare: (x) => ({ path: `${proj(x)}/archived-cycles/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 200, 200],
    },
    // the Member is neither the creator nor a project Admin
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/progress/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/progress/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/cycle-progress/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/cycle-progress/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/analytics/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await ended(x)}/analytics/?type=issues` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/cycle-issues/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/cycle-issues/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/cycle-issues/',
      prepare: async (x) => ({
        path: `${proj(x)}/cycles/${await cycle(x)}/cycle-issues/`,
        body: { issues: [await workItem(x)] },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/cycle-issues/{issue_id}/',
      prepare: async (x) => {
        const [c, i] = [await cycle(x), await workItem(x)];
        await adminPost(x, `${proj(x)}/cycles/${c}/cycle-issues/`, { issues: [i] });
        return { path: `${proj(x)}/cycles/${c}/cycle-issues/${i}/` };
      },
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/cycle-issues/{issue_id}/',
      prepare: async (x) => {
        const [c, i] = [await cycle(x), await workItem(x)];
        await adminPost(x, `${proj(x)}/cycles/${c}/cycle-issues/`, { issues: [i] });
        return { path: `${proj(x)}/cycles/${c}/cycle-issues/${i}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/transfer-issues/',
      prepare: async (x) => ({
        path: `${proj(x)}/cycles/${await ended(x)}/transfer-issues/`,
        body: { new_cycle_id: await cycle(x) },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await ended(x)}/archive/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await ended(x)}/archive/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/modules/',
      prepare: (x) => ({ path: `${proj(x)}/modules/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/modules/',
      prepare: (x) => ({ path: `${proj(x)}/modules/`, body: { name: unique('m') } }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/archived-modules/',
      prepare: (x) => ({ path: `${proj(x)}/archived-modules/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/issues/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/issues/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/issues/',
      prepare: async (x) => ({
        path: `${proj(x)}/modules/${await mod(x)}/issues/`,
        body: { issues: [await workItem(x)] },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/issues/{issue_id}/',
      prepare: async (x) => {
        const [m, i] = [await mod(x), await workItem(x)];
        await adminPost(x, `${proj(x)}/modules/${m}/issues/`, { issues: [i] });
        return { path: `${proj(x)}/modules/${m}/issues/${i}/` };
      },
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/issues/{issue_id}/',
      prepare: async (x) => {
        const [m, i] = [await mod(x), await workItem(x)];
        await adminPost(x, `${proj(x)}/modules/${m}/issues/`, { issues: [i] });
        return { path: `${proj(x)}/modules/${m}/issues/${i}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x, { status: 'completed' })}/archive/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/archive/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/module-links/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/module-links/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/module-links/',
      prepare: async (x) => ({
        path: `${proj(x)}/modules/${await mod(x)}/module-links/`,
        body: { url: 'https://example.com/spec' },
      }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/module-links/{link_id}/',
      prepare: async (x) => {
        const m = await mod(x);
        const link = await adminPost(x, `${proj(x)}/modules/${m}/module-links/`, { url: 'https://example.com/a' });
        return { path: `${proj(x)}/modules/${m}/module-links/${link.id}/` };
      },
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/module-links/{link_id}/',
      prepare: async (x) => {
        const m = await mod(x);
        const link = await adminPost(x, `${proj(x)}/modules/${m}/module-links/`, { url: 'https://example.com/a' });
        return { path: `${proj(x)}/modules/${m}/module-links/${link.id}/`, body: { title: 'Spec' } };
      },
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/module-links/{link_id}/',
      prepare: async (x) => {
        const m = await mod(x);
        const link = await adminPost(x, `${proj(x)}/modules/${m}/module-links/`, { url: 'https://example.com/a' });
        return { path: `${proj(x)}/modules/${m}/module-links/${link.id}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/cycles/date-check/',
      prepare: (x) => ({
        path: `${proj(x)}/cycles/date-check/`,
        body: { start_date: '2040-01-01', end_date: '2040-01-10' },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/estimates/',
      prepare: (x) => ({ path: `${proj(x)}/estimates/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/estimates/',
      prepare: (x) => ({ path: `${proj(x)}/estimates/`, body: { name: 'E', type: 'points' } }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/estimates/{estimate_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/estimates/${await estimate(x)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/estimates/{estimate_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/estimates/${await estimate(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/estimates/{estimate_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/estimates/${await estimate(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/estimates/{estimate_id}/estimate-points/',
      prepare: async (x) => ({ path: `${proj(x)}/estimates/${await estimate(x)}/estimate-points/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/estimates/{estimate_id}/estimate-points/',
      prepare: async (x) => ({
        path: `${proj(x)}/estimates/${await estimate(x)}/estimate-points/`,
        body: { estimate_points: [{ value: '5' }] },
      }),
      expect: [401, 404, 403, 403, 201],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/estimates/{estimate_id}/estimate-points/{point_id}/',
      prepare: async (x) => ({
        path: `${proj(x)}/estimates/${await estimate(x)}/estimate-points/${await point(x)}/`,
        body: { description: 'd' },
      }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/estimates/{estimate_id}/estimate-points/{point_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/estimates/${await estimate(x)}/estimate-points/${await point(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/intake-issues/',
      prepare: async (x) => (await intakeItem(x), { path: `${proj(x)}/intake-issues/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/intake-issues/',
      prepare: async (x) => (
        await intakeItem(x),
        { path: `${proj(x)}/intake-issues/`, body: { issue: { name: 'n' } } }
      ),
      expect: [401, 404, 201, 201, 201],
    },
    // the Admin's submission: a Guest sees only their own (no guest_view_all_features)
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/intake-issues/{issue_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/intake-issues/${await intakeItem(x)}/` }),
      expect: [401, 404, 404, 200, 200],
    },
    // the Admin's submission: only its creator or a project Admin may edit it (Plane: ADMIN, creator=True)
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/intake-issues/{issue_id}/',
      prepare: async (x) => ({
        path: `${proj(x)}/intake-issues/${await intakeItem(x)}/`,
        body: { issue: { name: 'renamed' } },
      }),
      expect: [401, 404, 403, 403, 200],
    },
    // the creator or a project Admin
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/intake-issues/{issue_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/intake-issues/${await intakeItem(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    // the same intake under the name the 0.25.3 web app calls
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/inbox-issues/',
      prepare: async (x) => (await intakeItem(x), { path: `${proj(x)}/inbox-issues/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/inbox-issues/',
      prepare: async (x) => (await intakeItem(x), { path: `${proj(x)}/inbox-issues/`, body: { issue: { name: 'n' } } }),
      expect: [401, 404, 201, 201, 201],
    },
    // the Admin's submission: a Guest sees only their own (no guest_view_all_features)
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/inbox-issues/{issue_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/inbox-issues/${await intakeItem(x)}/` }),
      expect: [401, 404, 404, 200, 200],
    },
    // the Admin's submission: only its creator or a project Admin may edit it (Plane: ADMIN, creator=True)
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/inbox-issues/{issue_id}/',
      prepare: async (x) => ({
        path: `${proj(x)}/inbox-issues/${await intakeItem(x)}/`,
        body: { issue: { name: 'renamed' } },
      }),
      expect: [401, 404, 403, 403, 200],
    },
    // the creator or a project Admin
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/inbox-issues/{issue_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/inbox-issues/${await intakeItem(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/stickies/',
      prepare: (x) => ({ path: `${ws(x)}/stickies/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/stickies/',
      prepare: (x) => ({ path: `${ws(x)}/stickies/`, body: { name: 'n' } }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/stickies/{sticky_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/stickies/${await sticky(x, c)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/stickies/{sticky_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/stickies/${await sticky(x, c)}/`, body: { name: 'r' } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/stickies/{sticky_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/stickies/${await sticky(x, c)}/` }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/home-preferences/',
      prepare: (x) => ({ path: `${ws(x)}/home-preferences/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/home-preferences/{key}/',
      prepare: (x) => ({ path: `${ws(x)}/home-preferences/recents/`, body: { is_enabled: false } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/sidebar-preferences/',
      prepare: (x) => ({ path: `${ws(x)}/sidebar-preferences/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/sidebar-preferences/{key}/',
      prepare: (x) => ({ path: `${ws(x)}/sidebar-preferences/views/`, body: { is_pinned: true } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/quick-links/',
      prepare: (x) => ({ path: `${ws(x)}/quick-links/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/quick-links/',
      prepare: (x) => ({ path: `${ws(x)}/quick-links/`, body: { url: `${unique('q')}.example.com` } }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/quick-links/{link_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/quick-links/${await quickLink(x, c)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/quick-links/{link_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/quick-links/${await quickLink(x, c)}/`, body: { title: 't' } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/quick-links/{link_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/quick-links/${await quickLink(x, c)}/` }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/recent-visits/',
      prepare: (x) => ({ path: `${ws(x)}/recent-visits/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/user-properties/',
      prepare: (x) => ({ path: `${ws(x)}/user-properties/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/user-properties/',
      prepare: (x) => ({ path: `${ws(x)}/user-properties/`, body: { filters: {} } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/user-properties/',
      prepare: (x) => ({ path: `${proj(x)}/user-properties/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/user-properties/',
      prepare: (x) => ({ path: `${proj(x)}/user-properties/`, body: { display_filters: { layout: 'kanban' } } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/user-properties/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/user-properties/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/user-properties/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/user-properties/`, body: { filters: {} } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/user-properties/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/user-properties/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/user-properties/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/user-properties/`, body: { filters: {} } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/cycles/',
      prepare: (x) => ({ path: `${ws(x)}/cycles/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/modules/',
      prepare: (x) => ({ path: `${ws(x)}/modules/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/estimates/',
      prepare: (x) => ({ path: `${ws(x)}/estimates/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/details/',
      prepare: (x) => ({ path: `${ws(x)}/projects/details/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/workspaces/{slug}/project-roles/',
      prepare: (x) => ({ path: `/api/users/me/workspaces/${x.w.slug}/project-roles/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/users/last-visited-workspace/',
      prepare: () => ({ path: '/api/users/last-visited-workspace/' }),
      expect: [401, 200, 200, 200, 200],
    },
    { route: 'GET /api/timezones/', prepare: () => ({ path: '/api/timezones/' }), expect: [200, 200, 200, 200, 200] },
    {
      route: 'GET /api/workspaces/{slug}/user-favorites/',
      prepare: (x) => ({ path: `${ws(x)}/user-favorites/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/user-favorites/',
      prepare: (x) => ({ path: `${ws(x)}/user-favorites/`, body: { entity_type: 'folder', name: unique('f') } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/user-favorites/{favorite_id}/',
      prepare: async (x, c) => ({
        path: `${ws(x)}/user-favorites/${await favoriteFolder(x, c)}/`,
        body: { name: 'n' },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/user-favorites/{favorite_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/user-favorites/${await favoriteFolder(x, c)}/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/user-favorites/{favorite_id}/group/',
      prepare: async (x, c) => ({ path: `${ws(x)}/user-favorites/${await favoriteFolder(x, c)}/group/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/user-favorite-projects/',
      prepare: (x) => ({ path: `${ws(x)}/user-favorite-projects/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/user-favorite-projects/',
      prepare: (x) => ({ path: `${ws(x)}/user-favorite-projects/`, body: { project: x.project.id } }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/user-favorite-projects/{project_ref}/',
      prepare: async (x, c) => {
        await oldFavorite(x, c, `${ws(x)}/user-favorite-projects/`, { project: x.project.id });
        return { path: `${ws(x)}/user-favorite-projects/${x.project.id}/` };
      },
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/user-favorite-cycles/',
      prepare: async (x) => ({ path: `${proj(x)}/user-favorite-cycles/`, body: { cycle: await cycle(x) } }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/user-favorite-cycles/{cycle_id}/',
      prepare: async (x, c) => {
        const id = await cycle(x);
        await oldFavorite(x, c, `${proj(x)}/user-favorite-cycles/`, { cycle: id });
        return { path: `${proj(x)}/user-favorite-cycles/${id}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/user-favorite-modules/',
      prepare: async (x) => ({ path: `${proj(x)}/user-favorite-modules/`, body: { module: await mod(x) } }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/user-favorite-modules/{module_id}/',
      prepare: async (x, c) => {
        const id = await mod(x);
        await oldFavorite(x, c, `${proj(x)}/user-favorite-modules/`, { module: id });
        return { path: `${proj(x)}/user-favorite-modules/${id}/` };
      },
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/views/',
      prepare: (x) => ({ path: `${proj(x)}/views/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/views/',
      prepare: (x) => ({ path: `${proj(x)}/views/`, body: { name: unique('v') } }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/views/{view_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/views/${await adminView(x)}/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/views/{view_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/views/${await adminView(x)}/`, body: { name: 'n' } }),
      expect: [401, 404, 404, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/views/{view_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/views/${await adminView(x)}/` }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/views/{view_id}/issues/',
      prepare: async (x) => ({ path: `${proj(x)}/views/${await adminView(x)}/issues/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/user-favorite-views/',
      prepare: (x) => ({ path: `${proj(x)}/user-favorite-views/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/user-favorite-views/',
      prepare: async (x) => ({ path: `${proj(x)}/user-favorite-views/`, body: { view: await adminView(x) } }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/user-favorite-views/{view_id}/',
      prepare: async (x, c) => {
        const id = await adminView(x);
        await oldFavorite(x, c, `${proj(x)}/user-favorite-views/`, { view: id });
        return { path: `${proj(x)}/user-favorite-views/${id}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/views/',
      prepare: (x) => ({ path: `${ws(x)}/views/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/views/',
      prepare: (x) => ({ path: `${ws(x)}/views/`, body: { name: unique('v') } }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/views/{view_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/views/${await adminView(x, true)}/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/views/{view_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/views/${await adminView(x, true)}/`, body: { name: 'n' } }),
      expect: [401, 404, 404, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/views/{view_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/views/${await adminView(x, true)}/` }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/users/notifications/',
      prepare: (x) => ({ path: `${note(x)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/users/notifications/unread/',
      prepare: (x) => ({ path: `${note(x)}/unread/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/users/notifications/mark-all-read/',
      prepare: (x) => ({ path: `${note(x)}/mark-all-read/`, body: {} }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/users/notifications/{notification_id}/',
      prepare: async (x, c) => ({ path: `${note(x)}/${await notification(x, c)}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/users/notifications/{notification_id}/',
      prepare: async (x, c) => ({ path: `${note(x)}/${await notification(x, c)}/`, body: { snoozed_till: null } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/users/notifications/{notification_id}/',
      prepare: async (x, c) => ({ path: `${note(x)}/${await notification(x, c)}/` }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/users/notifications/{notification_id}/read/',
      prepare: async (x, c) => ({ path: `${note(x)}/${await notification(x, c)}/read/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/users/notifications/{notification_id}/read/',
      prepare: async (x, c) => ({ path: `${note(x)}/${await notification(x, c)}/read/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/users/notifications/{notification_id}/archive/',
      prepare: async (x, c) => ({ path: `${note(x)}/${await notification(x, c)}/archive/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/users/notifications/{notification_id}/archive/',
      prepare: async (x, c) => ({ path: `${note(x)}/${await notification(x, c)}/archive/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-subscribers/',
      prepare: async (x) => ({ path: `${await sub(x)}/issue-subscribers/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-subscribers/',
      prepare: async (x) => ({ path: `${await sub(x)}/issue-subscribers/`, body: { subscribers: [x.member.userId] } }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-subscribers/{subscriber_id}/',
      prepare: async (x) => {
        const base = await sub(x);
        await adminPost(x, `${base}/issue-subscribers/`, { subscribers: [x.guest.userId] });
        return { path: `${base}/issue-subscribers/${x.guest.userId}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    // the Admin's work item: a Guest may not see it (no guest_view_all_features), so not follow it either
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/subscribe/',
      prepare: async (x) => ({ path: `${await sub(x)}/subscribe/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/subscribe/',
      prepare: async (x) => ({ path: `${await sub(x)}/subscribe/` }),
      expect: [401, 404, 404, 201, 201],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/subscribe/',
      prepare: async (x) => ({ path: `${await sub(x)}/subscribe/` }),
      expect: [401, 404, 404, 204, 204],
    },
    // work items; a project Guest sees only the work items they created (the Admin's here: 404)
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/',
      prepare: (x) => ({ path: `${proj(x)}/issues/`, query: { group_by: 'state_id' } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/',
      prepare: (x) => ({ path: `${proj(x)}/issues/`, body: { name: 'New' } }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/list/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/list/`, query: { issues: (await item(x)).id } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/meta/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/meta/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/`, body: { name: 'Renamed' } }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      // the Member deletes their own; another's would be 403
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/',
      prepare: async (x, caller) => ({
        path: `${proj(x)}/issues/${(await item(x, caller === x.member ? x.member : x.admin)).id}/`,
      }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${await archived(x)}/archive/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x, x.admin, true)).id}/archive/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${await archived(x)}/archive/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/archived-issues/',
      prepare: (x) => ({ path: `${proj(x)}/archived-issues/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/bulk-delete-issues/',
      prepare: async (x) => ({ path: `${proj(x)}/bulk-delete-issues/`, body: { issue_ids: [(await item(x)).id] } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/bulk-operation-issues/',
      prepare: async (x) => ({
        path: `${proj(x)}/bulk-operation-issues/`,
        body: { issue_ids: [(await item(x)).id], properties: { priority: 'low' } },
      }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/bulk-archive-issues/',
      prepare: async (x) => ({
        path: `${proj(x)}/bulk-archive-issues/`,
        body: { issue_ids: [(await item(x, x.admin, true)).id] },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/v2/issues/',
      prepare: async (x) => (await item(x), { path: `${proj(x)}/v2/issues/`, query: { cursor: '500:0:0' } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues-detail/',
      prepare: async (x) => (await item(x), { path: `${proj(x)}/issues-detail/`, query: { expand: 'issue_relation' } }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/issues/',
      prepare: async (x) => (
        await item(x),
        { path: `${ws(x)}/issues/`, query: { cursor: '100:0:0', per_page: '100' } }
      ),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/entity-search/',
      prepare: (x) => ({
        path: `${ws(x)}/entity-search/`,
        query: { query_type: 'user_mention,project,issue,cycle,module,page', project_id: x.project.id },
      }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/deleted-issues/',
      prepare: (x) => ({ path: `${proj(x)}/deleted-issues/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issue-dates/',
      prepare: async (x) => ({
        path: `${proj(x)}/issue-dates/`,
        body: { updates: [{ id: (await item(x)).id, target_date: '2031-01-01' }] },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/work-items/{key}/',
      prepare: async (x) => {
        const [{ identifier }] = await t.sql<{ identifier: string }>('SELECT identifier FROM projects WHERE id = $1', [
          x.project.id,
        ]);
        return { path: `${ws(x)}/work-items/${identifier}-${(await item(x)).sequence_id}/` };
      },
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/sub-issues/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/sub-issues/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/sub-issues/',
      prepare: async (x) => ({
        path: `${proj(x)}/issues/${(await item(x)).id}/sub-issues/`,
        body: { sub_issue_ids: [(await item(x)).id] },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-relation/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/issue-relation/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-relation/',
      prepare: async (x) => ({
        path: `${proj(x)}/issues/${(await item(x)).id}/issue-relation/`,
        body: { relation_type: 'relates_to', issues: [(await item(x)).id] },
      }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/remove-relation/',
      prepare: async (x) => {
        const [a, b] = [await item(x), await item(x)];
        const res = await t.api
          .post(`${proj(x)}/issues/${a.id}/issue-relation/`)
          .auth(x.admin.token, { type: 'bearer' })
          .send({ relation_type: 'blocking', issues: [b.id] });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return { path: `${proj(x)}/issues/${a.id}/remove-relation/`, body: { related_issue: b.id } };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/history/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/history/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/modules/',
      prepare: async (x) => {
        const [mod] = await t.sql<{ id: string }>(
          `INSERT INTO modules (workspace_id, project_id, name) VALUES ($1, $2, $3) RETURNING id`,
          [x.w.id, x.project.id, unique('m')],
        );
        return { path: `${proj(x)}/issues/${(await item(x)).id}/modules/`, body: { modules: [mod.id] } };
      },
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/comments/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/comments/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      // the Admin's work item: a Guest comments only on work items they may see (Plane: 400)
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/comments/',
      prepare: async (x) => ({
        path: `${proj(x)}/issues/${(await item(x)).id}/comments/`,
        body: { comment_html: '<p>hi</p>' },
      }),
      expect: [401, 404, 404, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/comments/{comment_id}/',
      prepare: async (x) => {
        const c = await comment(x);
        return { path: `${proj(x)}/issues/${c.issue}/comments/${c.id}/` };
      },
      expect: [401, 404, 200, 200, 200],
    },
    {
      // each writes their own comment (another's is 403, see app-work-items)
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/comments/{comment_id}/',
      prepare: async (x, caller) => {
        const c = await comment(x, author(x, caller));
        return { path: `${proj(x)}/issues/${c.issue}/comments/${c.id}/`, body: { comment_html: '<p>edited</p>' } };
      },
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/comments/{comment_id}/',
      prepare: async (x, caller) => {
        const c = await comment(x, author(x, caller));
        return { path: `${proj(x)}/issues/${c.issue}/comments/${c.id}/` };
      },
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-links/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/issue-links/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-links/',
      prepare: async (x) => ({
        path: `${proj(x)}/issues/${(await item(x)).id}/issue-links/`,
        body: { url: 'https://example.com/doc' },
      }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-links/{link_id}/',
      prepare: async (x) => {
        const l = await link(x);
        return { path: `${proj(x)}/issues/${l.issue}/issue-links/${l.id}/` };
      },
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-links/{link_id}/',
      prepare: async (x) => {
        const l = await link(x);
        return { path: `${proj(x)}/issues/${l.issue}/issue-links/${l.id}/`, body: { title: 'T' } };
      },
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-links/{link_id}/',
      prepare: async (x) => {
        const l = await link(x);
        return { path: `${proj(x)}/issues/${l.issue}/issue-links/${l.id}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/reactions/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/reactions/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/reactions/',
      prepare: async (x) => ({
        path: `${proj(x)}/issues/${(await item(x)).id}/reactions/`,
        body: { reaction: '128077' },
      }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      // each removes their own reaction
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/reactions/{reaction_code}/',
      prepare: async (x, caller) => {
        const { id } = await item(x);
        const res = await t.api
          .post(`${proj(x)}/issues/${id}/reactions/`)
          .auth(author(x, caller).token, { type: 'bearer' })
          .send({ reaction: '128077' });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return { path: `${proj(x)}/issues/${id}/reactions/128077/` };
      },
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/comments/{comment_id}/reactions/',
      prepare: async (x) => ({ path: `${proj(x)}/comments/${(await comment(x)).id}/reactions/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/comments/{comment_id}/reactions/',
      prepare: async (x) => ({
        path: `${proj(x)}/comments/${(await comment(x)).id}/reactions/`,
        body: { reaction: '127881' },
      }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/comments/{comment_id}/reactions/{reaction_code}/',
      prepare: async (x, caller) => {
        const c = await comment(x);
        const res = await t.api
          .post(`${proj(x)}/comments/${c.id}/reactions/`)
          .auth(author(x, caller).token, { type: 'bearer' })
          .send({ reaction: '127881' });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return { path: `${proj(x)}/comments/${c.id}/reactions/127881/` };
      },
      expect: [401, 404, 204, 204, 204],
    },
    // ---- uploads ----
    {
      route: 'POST /api/assets/v2/user-assets/',
      prepare: () => ({ path: '/api/assets/v2/user-assets/', body: { ...png, entity_type: 'USER_AVATAR' } }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'PATCH /api/assets/v2/user-assets/{asset_id}/',
      prepare: async (x, c) => ({ path: `/api/assets/v2/user-assets/${(await userAsset(x, c)).id}/` }),
      expect: [401, 204, 204, 204, 204],
    },
    {
      route: 'DELETE /api/assets/v2/user-assets/{asset_id}/',
      prepare: async (x, c) => ({ path: `/api/assets/v2/user-assets/${(await userAsset(x, c)).id}/` }),
      expect: [401, 204, 204, 204, 204],
    },
    {
      route: 'GET /api/assets/v2/static/{asset_id}/',
      prepare: async (x) => ({ path: (await userAsset(x, x.admin, true)).url }),
      expect: [302, 302, 302, 302, 302],
    },
    {
      // a logo: workspace Admins only
      route: 'POST /api/assets/v2/workspaces/{slug}/',
      prepare: (x) => ({ path: `${assetsOf(x)}/`, body: { ...png, entity_type: 'WORKSPACE_LOGO' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'GET /api/assets/v2/workspaces/{slug}/{asset_id}/',
      prepare: async (x) => ({ path: (await workspaceImage(x, true)).url }),
      expect: [401, 404, 302, 302, 302],
    },
    {
      route: 'PATCH /api/assets/v2/workspaces/{slug}/{asset_id}/',
      prepare: async (x) => ({ path: `${assetsOf(x)}/${(await logo(x)).id}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'DELETE /api/assets/v2/workspaces/{slug}/{asset_id}/',
      prepare: async (x) => ({ path: `${assetsOf(x)}/${(await logo(x)).id}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'POST /api/assets/v2/workspaces/{slug}/restore/{asset_id}/',
      prepare: async (x) => ({ path: `${assetsOf(x)}/restore/${(await workspaceImage(x)).id}/` }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'POST /api/assets/v2/workspaces/{slug}/projects/{project_id}/',
      prepare: (x) => ({
        path: `${assetsOf(x)}/projects/${x.project.id}/`,
        body: { ...png, entity_type: 'ISSUE_DESCRIPTION', entity_identifier: '' },
      }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/assets/v2/workspaces/{slug}/projects/{project_id}/{asset_id}/',
      prepare: async (x) => ({ path: (await projectImage(x, true)).url }),
      expect: [401, 404, 302, 302, 302],
    },
    {
      route: 'PATCH /api/assets/v2/workspaces/{slug}/projects/{project_id}/{asset_id}/',
      prepare: async (x) => ({ path: (await projectImage(x)).url }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'DELETE /api/assets/v2/workspaces/{slug}/projects/{project_id}/{asset_id}/',
      prepare: async (x) => ({ path: (await projectImage(x)).url }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      // the Admin's work item: a Guest links only to work items they may see
      route: 'POST /api/assets/v2/workspaces/{slug}/projects/{project_id}/{entity_id}/bulk/',
      prepare: async (x) => ({
        path: `${assetsOf(x)}/projects/${x.project.id}/${(await item(x)).id}/bulk/`,
        body: { asset_ids: [(await projectImage(x, true)).id] },
      }),
      expect: [401, 404, 404, 204, 204],
    },
    {
      route: 'GET /api/assets/v2/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/attachments/',
      prepare: async (x) => ({
        path: `${assetsOf(x)}/projects/${x.project.id}/issues/${(await item(x)).id}/attachments/`,
      }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'POST /api/assets/v2/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/attachments/',
      prepare: async (x) => ({
        path: `${assetsOf(x)}/projects/${x.project.id}/issues/${(await item(x)).id}/attachments/`,
        body: { name: 'a.txt', type: 'text/plain', size: 3 },
      }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route:
        'GET /api/assets/v2/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/attachments/{attachment_id}/',
      prepare: async (x) => ({ path: (await attachment(x, true)).url }),
      expect: [401, 404, 404, 302, 302],
    },
    {
      route:
        'PATCH /api/assets/v2/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/attachments/{attachment_id}/',
      prepare: async (x) => ({ path: (await attachment(x)).url }),
      expect: [401, 404, 404, 204, 204],
    },
    {
      // the Admin's attachment: its uploader or a project Admin
      route:
        'DELETE /api/assets/v2/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/attachments/{attachment_id}/',
      prepare: async (x) => ({ path: (await attachment(x, true)).url }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'GET /api/users/file-assets/{asset_key}/',
      prepare: async (x, c) => ({ path: `/api/users/file-assets/${(await userAsset(x, c)).key}/` }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'DELETE /api/users/file-assets/{asset_key}/',
      prepare: async (x, c) => ({ path: `/api/users/file-assets/${(await userAsset(x, c)).key}/` }),
      expect: [401, 204, 204, 204, 204],
    },
    {
      route: 'POST /api/users/file-assets/',
      prepare: () => ({ path: '/api/users/file-assets/', upload: legacyImage }),
      expect: [401, 201, 201, 201, 201],
    },
    {
      route: 'POST /api/workspaces/{slug}/file-assets/',
      prepare: (x) => ({ path: `${ws(x)}/file-assets/`, upload: legacyImage }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      route: 'GET /api/workspaces/file-assets/{workspace_id}/{asset_key}/',
      prepare: async (x) => ({ path: `/api/workspaces/file-assets/${(await workspaceImage(x)).key}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/file-assets/{workspace_id}/{asset_key}/',
      prepare: async (x) => ({ path: `/api/workspaces/file-assets/${(await workspaceImage(x)).key}/` }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'POST /api/workspaces/file-assets/{workspace_id}/{asset_key}/restore/',
      prepare: async (x) => ({ path: `/api/workspaces/file-assets/${(await workspaceImage(x)).key}/restore/` }),
      expect: [401, 404, 204, 204, 204],
    },
    // ---- pages ----
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/pages/',
      prepare: (x) => ({ path: `${proj(x)}/pages/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/pages/',
      prepare: (x) => ({ path: `${proj(x)}/pages/`, body: { name: unique('p') } }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/`, body: { name: 'n' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x, { archived: true })}/` }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/archive/` }),
      expect: [401, 404, 404, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/archive/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x, { archived: true })}/archive/` }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/lock/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/lock/` }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/lock/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/lock/` }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/access/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/access/`, body: { access: 1 } }),
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/duplicate/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/duplicate/` }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/description/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x)}/description/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/description/',
      prepare: async (x) => ({
        path: `${proj(x)}/pages/${await adminPage(x)}/description/`,
        body: { description_binary: 'AAAA', description_html: '<p>d</p>' },
      }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/versions/',
      prepare: async (x) => ({ path: `${proj(x)}/pages/${await adminPage(x, { version: true })}/versions/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/pages/{page_id}/versions/{version_id}/',
      prepare: async (x) => {
        const v = await pageVersion(x);
        return { path: `${proj(x)}/pages/${v.page}/versions/${v.version}/` };
      },
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/favorite-pages/{page_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/favorite-pages/${await adminPage(x)}/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/favorite-pages/{page_id}/',
      prepare: async (x, c) => {
        const id = await adminPage(x);
        await oldFavorite(x, c, `${proj(x)}/favorite-pages/${id}/`, {});
        return { path: `${proj(x)}/favorite-pages/${id}/` };
      },
      expect: [401, 404, 403, 204, 204],
    },
    // ---- analytics and exports ----
    {
      route: 'GET /api/workspaces/{slug}/analytics/',
      prepare: (x) => ({ path: `${wsApi(x)}/analytics/`, query: { x_axis: 'priority', y_axis: 'issue_count' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/default-analytics/',
      prepare: (x) => ({ path: `${wsApi(x)}/default-analytics/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/project-stats/',
      prepare: (x) => ({ path: `${wsApi(x)}/project-stats/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/analytic-view/',
      prepare: (x) => ({ path: `${wsApi(x)}/analytic-view/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/analytic-view/',
      prepare: (x) => ({ path: `${wsApi(x)}/analytic-view/`, body: { name: unique('chart') } }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/analytic-view/{id}/',
      prepare: async (x) => ({ path: `${wsApi(x)}/analytic-view/${await analyticView(x)}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/analytic-view/{id}/',
      prepare: async (x) => ({
        path: `${wsApi(x)}/analytic-view/${await analyticView(x)}/`,
        body: { description: 'd' },
      }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/analytic-view/{id}/',
      prepare: async (x) => ({ path: `${wsApi(x)}/analytic-view/${await analyticView(x)}/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/saved-analytic-view/{analytic_id}/',
      prepare: async (x) => ({ path: `${wsApi(x)}/saved-analytic-view/${await analyticView(x)}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/export-analytics/',
      prepare: (x) => ({ path: `${wsApi(x)}/export-analytics/`, body: { x_axis: 'priority', y_axis: 'issue_count' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/export-issues/',
      prepare: (x) => ({ path: `${wsApi(x)}/export-issues/`, query: { per_page: '10', cursor: '10:0:0' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/export-issues/',
      prepare: (x) => ({ path: `${wsApi(x)}/export-issues/`, body: { provider: 'json' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/export-issues/{id}/download/',
      prepare: async (x) => ({ path: await completedExport(x) }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/users/me/workspaces/{slug}/dashboard/',
      prepare: (x) => ({ path: `/api/users/me/workspaces/${x.w.slug}/dashboard/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/workspaces/{slug}/activity-graph/',
      prepare: (x) => ({ path: `/api/users/me/workspaces/${x.w.slug}/activity-graph/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/workspaces/{slug}/issues-completed-graph/',
      prepare: (x) => ({ path: `/api/users/me/workspaces/${x.w.slug}/issues-completed-graph/`, query: { month: '2' } }),
      expect: [401, 404, 200, 200, 200],
    },
    // ---- profiles ----
    {
      route: 'GET /api/workspaces/{slug}/user-profile/{user_id}/',
      prepare: (x) => ({ path: `${ws(x)}/user-profile/${x.member.userId}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/user-stats/{user_id}/',
      prepare: (x) => ({ path: `${ws(x)}/user-stats/${x.member.userId}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/user-issues/{user_id}/',
      prepare: (x) => ({ path: `${ws(x)}/user-issues/${x.member.userId}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/user-activity/{user_id}/',
      prepare: (x) => ({ path: `${ws(x)}/user-activity/${x.member.userId}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/user-activity/{user_id}/export/',
      prepare: (x) => ({ path: `${ws(x)}/user-activity/${x.member.userId}/export/`, body: { date: '2025-01-02' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/users/me/activities/',
      prepare: () => ({ path: '/api/users/me/activities/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/notification-preferences/',
      prepare: () => ({ path: '/api/users/me/notification-preferences/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'PATCH /api/users/me/notification-preferences/',
      prepare: () => ({ path: '/api/users/me/notification-preferences/', body: { comment: false } }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/invitations/',
      prepare: (x) => ({ path: `${proj(x)}/invitations/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/invitations/',
      prepare: (x) => ({
        path: `${proj(x)}/invitations/`,
        body: { emails: [{ email: `${unique('p')}@example.com` }] },
      }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/invitations/{invitation_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/invitations/${await projectInvitation(x)}/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/invitations/{invitation_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/invitations/${await projectInvitation(x)}/` }),
      expect: [401, 404, 403, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/join/{invitation_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/join/${await projectInvitation(x)}/` }),
      expect: [200, 200, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/join/{invitation_id}/',
      prepare: async (x) => {
        const email = `${unique('pj')}@example.com`;
        return { path: `${proj(x)}/join/${await projectInvitation(x, email)}/`, body: { email, accepted: false } };
      },
      expect: [200, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/workspaces/{slug}/projects/invitations/',
      prepare: (x) => ({ path: `/api/users/me/workspaces/${x.w.slug}/projects/invitations/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/instance-admin/',
      prepare: () => ({ path: '/api/users/me/instance-admin/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/accounts/',
      prepare: () => ({ path: '/api/users/me/accounts/' }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/users/me/accounts/{account_id}/',
      prepare: async (x, c) => ({ path: `/api/users/me/accounts/${await linkedAccount(mine(x, c))}/` }),
      expect: [401, 200, 200, 200, 200],
    },
    {
      route: 'DELETE /api/users/me/accounts/{account_id}/',
      prepare: async (x, c) => ({ path: `/api/users/me/accounts/${await linkedAccount(mine(x, c))}/` }),
      expect: [401, 204, 204, 204, 204],
    },
    {
      // each caller deactivates themselves; the Admin last, once the others have left
      route: 'DELETE /api/users/me/',
      prepare: () => ({ path: '/api/users/me/' }),
      expect: [401, 204, 204, 204, 204],
    },
    {
      route: 'GET /api/users/session/',
      prepare: () => ({ path: '/api/users/session/' }),
      expect: [200, 200, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/workspace-themes/',
      prepare: (x) => ({ path: `${ws(x)}/workspace-themes/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/workspace-themes/',
      prepare: (x) => ({ path: `${ws(x)}/workspace-themes/`, body: { name: unique('theme') } }),
      expect: [401, 404, 403, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/workspace-themes/{theme_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/workspace-themes/${await theme(x)}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/workspace-themes/{theme_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/workspace-themes/${await theme(x)}/`, body: { colors: { a: 1 } } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/workspace-themes/{theme_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/workspace-themes/${await theme(x)}/` }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/ai-assistant/',
      prepare: (x) => ({ path: `${ws(x)}/ai-assistant/`, body: { task: 't', prompt: 'p' } }),
      expect: [401, 404, 403, 400, 400],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/ai-assistant/',
      prepare: (x) => ({ path: `${proj(x)}/ai-assistant/`, body: { task: 't', prompt: 'p' } }),
      expect: [401, 404, 403, 400, 400],
    },
    // ---- drafts (workspace draft work items) ----
    {
      route: 'GET /api/workspaces/{slug}/draft-issues/',
      prepare: (x) => ({ path: `${ws(x)}/draft-issues/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/draft-issues/',
      prepare: (x) => ({ path: `${ws(x)}/draft-issues/`, body: { name: 'n', project_id: x.project.id } }),
      expect: [401, 404, 201, 201, 201],
    },
    {
      route: 'GET /api/workspaces/{slug}/draft-issues/{draft_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/draft-issues/${await draftOf(x, c)}/` }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/draft-issues/{draft_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/draft-issues/${await draftOf(x, c)}/`, body: { name: 'r' } }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/draft-issues/{draft_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/draft-issues/${await draftOf(x, c)}/` }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'POST /api/workspaces/{slug}/draft-to-issue/{draft_id}/',
      prepare: async (x, c) => ({ path: `${ws(x)}/draft-to-issue/${await draftOf(x, c)}/`, body: {} }),
      expect: [401, 404, 403, 201, 201],
    },
    // ---- work item leftovers (versions) ----
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/versions/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/versions/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/versions/{version_id}/',
      prepare: async (x) => ({
        path: `${proj(x)}/issues/${(await item(x)).id}/versions/00000000-0000-4000-8000-000000000000/`,
      }),
      expect: [401, 404, 404, 404, 404],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/description-versions/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await describedItem(x)).issue}/description-versions/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/description-versions/{version_id}/',
      prepare: async (x) => {
        const { issue, version } = await describedItem(x);
        return { path: `${proj(x)}/issues/${issue}/description-versions/${version}/` };
      },
      expect: [401, 404, 404, 200, 200],
    },
    // ---- PUT aliases (Plane maps "put": "update"; the same handler as PATCH) ----
    {
      route: 'PUT /api/workspaces/{slug}/',
      prepare: (x) => ({ path: `${ws(x)}/`, body: { name: 'Renamed' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/',
      prepare: (x) => ({ path: `${proj(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/issue-labels/{label_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/issue-labels/${await label(x)}/`, body: { color: '#ff0000' } }),
      expect: [401, 404, 403, 403, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/cycles/{cycle_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/cycles/${await cycle(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/modules/${await mod(x)}/`, body: { description: 'd' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/modules/{module_id}/module-links/{link_id}/',
      prepare: async (x) => {
        const m = await mod(x);
        const link = await adminPost(x, `${proj(x)}/modules/${m}/module-links/`, { url: 'https://example.com/a' });
        return { path: `${proj(x)}/modules/${m}/module-links/${link.id}/`, body: { title: 'Spec' } };
      },
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/views/{view_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/views/${await adminView(x)}/`, body: { name: 'n' } }),
      expect: [401, 404, 404, 403, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/views/{view_id}/',
      prepare: async (x) => ({ path: `${ws(x)}/views/${await adminView(x, true)}/`, body: { name: 'n' } }),
      expect: [401, 404, 404, 403, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/`, body: { name: 'Renamed' } }),
      expect: [401, 404, 403, 204, 204],
    },
    {
      // each writes their own comment (another's is 403, see app-work-items)
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/comments/{comment_id}/',
      prepare: async (x, caller) => {
        const c = await comment(x, author(x, caller));
        return { path: `${proj(x)}/issues/${c.issue}/comments/${c.id}/`, body: { comment_html: '<p>edited</p>' } };
      },
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'PUT /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-links/{link_id}/',
      prepare: async (x) => {
        const l = await link(x);
        return { path: `${proj(x)}/issues/${l.issue}/issue-links/${l.id}/`, body: { title: 'T' } };
      },
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/bulk-create-labels/',
      prepare: (x) => ({ path: `${proj(x)}/bulk-create-labels/`, body: { label_data: [{ name: unique('bl') }] } }),
      expect: [401, 404, 403, 403, 201],
    },
    // ---- rest ----
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/archived-cycles/{cycle_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/archived-cycles/${await archivedOne(x, 'cycles')}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/archived-modules/{module_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/archived-modules/${await archivedOne(x, 'modules')}/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-attachments/',
      prepare: async (x) => ({ path: `${proj(x)}/issues/${(await item(x)).id}/issue-attachments/` }),
      expect: [401, 404, 404, 200, 200],
    },
    {
      // the Admin's work item: a Guest does not see it (Plane's Guest rule: 404)
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-attachments/',
      prepare: async (x) => ({
        path: `${proj(x)}/issues/${(await item(x)).id}/issue-attachments/`,
        upload: { field: 'asset', name: 'a.txt', type: 'text/plain', content: Buffer.from('abc') },
      }),
      expect: [401, 404, 404, 201, 201],
    },
    {
      // the Admin's attachment: its uploader or a project Admin
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/issues/{issue_id}/issue-attachments/{attachment_id}/',
      prepare: async (x) => {
        const a = await attachment(x, true);
        return { path: `${proj(x)}/issues/${a.issue}/issue-attachments/${a.id}/` };
      },
      expect: [401, 404, 404, 403, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/project-estimates/',
      prepare: (x) => ({ path: `${proj(x)}/project-estimates/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'POST /api/workspaces/{slug}/projects/{project_id}/project-views/',
      prepare: (x) => ({ path: `${proj(x)}/project-views/`, body: { view_props: { layout: 'list' } } }),
      expect: [401, 404, 204, 204, 204],
    },
    {
      route: 'GET /api/workspaces/{slug}/project-members/',
      prepare: (x) => ({ path: `${ws(x)}/project-members/` }),
      expect: [401, 404, 200, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/project-identifiers/',
      prepare: (x) => ({ path: `${ws(x)}/project-identifiers/`, body: { name: 'FREEID' } }),
      expect: [401, 404, 403, 204, 204],
    },
    // ---- intake objects ----
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/intakes/',
      prepare: async (x) => (await intakeObject(x), { path: `${proj(x)}/intakes/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/intakes/{intake_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/intakes/${await intakeObject(x)}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/intakes/{intake_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/intakes/${await intakeObject(x)}/`, body: { name: 'Triage' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/intakes/{intake_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/intakes/${await intakeObject(x)}/` }),
      expect: [401, 404, 403, 400, 400],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/inboxes/',
      prepare: async (x) => (await intakeObject(x), { path: `${proj(x)}/inboxes/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'GET /api/workspaces/{slug}/projects/{project_id}/inboxes/{intake_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/inboxes/${await intakeObject(x)}/` }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'PATCH /api/workspaces/{slug}/projects/{project_id}/inboxes/{intake_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/inboxes/${await intakeObject(x)}/`, body: { name: 'Triage' } }),
      expect: [401, 404, 403, 200, 200],
    },
    {
      route: 'DELETE /api/workspaces/{slug}/projects/{project_id}/inboxes/{intake_id}/',
      prepare: async (x) => ({ path: `${proj(x)}/inboxes/${await intakeObject(x)}/` }),
      expect: [401, 404, 403, 400, 400],
    },
  ];

  it('covers every App API route of docs/permissions.md', () => {
    const doc = fs.readFileSync(path.join(ROOT, 'docs', 'permissions.md'), 'utf8');
    const section = doc.slice(doc.indexOf('## App API (/api/)'), doc.indexOf('## Auth (/auth/)'));
    const documented = [...section.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \|/gm)]
      .map((m) => `${m[1]} ${m[2]}`)
      .sort();
    assert.ok(documented.length >= 40);
    assert.deepEqual(CASES.map((c) => c.route).sort(), documented);
  });

  for (const c of CASES) {
    it(c.route, async () => {
      const x = await world(sharesUsers(c.route) ? await (shared ??= newUsers()) : undefined);
      const who: Record<Caller, SignedUp | null> = {
        anonymous: null,
        outsider: x.outsider,
        guest: x.guest,
        member: x.member,
        admin: x.admin,
      };
      const got: number[] = [];
      const bodies: string[] = [];
      for (const caller of CALLERS) {
        const call = await c.prepare(x, who[caller]);
        const [method] = c.route.split(' ');
        let req = t.api[method.toLowerCase() as 'get'](call.path);
        if (call.query) req = req.query(call.query);
        if (who[caller]) req = req.auth(who[caller]!.token, { type: 'bearer' });
        if (call.upload) {
          for (const [k, v] of Object.entries(call.upload.fields ?? {})) req = req.field(k, v);
          req = req.attach(call.upload.field, call.upload.content, {
            filename: call.upload.name,
            contentType: call.upload.type,
          });
        }
        const res = call.body ? await req.send(call.body) : await req;
        got.push(res.status);
        bodies.push(`${caller}: ${res.status} ${JSON.stringify(res.body).slice(0, 160)}`);
      }
      assert.deepEqual(got, c.expect, bodies.join('\n'));
    });
  }

  it('a legacy workspace upload of a logo is for workspace Admins only (as the v2 route)', async () => {
    const x = await world();
    const got: number[] = [];
    for (const u of [x.guest, x.member, x.admin]) {
      const res = await t.api
        .post(`${ws(x)}/file-assets/`)
        .auth(u.token, { type: 'bearer' })
        .field('entity_type', 'WORKSPACE_LOGO')
        .attach('asset', legacyImage.content, { filename: legacyImage.name, contentType: legacyImage.type });
      got.push(res.status);
    }
    assert.deepEqual(got, [403, 403, 201]);
  });

  it('a Member may edit a state but not make it the default (Plane: mark-default is for Admins)', async () => {
    const x = await world();
    const id = await state(x);
    const url = `${proj(x)}/states/${id}/`;
    const asMember = await t.api.patch(url).auth(x.member.token, { type: 'bearer' }).send({ default: true });
    assert.equal(asMember.status, 403, JSON.stringify(asMember.body));
    assert.equal(asMember.body.error_code, 'PERMISSION_DENIED');
    assert.equal(
      (await t.api.patch(url).auth(x.member.token, { type: 'bearer' }).send({ description: 'd' })).status,
      200,
    );
    const asAdmin = await t.api.patch(url).auth(x.admin.token, { type: 'bearer' }).send({ default: true });
    assert.equal(asAdmin.status, 200, JSON.stringify(asAdmin.body));
    assert.equal(asAdmin.body.default, true);
  });

  it('a Guest reads and follows only their own intake items and work items, unless guest_view_all_features', async () => {
    const x = await world();
    const others = await intakeItem(x);
    const own = await t.api
      .post(`${proj(x)}/intake-issues/`)
      .auth(x.guest.token, { type: 'bearer' })
      .send({ issue: { name: unique('mine') } });
    assert.equal(own.status, 201, JSON.stringify(own.body));
    const listed = async (who: SignedUp) =>
      (
        (await t.api.get(`${proj(x)}/intake-issues/`).auth(who.token, { type: 'bearer' })).body.results as Array<{
          issue: { id: string };
        }>
      )
        .map((r) => r.issue.id)
        .sort();
    assert.deepEqual(await listed(x.guest), [own.body.issue.id]);
    assert.deepEqual(await listed(x.member), [others, own.body.issue.id].sort());
    // the Guest's own submission: they may edit it, a Member who did not submit it may not
    assert.equal(
      (
        await t.api
          .patch(`${proj(x)}/intake-issues/${own.body.issue.id}/`)
          .auth(x.guest.token, { type: 'bearer' })
          .send({ issue: { name: 'r' } })
      ).status,
      200,
    );
    assert.equal(
      (
        await t.api
          .patch(`${proj(x)}/intake-issues/${own.body.issue.id}/`)
          .auth(x.member.token, { type: 'bearer' })
          .send({ issue: { name: 'r' } })
      ).status,
      403,
    );
    // a work item of their own: the Guest may follow it and comment on it
    const { id: mine } = await item(x);
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [mine, x.guest.userId]);
    assert.equal(
      (await t.api.post(`${proj(x)}/issues/${mine}/subscribe/`).auth(x.guest.token, { type: 'bearer' })).status,
      201,
    );
    assert.equal(
      (
        await t.api
          .post(`${proj(x)}/issues/${mine}/comments/`)
          .auth(x.guest.token, { type: 'bearer' })
          .send({ comment_html: '<p>c</p>' })
      ).status,
      201,
    );
    // the project lets Guests see everything: the others' too
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [x.project.id]);
    assert.deepEqual(await listed(x.guest), [others, own.body.issue.id].sort());
    assert.equal(
      (await t.api.get(`${proj(x)}/intake-issues/${others}/`).auth(x.guest.token, { type: 'bearer' })).status,
      200,
    );
    const { id: theirs } = await item(x);
    assert.equal(
      (await t.api.post(`${proj(x)}/issues/${theirs}/subscribe/`).auth(x.guest.token, { type: 'bearer' })).status,
      201,
    );
    assert.equal(
      (
        await t.api
          .post(`${proj(x)}/issues/${theirs}/comments/`)
          .auth(x.guest.token, { type: 'bearer' })
          .send({ comment_html: '<p>c</p>' })
      ).status,
      201,
    );
  });

  it('ids from another workspace are 404 even for that workspace’s Admin', async () => {
    const x = await world();
    const stranger = await signUp(t);
    const other = await createWorkspace(t, stranger.token);
    const inv = await invitation(x);
    const tokenId = await apiToken(x);
    const hookId = await webhook(x);
    const memberRow = await membershipId(t, x.w.id, x.member.userId);
    const pmRow = await projectMemberRow(x, 15);
    const base = `/api/workspaces/${other.slug}`;
    const calls: Array<[string, string]> = [
      ['get', `${base}/members/${memberRow}/`],
      ['patch', `${base}/members/${memberRow}/`],
      ['delete', `${base}/members/${memberRow}/`],
      ['get', `${base}/invitations/${inv.id}/`],
      ['delete', `${base}/invitations/${inv.id}/`],
      ['get', `${base}/invitations/${inv.id}/join/?token=${inv.token}`],
      ['get', `${base}/api-tokens/${tokenId}/`],
      ['delete', `${base}/api-tokens/${tokenId}/`],
      ['get', `${base}/webhooks/${hookId}/`],
      ['patch', `${base}/webhooks/${hookId}/`],
      ['delete', `${base}/webhooks/${hookId}/`],
      ['post', `${base}/webhooks/${hookId}/regenerate/`],
      ['get', `${base}/webhook-logs/${hookId}/`],
      ['get', `${base}/projects/${x.project.id}/`],
      ['delete', `${base}/projects/${x.project.id}/`],
      ['post', `${base}/projects/${x.project.id}/archive/`],
      ['get', `${base}/projects/${x.project.id}/members/`],
      ['get', `${base}/projects/${x.project.id}/members/${pmRow}/`],
    ];
    for (const [method, url] of calls) {
      const res = await t.api[method as 'get'](url)
        .auth(stranger.token, { type: 'bearer' })
        .send(method === 'patch' ? (url.includes('/webhooks/') ? { issue: false } : { role: 5 }) : undefined);
      assert.equal(res.status, 404, `${method} ${url}: ${JSON.stringify(res.body)}`);
    }
    // and nothing changed in the first workspace
    assert.equal(
      (await t.api.get(`/api/workspaces/${x.w.slug}/members/${memberRow}/`).auth(x.admin.token, { type: 'bearer' }))
        .body.role,
      15,
    );
    assert.equal(
      (await t.api.get(`/api/workspaces/${x.w.slug}/projects/${x.project.id}/`).auth(x.admin.token, { type: 'bearer' }))
        .status,
      200,
    );
  });

  it('a removed member’s API key gives 401 and their session no longer sees the workspace', async () => {
    const x = await world();
    await t.sql('UPDATE workspace_members SET role = 20 WHERE workspace_id = $1 AND member_id = $2', [
      x.w.id,
      x.member.userId,
    ]);
    const key = (
      await t.api.post(`/api/workspaces/${x.w.slug}/api-tokens/`).auth(x.member.token, { type: 'bearer' }).send({})
    ).body.token;
    assert.equal((await t.api.get(`/api/v1/workspaces/${x.w.slug}/projects/`).set('X-API-Key', key)).status, 200);
    const del = await t.api
      .delete(`/api/workspaces/${x.w.slug}/members/${await membershipId(t, x.w.id, x.member.userId)}/`)
      .auth(x.admin.token, { type: 'bearer' });
    assert.equal(del.status, 204);
    assert.equal((await t.api.get(`/api/v1/workspaces/${x.w.slug}/projects/`).set('X-API-Key', key)).status, 401);
    assert.equal(
      (await t.api.get(`/api/workspaces/${x.w.slug}/projects/`).auth(x.member.token, { type: 'bearer' })).status,
      404,
    );
    assert.equal((await t.api.get('/api/users/me/').auth(x.member.token, { type: 'bearer' })).status, 200);
  });
});
