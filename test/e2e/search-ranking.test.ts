import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addMemberWithKey,
  addProjectMember,
  createApiKey,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';
import { issueSearch } from '#domain';

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

  it('reads the same hits walking the newest work items as from the trigram index, in any case and alphabet', async () => {
    // which way a search reads its name hits follows the name column's statistics (`walksNewest`);
    // both ways are run here for each text, each of the four searches' shapes, on this engine
    for (const name of ['Ärger im Login', 'ärger später', 'ÉTÉ release', 'Straße ogi', 'İstanbul office'])
      await create(beta.id, name);
    const shapes = [
      { exact: undefined, limit: 100 },
      { exact: { sequences: [2] }, guestRule: true, projectIdentifier: true, limit: 10 },
      { exclude: {}, withState: true, limit: 100 },
      { projectId: alpha.id, limit: 100 },
    ];
    for (const q of ['login', 'LOGIN', 'ogi', 'ärger', 'ÄRGER', 'été', 'straße', 'istanbul', 'e', '%', 'lo_in', 'be']) {
      for (const shape of shapes) {
        const read = async (walk: boolean) => {
          const { text, values } = issueSearch({
            workspaceId: ws.id,
            userId: admin.userId,
            q,
            columns: 'i.name, i.sequence_id, sp.identifier',
            ...shape,
            walk,
          });
          return t.sql(text, values);
        };
        const [walked, indexed] = [await read(true), await read(false)];
        assert.deepEqual(walked, indexed, `${q} ${JSON.stringify(shape)}`);
        if ((q === 'LOGIN' || q === 'straße') && !('projectId' in shape))
          assert.ok(walked.length > 0, `${q} ${JSON.stringify(shape)}`);
      }
    }
  });
});

/**
 * Whose work items a search shows (`issueSearch`: the caller's scope written once, as a CTE of their
 * projects): only the visible work items (no draft, none waiting in intake) of the live projects
 * of this workspace the caller is an active member of; never another workspace's, even for a
 * member of both, by name, key or number; in `entity-search/`, a project Guest's own work items
 * only unless the project shows Guests everything. And `search/` answers every kind of Plane
 * 0.25.3 in its shape, its six statements sent together.
 */
describe('work item search: visibility and the answers of search/ and entity-search/', () => {
  let t: TestApp;
  let admin: SignedUp;
  let mia: SignedUp; // a workspace Member, in Alpha only
  let gus: SignedUp; // a workspace Guest, Guest of Alpha
  let ws: { id: string; slug: string };
  let alpha: { id: string };
  let beta: { id: string };
  let foreign: { id: string; slug: string };
  const keys: Record<string, string> = {};
  const w = (slug = ws.slug) => `/api/workspaces/${slug}`;
  const as = (u: SignedUp) => ({ get: (path: string) => t.api.get(path).auth(u.token, { type: 'bearer' }) });
  const create = async (slug: string, pid: string, name: string) => {
    const res = await t.api
      .post(`${w(slug)}/projects/${pid}/issues/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ name });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number };
  };
  const names = (rows: Array<{ name: string }>) => rows.map((r) => r.name).sort();

  /** The names each search answers `u` for `q` in the workspace (`slug`), the picker from `pid`. */
  const searches = async (u: SignedUp, q: string, pid = alpha.id, slug = ws.slug) => {
    const global = await as(u)
      .get(`${w(slug)}/search/`)
      .query({ search: q });
    assert.equal(global.status, 200, JSON.stringify(global.body));
    const entity = await as(u)
      .get(`${w(slug)}/entity-search/`)
      .query({ query_type: 'issue', query: q, count: 50 });
    assert.equal(entity.status, 200, JSON.stringify(entity.body));
    const picker = await as(u)
      .get(`${w(slug)}/projects/${pid}/search-issues/`)
      .query({ search: q, workspace_search: 'true' });
    assert.equal(picker.status, 200, JSON.stringify(picker.body));
    const out = {
      global: names(global.body.results.issue),
      entity: names(entity.body.issue),
      picker: names(picker.body),
      v1: [] as string[],
    };
    // (the API keys are this workspace's)
    if (keys[u.userId] && slug === ws.slug) {
      const v1 = await t.api
        .get(`/api/v1/workspaces/${slug}/work-items/search/`)
        .set('x-api-key', keys[u.userId])
        .query({ search: q, limit: 100 });
      assert.equal(v1.status, 200, JSON.stringify(v1.body));
      out.v1 = names(v1.body.issues);
    }
    return out;
  };

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    mia = await signUp(t);
    gus = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    keys[admin.userId] = await createApiKey(t, admin.token, ws.slug);
    alpha = await createAppProject(t, admin.token, ws.slug, { identifier: 'ALPHA', name: 'Alpha' });
    beta = await createAppProject(t, admin.token, ws.slug, { identifier: 'BETA', name: 'Beta' });
    keys[mia.userId] = await addMemberWithKey(t, ws, mia, 15);
    await addProjectMember(t, ws.id, alpha.id, mia.userId, 15);
    await addMember(t, ws.id, gus.userId, 5);
    await addProjectMember(t, ws.id, alpha.id, gus.userId, 5);
    await create(ws.slug, alpha.id, 'Shared login alpha'); // ALPHA-1
    const own = await create(ws.slug, alpha.id, 'Guest login note'); // ALPHA-2, made the Guest's below
    await t.sql('UPDATE issues SET created_by_id = $1 WHERE id = $2', [gus.userId, own.id]);
    await create(ws.slug, beta.id, 'Secret login beta'); // BETA-1
    const draft = await create(ws.slug, alpha.id, 'Draft login'); // ALPHA-3
    await t.sql('UPDATE issues SET is_draft = true WHERE id = $1', [draft.id]);
    await t.sql('UPDATE projects SET intake_view = true WHERE id = $1', [alpha.id]);
    const intake = await t.api
      .post(`${w()}/projects/${alpha.id}/intake-issues/`)
      .auth(admin.token, { type: 'bearer' })
      .send({ issue: { name: 'Triage login' } });
    assert.equal(intake.status, 201, JSON.stringify(intake.body));
    for (const [pid, kind, name] of [
      [alpha.id, 'cycles', 'Login cycle'],
      [beta.id, 'modules', 'Login module'],
    ]) {
      const res = await t.api
        .post(`${w()}/projects/${pid}/${kind}/`)
        .auth(admin.token, { type: 'bearer' })
        .send({ name });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    // another workspace of the same admin, with a project and a work item named alike
    foreign = await createWorkspace(t, admin.token);
    const gamma = await createAppProject(t, admin.token, foreign.slug, { identifier: 'GAMMA', name: 'Gamma login' });
    await create(foreign.slug, gamma.id, 'Foreign login'); // GAMMA-1
  });

  after(async () => {
    await t?.close();
  });

  it("shows an Admin this workspace's visible work items only: no draft, none in intake, no other workspace's", async () => {
    const r = await searches(admin, 'login');
    const expected = ['Guest login note', 'Secret login beta', 'Shared login alpha'];
    assert.deepEqual(r, { global: expected, entity: expected, picker: expected, v1: expected });
    // a foreign project's key finds nothing here (entity-search/ takes its number: work item 1 of
    // this workspace's projects); a number only this workspace's work items
    assert.deepEqual(await searches(admin, 'GAMMA-1'), {
      global: [],
      entity: ['Secret login beta', 'Shared login alpha'],
      picker: [],
      v1: [],
    });
    const one = await searches(admin, '1');
    assert.deepEqual(one.global, ['Secret login beta', 'Shared login alpha']);
    assert.deepEqual(one.v1, ['Secret login beta', 'Shared login alpha']);
    // in the other workspace, its own only
    const there = await searches(
      admin,
      'login',
      (await t.sql<{ id: string }>("SELECT id FROM projects WHERE identifier = 'GAMMA'"))[0].id,
      foreign.slug,
    );
    assert.deepEqual(there.global, ['Foreign login']);
    assert.deepEqual(there.entity, ['Foreign login']);
    assert.deepEqual(there.picker, ['Foreign login']);
  });

  it("keeps a Member to their projects: another project's work items by name, key, number or identifier are not shown", async () => {
    const r = await searches(mia, 'login');
    const expected = ['Guest login note', 'Shared login alpha'];
    assert.deepEqual(r, { global: expected, entity: expected, picker: expected, v1: expected });
    // (entity-search/ takes the key's number: work item 1 of her projects only)
    assert.deepEqual(await searches(mia, 'BETA-1'), { global: [], entity: ['Shared login alpha'], picker: [], v1: [] });
    assert.deepEqual((await searches(mia, '1')).global, ['Shared login alpha']);
    // entity-search/ also finds work items by their project's identifier: not Beta's for her
    const byIdent = await as(mia).get(`${w()}/entity-search/`).query({ query_type: 'issue', query: 'bet' });
    assert.deepEqual(byIdent.body.issue, []);
    const global = await as(mia).get(`${w()}/search/`).query({ search: 'a' });
    assert.deepEqual(
      global.body.results.project.map((p: { id: string }) => p.id),
      [alpha.id],
    );
    // cycles and modules of her projects only (the module is Beta's)
    const kinds = await as(mia).get(`${w()}/search/`).query({ search: 'login' });
    assert.deepEqual(names(kinds.body.results.cycle), ['Login cycle']);
    assert.deepEqual(kinds.body.results.module, []);
  });

  it("applies the Guest rule to a Guest's entity search by name and number, until the project shows Guests all", async () => {
    const mine = await as(gus).get(`${w()}/entity-search/`).query({ query_type: 'issue', query: 'login' });
    assert.deepEqual(names(mine.body.issue), ['Guest login note']);
    const byNumber = await as(gus).get(`${w()}/entity-search/`).query({ query_type: 'issue', query: '1' });
    assert.deepEqual(byNumber.body.issue, []);
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [alpha.id]);
    try {
      const all = await as(gus).get(`${w()}/entity-search/`).query({ query_type: 'issue', query: 'login' });
      assert.deepEqual(names(all.body.issue), ['Guest login note', 'Shared login alpha']);
    } finally {
      await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [alpha.id]);
    }
  });

  it("search/ answers Plane's seven kinds in their shapes (the work items ranked), and entity-search/ each asked kind", async () => {
    const res = await as(admin).get(`${w()}/search/`).query({ search: 'login' });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(Object.keys(res.body.results), [
      'workspace',
      'project',
      'issue',
      'cycle',
      'module',
      'issue_view',
      'page',
    ]);
    assert.deepEqual(Object.keys(res.body.results.issue[0]).sort(), [
      'id',
      'name',
      'project__identifier',
      'project_id',
      'sequence_id',
      'workspace__slug',
    ]);
    assert.equal(res.body.results.issue[0].workspace__slug, ws.slug);
    assert.equal(typeof res.body.results.issue[0].sequence_id, 'number');
    const byName = await as(admin).get(`${w()}/search/`).query({ search: 'Alph' });
    assert.deepEqual(
      byName.body.results.project.map((p: { id: string }) => p.id),
      [alpha.id],
    );
    assert.deepEqual(Object.keys(byName.body.results.project[0]).sort(), [
      'id',
      'identifier',
      'name',
      'workspace__slug',
    ]);
    // the workspaces kind: the caller's, by name, whichever workspace is asked
    const wsHits = await as(admin).get(`${w()}/search/`).query({ search: 'Workspace' });
    assert.deepEqual(
      wsHits.body.results.workspace.map((x: { slug: string }) => x.slug).sort(),
      [foreign.slug, ws.slug].sort(),
    );
    const entity = await as(admin)
      .get(`${w()}/entity-search/`)
      .query({ query_type: 'issue,project,cycle,module,user_mention,page', query: 'login', count: 5 });
    assert.equal(entity.status, 200, JSON.stringify(entity.body));
    assert.deepEqual(Object.keys(entity.body), ['issue', 'project', 'cycle', 'module', 'user_mention', 'page']);
    assert.deepEqual(names(entity.body.issue), ['Guest login note', 'Secret login beta', 'Shared login alpha']);
    assert.deepEqual(names(entity.body.cycle), ['Login cycle']);
    assert.deepEqual(names(entity.body.module), ['Login module']);
    assert.deepEqual([entity.body.project, entity.body.page], [[], []]);
    assert.deepEqual(Object.keys(entity.body.cycle[0]).sort(), [
      'id',
      'name',
      'project__identifier',
      'project_id',
      'status',
      'workspace__slug',
    ]);
    // `%` and `_` are taken literally by every kind (workspaces, projects, cycles, modules, members too)
    for (const q of ['%', '_']) {
      const all = await as(admin).get(`${w()}/search/`).query({ search: q });
      assert.deepEqual(
        Object.values(all.body.results).map((rows) => (rows as unknown[]).length),
        [0, 0, 0, 0, 0, 0, 0],
        q,
      );
      const mention = await as(admin)
        .get(`${w()}/entity-search/`)
        .query({ query_type: 'user_mention,project,cycle,module', query: q });
      assert.deepEqual(mention.body, { user_mention: [], project: [], cycle: [], module: [] }, q);
    }
    // and a backslash too: a name with one is found by it
    await t.sql("UPDATE cycles SET name = 'Dir C:\\temp' WHERE name = 'Login cycle'");
    await t.sql("UPDATE projects SET name = 'Beta C:\\temp' WHERE id = $1", [beta.id]);
    const slash = await as(admin).get(`${w()}/search/`).query({ search: 'c:\\tem' });
    assert.deepEqual(names(slash.body.results.cycle), ['Dir C:\\temp']);
    assert.deepEqual(names(slash.body.results.project), ['Beta C:\\temp']);
    const slashed = await as(admin)
      .get(`${w()}/entity-search/`)
      .query({ query_type: 'project,cycle', query: 'C:\\temp' });
    assert.deepEqual([names(slashed.body.project), names(slashed.body.cycle)], [['Beta C:\\temp'], ['Dir C:\\temp']]);
  });
});
