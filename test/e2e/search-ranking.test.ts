import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The work item searches (the workspace search `search/`, `entity-search/`, the picker
 * `search-issues/` and the v1 `work-items/search/`) read through the trigram index and rank their
 * hits: the exact key (`ALPHA-2`) or number first, then the names equal to the text, starting with
 * it, with a word starting with it, containing it anywhere (Plane's `icontains`: inside a word, any
 * case). Runs on both engines (PGlite loads `pg_trgm`).
 */
describe('work item search: icontains semantics and ranking', () => {
  let t: TestApp;
  let admin: SignedUp;
  let key: string;
  let ws: { id: string; slug: string };
  let alpha: { id: string; identifier: string };
  let beta: { id: string; identifier: string };
  const w = () => `/api/workspaces/${ws.slug}`;
  const get = (path: string) => t.api.get(path).auth(admin.token, { type: 'bearer' });
  const create = async (pid: string, name: string) => {
    const res = await t.api.post(`${w()}/projects/${pid}/issues/`).auth(admin.token, { type: 'bearer' }).send({ name });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number; name: string };
  };

  /** The names each of the four searches answers for `q`, in their order. */
  const searches = async (q: string, pid = alpha.id) => {
    const global = await get(`${w()}/search/`).query({ search: q, workspace_search: 'true' });
    assert.equal(global.status, 200, JSON.stringify(global.body));
    const entity = await get(`${w()}/entity-search/`).query({ query_type: 'issue', query: q, count: 50 });
    assert.equal(entity.status, 200, JSON.stringify(entity.body));
    const picker = await get(`${w()}/projects/${pid}/search-issues/`).query({ search: q, workspace_search: 'true' });
    assert.equal(picker.status, 200, JSON.stringify(picker.body));
    const v1 = await t.api
      .get(`/api/v1/workspaces/${ws.slug}/work-items/search/`)
      .set('x-api-key', key)
      .query({ search: q, limit: 100 });
    assert.equal(v1.status, 200, JSON.stringify(v1.body));
    const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name);
    return {
      global: names(global.body.results.issue),
      entity: names(entity.body.issue),
      picker: names(picker.body),
      v1: names(v1.body.issues),
    };
  };

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    key = await createApiKey(t, admin.token, ws.slug);
    alpha = await createAppProject(t, admin.token, ws.slug, { identifier: 'ALPHA', name: 'Alpha' });
    beta = await createAppProject(t, admin.token, ws.slug, { identifier: 'BETA', name: 'Beta' });
    await create(alpha.id, 'Refactor the login form'); // ALPHA-1
    await create(alpha.id, 'Unrelated chore'); // ALPHA-2
    await create(alpha.id, 'Fix relogin loop'); // ALPHA-3
    await create(alpha.id, 'Login page crashes'); // ALPHA-4
    await create(alpha.id, 'login'); // ALPHA-5
    await create(alpha.id, 'Version 2 rollout'); // ALPHA-6
    await create(beta.id, 'beta login'); // BETA-1
    await create(beta.id, 'Another chore'); // BETA-2
  });

  after(async () => {
    await t?.close();
  });

  it('ranks equal, prefix, word and inner matches in that order, in every search', async () => {
    const expected = ['login', 'Login page crashes', 'beta login', 'Refactor the login form', 'Fix relogin loop'];
    for (const q of ['login', 'LOGIN', 'Login']) {
      const r = await searches(q);
      assert.deepEqual(r.global, expected, `search/ ${q}`);
      assert.deepEqual(r.entity, expected, `entity-search/ ${q}`);
      assert.deepEqual(r.picker, expected, `search-issues/ ${q}`);
      assert.deepEqual(r.v1, expected, `work-items/search/ ${q}`);
    }
  });

  it('matches a substring inside a word, in any case (icontains), with % and _ taken literally', async () => {
    for (const q of ['ogi', 'OGI', 'elog']) {
      const r = await searches(q);
      for (const names of [r.global, r.entity, r.picker, r.v1]) {
        assert.deepEqual(
          [...names].sort(),
          q === 'elog'
            ? ['Fix relogin loop']
            : ['Fix relogin loop', 'Login page crashes', 'Refactor the login form', 'beta login', 'login'],
          q,
        );
      }
    }
    for (const q of ['%', '_', 'lo_in']) {
      const r = await searches(q);
      assert.deepEqual([r.global, r.entity, r.picker, r.v1], [[], [], [], []], q);
    }
  });

  it('puts the exact key or number first, then the names containing it', async () => {
    const byKey = await searches('alpha-2');
    for (const names of [byKey.global, byKey.picker, byKey.v1]) assert.deepEqual(names, ['Unrelated chore']);
    // entity-search/ takes the numbers of the text (Plane): work item 2 of each project
    assert.deepEqual([...byKey.entity].sort(), ['Another chore', 'Unrelated chore']);

    const byNumber = await searches('2');
    for (const names of [byNumber.global, byNumber.picker, byNumber.v1, byNumber.entity]) {
      assert.deepEqual(names.slice(0, 2).sort(), ['Another chore', 'Unrelated chore']);
      assert.deepEqual(names.slice(2), ['Version 2 rollout']);
    }
    // the picker of one project: that project's work item 2 first
    const picker = await get(`${w()}/projects/${alpha.id}/search-issues/`).query({ search: '2' });
    assert.deepEqual(
      picker.body.map((r: { name: string }) => r.name),
      ['Unrelated chore', 'Version 2 rollout'],
    );
  });

  it('the entity search also finds the work items of a project whose identifier contains the text', async () => {
    const r = await get(`${w()}/entity-search/`).query({ query_type: 'issue', query: 'bet', count: 50 });
    assert.equal(r.status, 200);
    assert.deepEqual(r.body.issue.map((i: { name: string }) => i.name).sort(), ['Another chore', 'beta login']);
  });
});
