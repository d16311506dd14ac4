import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A member's profile pages (Plane `plane/app/views/workspace/user.py`): summary, counts, work item
 * tabs, history and its CSV, and the caller's own history; nothing of a project the caller is not in.
 */
describe('App API: profiles', () => {
  let t: TestApp;
  let ada: SignedUp; // workspace Admin, member of both projects
  let mia: SignedUp; // workspace Member, member of `shared` only
  let gus: SignedUp; // workspace Guest, Guest of `shared`
  let eve: SignedUp; // another workspace
  let ws: { id: string; slug: string };
  let shared: { id: string };
  let secret: { id: string };
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const base = () => `/api/workspaces/${ws.slug}`;
  const items: Record<string, string> = {};

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    mia = await signUp(t);
    gus = await signUp(t);
    eve = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    await createWorkspace(t, eve.token);
    await addMember(t, ws.id, mia.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    shared = await createAppProject(t, ada.token, ws.slug, { name: 'Shared' });
    secret = await createAppProject(t, ada.token, ws.slug, { name: 'Secret', network: 0 });
    await addProjectMember(t, ws.id, shared.id, mia.userId, 15);
    await addProjectMember(t, ws.id, shared.id, gus.userId, 5);
    const create = async (project: string, body: Record<string, unknown>) => {
      const r = await t.api.post(`${base()}/projects/${project}/issues/`).set(bearer(ada)).send(body);
      assert.equal(r.status, 201, JSON.stringify(r.body));
      return r.body.id as string;
    };
    items.a1 = await create(shared.id, { name: 'Assigned urgent', priority: 'urgent', assignee_ids: [ada.userId] });
    items.a2 = await create(shared.id, { name: 'Assigned low', priority: 'low', assignee_ids: [ada.userId] });
    items.created = await create(shared.id, { name: 'Created only', priority: 'none' });
    items.hidden = await create(secret.id, { name: 'Secret work', priority: 'high', assignee_ids: [ada.userId] });
    const r = await t.api
      .patch(`${base()}/projects/${shared.id}/issues/${items.a2}/`)
      .set(bearer(ada))
      .send({ name: 'Assigned low, renamed' });
    assert.equal(r.status, 204, JSON.stringify(r.body));
  });
  after(() => t.close());

  it('user-profile: Plane user_data and the caller project_data (no project the caller is not in)', async () => {
    const own = await t.api.get(`${base()}/user-profile/${ada.userId}/`).set(bearer(ada));
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.deepEqual(Object.keys(own.body.user_data).sort(), [
      'avatar_url',
      'cover_image_url',
      'date_joined',
      'display_name',
      'email',
      'first_name',
      'last_name',
      'user_timezone',
    ]);
    assert.equal(own.body.project_data.length, 2);
    const sharedRow = own.body.project_data.find((p: { id: string }) => p.id === shared.id);
    assert.deepEqual(Object.keys(sharedRow).sort(), [
      'assigned_issues',
      'completed_issues',
      'created_issues',
      'id',
      'logo_props',
      'pending_issues',
    ]);
    assert.equal(sharedRow.created_issues, 3);
    assert.equal(sharedRow.assigned_issues, 2);
    assert.equal(sharedRow.pending_issues, 2);
    assert.equal(sharedRow.completed_issues, 0);

    const seen = await t.api.get(`${base()}/user-profile/${ada.userId}/`).set(bearer(mia));
    assert.equal(seen.status, 200);
    assert.deepEqual(
      seen.body.project_data.map((p: { id: string }) => p.id),
      [shared.id],
    );
    const guest = await t.api.get(`${base()}/user-profile/${ada.userId}/`).set(bearer(gus));
    assert.equal(guest.status, 200);
    assert.deepEqual(guest.body.project_data, []);
    // a Guest sees no one's email but their own
    assert.equal(guest.body.user_data.email, '');
    assert.equal(seen.body.user_data.email, ada.email);
    const self = await t.api.get(`${base()}/user-profile/${gus.userId}/`).set(bearer(gus));
    assert.equal(self.body.user_data.email, gus.email);
  });

  it('user-profile: 404 for an unknown user, a malformed id, or outside the workspace', async () => {
    assertError(
      await t.api.get(`${base()}/user-profile/00000000-0000-4000-8000-000000000000/`).set(bearer(ada)),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.get(`${base()}/user-profile/nope/`).set(bearer(ada)), 404, 'NOT_FOUND');
    // a user who is not a member of the workspace
    assertError(await t.api.get(`${base()}/user-profile/${eve.userId}/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assertError(await t.api.get(`${base()}/user-profile/${ada.userId}/`).set(bearer(eve)), 404, 'WORKSPACE_NOT_FOUND');
    assert.equal((await t.api.get(`${base()}/user-profile/${ada.userId}/`)).status, 401);
  });

  it('user-stats: counts and distributions of the projects the caller sees, filters narrow them', async () => {
    const own = await t.api.get(`${base()}/user-stats/${ada.userId}/`).set(bearer(ada));
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.deepEqual(Object.keys(own.body).sort(), [
      'assigned_issues',
      'completed_issues',
      'created_issues',
      'pending_issues',
      'present_cycles',
      'priority_distribution',
      'state_distribution',
      'subscribed_issues',
      'upcoming_cycles',
    ]);
    assert.equal(own.body.assigned_issues, 3);
    assert.equal(own.body.created_issues, 4);
    assert.deepEqual(
      own.body.priority_distribution.map((p: { priority: string }) => p.priority),
      ['urgent', 'high', 'low'],
    );
    assert.deepEqual(own.body.priority_distribution[0], { priority: 'urgent', priority_count: 1, priority_order: 0 });
    assert.equal(
      own.body.state_distribution.reduce((n: number, s: { state_count: number }) => n + s.state_count, 0),
      3,
    );
    const seen = await t.api.get(`${base()}/user-stats/${ada.userId}/`).set(bearer(mia));
    assert.equal(seen.body.assigned_issues, 2);
    assert.equal(seen.body.created_issues, 3);
    assert.ok(!seen.body.priority_distribution.some((p: { priority: string }) => p.priority === 'high'));
    const narrowed = await t.api.get(`${base()}/user-stats/${ada.userId}/?priority=urgent`).set(bearer(ada));
    assert.equal(narrowed.body.assigned_issues, 1);
    assertError(
      await t.api.get(`${base()}/user-stats/${ada.userId}/?priority=bogus`).set(bearer(ada)),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    // a Guest of `shared` (no guest_view_all_features) sees only what they created: nothing
    const guest = await t.api.get(`${base()}/user-stats/${ada.userId}/`).set(bearer(gus));
    assert.equal(guest.status, 200);
    assert.equal(guest.body.assigned_issues, 0);
  });

  it('user-issues: the assigned, created and subscribed tabs as the workspace list, paged by number', async () => {
    const ids = (body: { results: Array<{ id: string }> }) => body.results.map((i) => i.id).sort();
    const assigned = await t.api
      .get(`${base()}/user-issues/${ada.userId}/?assignees=${ada.userId}&per_page=50&cursor=50:0:0`)
      .set(bearer(mia));
    assert.equal(assigned.status, 200, JSON.stringify(assigned.body));
    assert.deepEqual(ids(assigned.body), [items.a1, items.a2].sort());
    assert.ok('assignee_ids' in assigned.body.results[0]);
    const created = await t.api.get(`${base()}/user-issues/${ada.userId}/?created_by=${ada.userId}`).set(bearer(ada));
    assert.deepEqual(ids(created.body), [items.a1, items.a2, items.created, items.hidden].sort());
    const subscribed = await t.api
      .get(`${base()}/user-issues/${ada.userId}/?subscriber=${ada.userId}`)
      .set(bearer(mia));
    assert.equal(subscribed.status, 200);
    assert.ok(!ids(subscribed.body).includes(items.hidden));
    const byDefault = await t.api.get(`${base()}/user-issues/${ada.userId}/`).set(bearer(ada));
    assert.deepEqual(ids(byDefault.body), [items.a1, items.a2, items.hidden].sort());
    const grouped = await t.api
      .get(`${base()}/user-issues/${ada.userId}/?assignees=${ada.userId}&group_by=priority`)
      .set(bearer(ada));
    assert.equal(grouped.status, 200);
    assert.equal(grouped.body.grouped_by, 'priority');
    assert.equal(grouped.body.results.urgent.total_results, 1);
    assertError(
      await t.api.get(`${base()}/user-issues/${ada.userId}/?group_by=nope`).set(bearer(ada)),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it("user-activity: Plane's history rows of the caller's projects, newest first, paged", async () => {
    const own = await t.api.get(`${base()}/user-activity/${ada.userId}/?per_page=2`).set(bearer(ada));
    assert.equal(own.status, 200, JSON.stringify(own.body));
    assert.equal(own.body.results.length, 2);
    assert.ok(own.body.next_page_results);
    const row = own.body.results[0];
    for (const key of [
      'id',
      'verb',
      'field',
      'old_value',
      'new_value',
      'actor',
      'issue',
      'project',
      'workspace',
      'actor_detail',
      'issue_detail',
      'project_detail',
      'workspace_detail',
      'source_data',
      'created_at',
    ])
      assert.ok(key in row, key);
    assert.equal(row.actor, ada.userId);
    assert.equal(row.workspace_detail.slug, ws.slug);
    const next = await t.api
      .get(`${base()}/user-activity/${ada.userId}/?per_page=2&cursor=${own.body.next_cursor}`)
      .set(bearer(ada));
    assert.equal(next.status, 200);
    assert.ok(next.body.results.every((r: { id: string }) => r.id !== row.id));

    const all = await t.api.get(`${base()}/user-activity/${ada.userId}/`).set(bearer(ada));
    const seen = await t.api.get(`${base()}/user-activity/${ada.userId}/`).set(bearer(mia));
    assert.ok(all.body.results.some((r: { project: string }) => r.project === secret.id));
    assert.ok(seen.body.results.length > 0);
    assert.ok(seen.body.results.every((r: { project: string }) => r.project === shared.id));
    const narrowed = await t.api.get(`${base()}/user-activity/${ada.userId}/?project=${secret.id}`).set(bearer(ada));
    assert.ok(narrowed.body.results.every((r: { project: string }) => r.project === secret.id));
    assertError(
      await t.api.get(`${base()}/user-activity/${ada.userId}/?project=x`).set(bearer(ada)),
      400,
      'INVALID_QUERY_PARAMETER',
    );
  });

  it('user-activity export: a CSV of the day; 422 without a date; Guests 403', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const r = await t.api.post(`${base()}/user-activity/${ada.userId}/export/`).set(bearer(mia)).send({ date: today });
    assert.equal(r.status, 200, r.text);
    assert.match(String(r.headers['content-type']), /text\/csv/);
    assert.match(String(r.headers['content-disposition']), /workspace-user-activity\.csv/);
    const lines = r.text.trim().split('\r\n');
    assert.equal(
      lines[0],
      '"Actor name","Issue ID","Project","Created at","Updated at","Action","Field","Old value","New value"',
    );
    assert.ok(lines.length > 1);
    assert.ok(!r.text.includes('Secret'));
    assertError(
      await t.api.post(`${base()}/user-activity/${ada.userId}/export/`).set(bearer(mia)).send({}),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await t.api.post(`${base()}/user-activity/${ada.userId}/export/`).set(bearer(gus)).send({ date: today }),
      403,
      'PERMISSION_DENIED',
    );
  });

  it("users/me/activities: the caller's own history everywhere", async () => {
    const r = await t.api.get('/api/users/me/activities/?per_page=100').set(bearer(ada));
    assert.equal(r.status, 200, JSON.stringify(r.body));
    assert.ok(r.body.results.length >= 5);
    assert.ok(r.body.results.every((row: { actor: string }) => row.actor === ada.userId));
    const none = await t.api.get('/api/users/me/activities/').set(bearer(eve));
    assert.deepEqual(none.body.results, []);
    assert.equal((await t.api.get('/api/users/me/activities/')).status, 401);
  });
});
