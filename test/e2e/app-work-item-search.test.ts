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
 * The work item routes Plane 0.25.3's web app calls across a workspace: the entity search behind
 * the editor's mentions and the pickers (`entity-search/`, Plane's `SearchEndpoint`), the workspace
 * list (`issues/`, Plane's `WorkspaceViewIssuesViewSet`) with its filters and the Guest rule per
 * project, `issues-detail/`, recent visits of work items, and lists paged by number
 * (`<per_page>:<page>:0`, as the web app sends). Runs on both engines.
 */
describe('App API: entity search, the workspace work item list, visits and page numbers', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let guest: SignedUp;
  let outsider: SignedUp;
  let ws: { id: string; slug: string };
  let alpha: { id: string; identifier: string };
  let beta: { id: string; identifier: string };
  let secret: { id: string; identifier: string };
  let alphaStates: Record<string, string>;
  const w = () => `/api/workspaces/${ws.slug}`;
  const p = (pid: string) => `${w()}/projects/${pid}`;
  const as = (who: SignedUp) => ({
    get: (path: string) => t.api.get(path).auth(who.token, { type: 'bearer' }),
    post: (path: string, body?: object) =>
      t.api
        .post(path)
        .auth(who.token, { type: 'bearer' })
        .send(body ?? {}),
    patch: (path: string, body: object) => t.api.patch(path).auth(who.token, { type: 'bearer' }).send(body),
  });
  const create = async (pid: string, body: Record<string, unknown>, who = admin) => {
    const res = await as(who).post(`${p(pid)}/issues/`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number; name: string; [k: string]: unknown };
  };
  const ids = (rows: Array<{ id: string }>) => rows.map((r) => r.id).sort();

  let items: Record<string, { id: string; sequence_id: number; name: string }>;

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    member = await signUp(t);
    guest = await signUp(t);
    outsider = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    await addMember(t, ws.id, member.userId, 15);
    await addMember(t, ws.id, guest.userId, 5);
    await addMember(t, ws.id, outsider.userId, 15);
    const names: Array<[SignedUp, string, string, string]> = [
      [admin, 'Ada', 'Lovelace', 'ada'],
      [member, 'Grace', 'Hopper', 'grace'],
      [guest, 'Gus', 'Guest', 'gus'],
      [outsider, 'Otto', 'Outside', 'otto'],
    ];
    for (const [who, first, last, display] of names) {
      await t.sql('UPDATE users SET first_name = $2, last_name = $3, display_name = $4 WHERE id = $1', [
        who.userId,
        first,
        last,
        display,
      ]);
    }
    alpha = await createAppProject(t, admin.token, ws.slug, { identifier: 'ALPHA', name: 'Alpha' });
    beta = await createAppProject(t, admin.token, ws.slug, { identifier: 'BETA', name: 'Beta' });
    secret = await createAppProject(t, admin.token, ws.slug, { identifier: 'SEC', name: 'Secret', network: 0 });
    await addProjectMember(t, ws.id, alpha.id, member.userId, 15);
    await addProjectMember(t, ws.id, alpha.id, guest.userId, 5);
    await addProjectMember(t, ws.id, beta.id, member.userId, 15);
    await addProjectMember(t, ws.id, beta.id, guest.userId, 5);
    const rows = await t.sql<{ id: string; group: string }>('SELECT id, "group" FROM states WHERE project_id = $1', [
      alpha.id,
    ]);
    alphaStates = Object.fromEntries(rows.map((r) => [r.group, r.id]));
    items = {
      login: await create(alpha.id, { name: 'Login page crashes', priority: 'urgent', state_id: alphaStates.started }),
      logout: await create(alpha.id, {
        name: 'Logout button',
        priority: 'low',
        state_id: alphaStates.backlog,
        assignee_ids: [member.userId],
        target_date: '2030-05-01',
      }),
      export: await create(beta.id, { name: 'Export to CSV', priority: 'high' }, member),
      secret: await create(secret.id, { name: 'Secret login plan' }),
      filed: await create(alpha.id, { name: 'Filed by the guest', state_id: alphaStates.backlog }),
    };
    // the Guest's own work items, one in each project (the projects do not let Guests see all)
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = ANY($1::uuid[])', [
      [items.export.id, items.filed.id],
      guest.userId,
    ]);
  });
  after(() => t.close());

  describe('entity-search/', () => {
    it('answers a map keyed by each asked query_type, user mentions by default', async () => {
      const res = await as(member).get(`${w()}/entity-search/?query=`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(Object.keys(res.body), ['user_mention']);
      // every active workspace member, newest membership first, in Plane's keys
      assert.deepEqual(res.body.user_mention.map((u: { member__id: string }) => u.member__id).sort(), [
        ...[admin, member, guest, outsider].map((u) => u.userId).sort(),
      ]);
      assert.deepEqual(Object.keys(res.body.user_mention[0]).sort(), [
        'member__avatar_url',
        'member__display_name',
        'member__id',
      ]);
      const all = await as(member).get(
        `${w()}/entity-search/?query_type=user_mention,project,issue,cycle,module,page,view&query=&count=10`,
      );
      assert.equal(all.status, 200, JSON.stringify(all.body));
      // unknown kinds are left out, as Plane; pages do not exist: always empty
      assert.deepEqual(Object.keys(all.body).sort(), ['cycle', 'issue', 'module', 'page', 'project', 'user_mention']);
      assert.deepEqual(all.body.page, []);
    });

    it('user_mention: by first, last or display name; with project_id the project’s Admins and Members and the work item’s creator', async () => {
      const byName = await as(member).get(`${w()}/entity-search/?query_type=user_mention&query=HOPP`);
      assert.deepEqual(
        byName.body.user_mention.map((u: { member__id: string }) => u.member__id),
        [member.userId],
      );
      assert.equal(byName.body.user_mention[0].member__display_name, 'grace');
      const inProject = await as(member).get(`${w()}/entity-search/?query_type=user_mention&project_id=${alpha.id}`);
      assert.equal(inProject.status, 200, JSON.stringify(inProject.body));
      // the Guest and the non-member are not mentionable in the project
      assert.deepEqual(
        inProject.body.user_mention.map((u: { member__id: string }) => u.member__id).sort(),
        [admin.userId, member.userId].sort(),
      );
      // the creator of the work item being edited is, even as a Guest
      const withIssue = await as(member).get(
        `${w()}/entity-search/?query_type=user_mention&project_id=${alpha.id}&issue_id=${items.filed.id}`,
      );
      assert.ok(withIssue.body.user_mention.some((u: { member__id: string }) => u.member__id === guest.userId));
      // `count` caps each kind
      const one = await as(member).get(`${w()}/entity-search/?query_type=user_mention&count=1`);
      assert.equal(one.body.user_mention.length, 1);
      // the web app sends `project_id=` empty outside a project: the workspace
      const empty = await as(member).get(`${w()}/entity-search/?query_type=user_mention&project_id=&count=10`);
      assert.equal(empty.status, 200);
      assert.equal(empty.body.user_mention.length, 4);
    });

    it('project, issue, cycle, module: only what the caller can see, in Plane’s keys', async () => {
      const cycle = await as(admin).post(`${p(alpha.id)}/cycles/`, {
        name: 'Login sprint',
        start_date: '2020-01-01',
        end_date: '2099-01-01',
      });
      assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
      const mod = await as(admin).post(`${p(alpha.id)}/modules/`, { name: 'Login module' });
      assert.equal(mod.status, 201, JSON.stringify(mod.body));
      await as(admin).post(`${p(secret.id)}/cycles/`, { name: 'Login secret cycle' });
      const res = await as(member).get(`${w()}/entity-search/?query_type=project,issue,cycle,module&query=login`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // issues: name match in the caller's projects (the secret project's is not reached)
      assert.deepEqual(
        res.body.issue.map((i: { id: string }) => i.id),
        [items.login.id],
      );
      assert.deepEqual(Object.keys(res.body.issue[0]).sort(), [
        'id',
        'name',
        'priority',
        'project__identifier',
        'project_id',
        'sequence_id',
        'state_id',
        'type_id',
      ]);
      assert.equal(res.body.issue[0].project__identifier, 'ALPHA');
      assert.equal(res.body.issue[0].sequence_id, items.login.sequence_id);
      assert.deepEqual(res.body.cycle, [
        {
          name: 'Login sprint',
          id: cycle.body.id,
          project_id: alpha.id,
          project__identifier: 'ALPHA',
          status: 'CURRENT',
          workspace__slug: ws.slug,
        },
      ]);
      assert.equal(res.body.module.length, 1);
      assert.deepEqual(Object.keys(res.body.module[0]).sort(), [
        'id',
        'name',
        'project__identifier',
        'project_id',
        'status',
        'workspace__slug',
      ]);
      assert.equal(res.body.module[0].status, mod.body.status);
      assert.deepEqual(res.body.project, []);
      // projects: the caller's and the public ones, by name or identifier
      const projects = await as(member).get(`${w()}/entity-search/?query_type=project&query=a&count=10`);
      assert.deepEqual(ids(projects.body.project), [alpha.id, beta.id].sort());
      assert.deepEqual(Object.keys(projects.body.project[0]).sort(), [
        'id',
        'identifier',
        'logo_props',
        'name',
        'workspace__slug',
      ]);
      const byIdent = await as(admin).get(`${w()}/entity-search/?query_type=project&query=sec`);
      assert.deepEqual(ids(byIdent.body.project), [secret.id]);
      // a number in the query finds work items by sequence id
      const bySeq = await as(member).get(
        `${w()}/entity-search/?query_type=issue&query=${items.export.sequence_id}&project_id=${beta.id}`,
      );
      assert.deepEqual(ids(bySeq.body.issue), [items.export.id]);
    });

    it('applies the Guest rule to work items and keeps a Guest to their projects', async () => {
      const res = await as(guest).get(`${w()}/entity-search/?query_type=issue,project&query=&count=50`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      // the Guest's own work items only; not Alpha's others
      assert.deepEqual(ids(res.body.issue), [items.export.id, items.filed.id].sort());
      assert.ok(!res.body.issue.some((i: { id: string }) => i.id === items.login.id));
      assert.deepEqual(ids(res.body.project), [alpha.id, beta.id].sort());
      // a project that lets Guests see all
      await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [alpha.id]);
      const open = await as(guest).get(`${w()}/entity-search/?query_type=issue&query=login&project_id=${alpha.id}`);
      assert.deepEqual(ids(open.body.issue), [items.login.id]);
      await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [alpha.id]);
    });

    it('refuses a bad count or id, and a project the caller is not in', async () => {
      assertError(await as(member).get(`${w()}/entity-search/?count=abc`), 400, 'INVALID_QUERY_PARAMETER');
      assertError(await as(member).get(`${w()}/entity-search/?count=0`), 400, 'INVALID_QUERY_PARAMETER');
      assertError(await as(member).get(`${w()}/entity-search/?project_id=nope`), 400, 'INVALID_QUERY_PARAMETER');
      assertError(await as(member).get(`${w()}/entity-search/?project_id=${secret.id}`), 404, 'NOT_FOUND');
      assertError(
        await as(member).get(`${w()}/entity-search/?project_id=${alpha.id}&issue_id=${items.secret.id}`),
        404,
        'NOT_FOUND',
      );
      const stranger = await signUp(t);
      assertError(await as(stranger).get(`${w()}/entity-search/`), 404, 'WORKSPACE_NOT_FOUND');
    });
  });

  describe('GET /api/workspaces/{slug}/issues/', () => {
    it('lists the visible work items of the caller’s projects, newest first, in the App values', async () => {
      const res = await as(member).get(`${w()}/issues/`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const found = ids(res.body.results);
      assert.ok(found.includes(items.login.id) && found.includes(items.export.id));
      assert.ok(!found.includes(items.secret.id), 'a project the caller is not in');
      assert.equal(res.body.grouped_by, null);
      assert.ok('assignee_ids' in res.body.results[0] && 'state__group' in res.body.results[0]);
      // the workspace Admin in every project sees the secret one too
      assert.ok(ids((await as(admin).get(`${w()}/issues/?per_page=100`)).body.results).includes(items.secret.id));
      // a member of no project sees nothing
      const none = await as(outsider).get(`${w()}/issues/`);
      assert.equal(none.status, 200);
      assert.equal(none.body.total_results, 0);
    });

    it('filters through the one filter compiler: project, priority, assignees, state_group, dates, subscriber, type', async () => {
      const q = async (query: string) => {
        const res = await as(member).get(`${w()}/issues/?${query}`);
        assert.equal(res.status, 200, `${query}: ${JSON.stringify(res.body)}`);
        return ids(res.body.results);
      };
      assert.deepEqual(await q(`project=${beta.id}`), [items.export.id]);
      assert.deepEqual(await q('priority=urgent,high'), [items.login.id, items.export.id].sort());
      assert.deepEqual(await q(`assignees=${member.userId}`), [items.logout.id]);
      assert.deepEqual(await q('state_group=backlog&project=' + alpha.id), [items.logout.id, items.filed.id].sort());
      assert.deepEqual(await q('target_date=2030-04-01;after'), [items.logout.id]);
      assert.deepEqual(await q('type=active'), [items.login.id]);
      // subscribed: the creator and assignees follow a work item
      assert.deepEqual(await q(`subscriber=${member.userId}`), [items.logout.id, items.export.id].sort());
      assertError(await as(member).get(`${w()}/issues/?project=nope`), 400, 'INVALID_QUERY_PARAMETER');
      assertError(await as(member).get(`${w()}/issues/?type=soon`), 400, 'INVALID_QUERY_PARAMETER');
      assertError(await as(member).get(`${w()}/issues/?order_by=colour`), 400, 'INVALID_QUERY_PARAMETER');
      assertError(
        await as(member).get(`${w()}/issues/?group_by=priority&sub_group_by=priority`),
        400,
        'INVALID_QUERY_PARAMETER',
      );
      // sub-groups across the workspace: the caller's projects, then priorities
      const sub = await as(member).get(`${w()}/issues/?group_by=project_id&sub_group_by=priority&state_group=backlog`);
      assert.equal(sub.status, 200, JSON.stringify(sub.body));
      assert.equal(sub.body.sub_grouped_by, 'priority');
      const cells = Object.values(
        sub.body.results as Record<string, { results: Record<string, { results: Array<{ id: string }> }> }>,
      ).flatMap((g) => Object.values(g.results).flatMap((c) => c.results.map((r) => r.id)));
      assert.deepEqual(cells.sort(), await q('state_group=backlog'));
    });

    it('filters by mentions: the users mentioned in the description’s markup (Plane’s issue_mention)', async () => {
      // a workspace of its own: the work items here change no other test's lists
      const own = await createWorkspace(t, admin.token);
      await addMember(t, own.id, member.userId, 15);
      const proj = await createAppProject(t, admin.token, own.slug, { identifier: 'MEN', name: 'Mentions' });
      await addProjectMember(t, own.id, proj.id, member.userId, 15);
      const path = `/api/workspaces/${own.slug}`;
      const made = async (name: string, description_html: string) => {
        const res = await as(admin).post(`${path}/projects/${proj.id}/issues/`, { name, description_html });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        return res.body.id as string;
      };
      const tag = (attrs: string) => `<p>Hi <mention-component ${attrs}></mention-component> there</p>`;
      const mid = member.userId;
      const plain = await made('user mention', tag(`id="m1" entity_identifier="${mid}" entity_name="user_mention"`));
      const bare = await made(
        'no entity_name, single quotes, upper case',
        tag(`entity_identifier='${mid.toUpperCase()}'`),
      );
      await made('another kind of mention', tag(`entity_identifier="${mid}" entity_name="issue_mention"`));
      await made('the id as text only', `<p>${mid}</p>`);
      const other = await made('someone else', tag(`entity_identifier="${admin.userId}" entity_name="user_mention"`));
      await made('no description', '<p></p>');
      const list = async (url: string) => {
        const res = await as(member).get(url);
        assert.equal(res.status, 200, `${url}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.total_results, res.body.results.length, url);
        return ids(res.body.results);
      };
      for (const base of [`${path}/issues/`, `${path}/projects/${proj.id}/issues/`]) {
        assert.deepEqual(await list(`${base}?mentions=${mid}`), [plain, bare].sort(), base);
        assert.deepEqual(await list(`${base}?mentions=${mid},${admin.userId}`), [plain, bare, other].sort(), base);
        assert.deepEqual(await list(`${base}?mentions=${mid}&priority=urgent`), [], base);
        assert.equal((await list(base)).length, 6, base);
        assertError(await as(member).get(`${base}?mentions=nope`), 400, 'INVALID_QUERY_PARAMETER');
      }
      // grouped: the groups hold only the mentioning work items
      const grouped = await as(member).get(`${path}/projects/${proj.id}/issues/?mentions=${mid}&group_by=priority`);
      assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
      assert.equal(grouped.body.total_count, 2);
      // a changed description changes the answer at once
      const res = await as(admin).patch(`${path}/projects/${proj.id}/issues/${plain}/`, {
        description_html: '<p>gone</p>',
      });
      assert.equal(res.status, 204, JSON.stringify(res.body));
      assert.deepEqual(await list(`${path}/issues/?mentions=${mid}`), [bare]);
    });

    it('applies each project’s Guest rule to a Guest', async () => {
      const res = await as(guest).get(`${w()}/issues/`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
      assert.deepEqual(ids(res.body.results), [items.export.id, items.filed.id].sort());
      await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [alpha.id]);
      const open = ids((await as(guest).get(`${w()}/issues/?per_page=100`)).body.results);
      assert.ok(open.includes(items.login.id) && open.includes(items.export.id));
      await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [alpha.id]);
    });

    it('groups as the project list, project_id too, and pages by number as the web app asks', async () => {
      const byProject = await as(member).get(`${w()}/issues/?group_by=project_id&cursor=100:0:0&per_page=100`);
      assert.equal(byProject.status, 200, JSON.stringify(byProject.body));
      assert.equal(byProject.body.grouped_by, 'project_id');
      assert.deepEqual(Object.keys(byProject.body.results).sort(), [alpha.id, beta.id].sort());
      assert.deepEqual(ids(byProject.body.results[beta.id].results), [items.export.id]);
      const byPriority = await as(member).get(`${w()}/issues/?group_by=priority`);
      assert.deepEqual(Object.keys(byPriority.body.results), ['urgent', 'high', 'medium', 'low', 'none']);
      // pages: <per_page>:<n>:0
      const first = await as(member).get(`${w()}/issues/?per_page=1&cursor=1:0:0&order_by=sequence_id`);
      assert.equal(first.status, 200, JSON.stringify(first.body));
      assert.equal(first.body.results.length, 1);
      assert.equal(first.body.next_cursor, '1:1:0');
      assert.equal(first.body.prev_cursor, null);
      const second = await as(member).get(`${w()}/issues/?per_page=1&cursor=1:1:0&order_by=sequence_id`);
      assert.equal(second.body.results.length, 1);
      assert.notEqual(second.body.results[0].id, first.body.results[0].id);
      assert.equal(second.body.prev_cursor, '1:0:1');
    });
  });

  describe('lists paged by number (Plane’s web app: `<per_page>:<page>:0`)', () => {
    let board: { id: string };
    const made: string[] = [];
    before(async () => {
      board = await createAppProject(t, admin.token, ws.slug, { identifier: 'PAGE', name: 'Pages' });
      for (let n = 0; n < 5; n++) made.push((await create(board.id, { name: `Item ${n}`, priority: 'medium' })).id);
    });

    it('the project list: page n of an ungrouped list is rows n×per_page on, with Plane’s cursors', async () => {
      const walk: string[] = [];
      for (let n = 0; n < 3; n++) {
        const res = await as(admin).get(`${p(board.id)}/issues/?per_page=2&cursor=2:${n}:0`);
        assert.equal(res.status, 200, JSON.stringify(res.body));
        walk.push(...res.body.results.map((r: { id: string }) => r.id));
        assert.equal(res.body.next_cursor, n < 2 ? `2:${n + 1}:0` : null);
        assert.equal(res.body.prev_cursor, n > 0 ? `2:${n - 1}:1` : null);
        assert.equal(res.body.total_pages, 3);
      }
      // newest first, each once
      assert.deepEqual(walk, [...made].reverse());
      // past the end: empty
      const past = await as(admin).get(`${p(board.id)}/issues/?per_page=2&cursor=2:9:0`);
      assert.equal(past.status, 200);
      assert.deepEqual(past.body.results, []);
      // no cursor: page 0, answered with a page cursor the walk goes on with
      const plain = await as(admin).get(`${p(board.id)}/issues/?per_page=2`);
      assert.equal(plain.body.next_cursor, '2:1:0');
    });

    it('a group’s next page: the web app drops group_by and filters by the group (`100:1:0`)', async () => {
      const grouped = await as(admin).get(`${p(board.id)}/issues/?group_by=priority&per_page=2&cursor=2:0:0`);
      assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
      const medium = grouped.body.results.medium;
      assert.equal(medium.total_results, 5);
      assert.equal(medium.results.length, 2);
      assert.equal(medium.next_cursor, '2:1:0');
      assert.equal(grouped.body.next_cursor, '2:1:0');
      assert.equal(grouped.body.total_pages, 3);
      // the store's getNextCursor: `${perPage}:${floor(loaded / perPage)}:0`, with the group's filter
      const next = await as(admin).get(`${p(board.id)}/issues/?priority=medium&per_page=2&cursor=2:1:0`);
      assert.equal(next.status, 200, JSON.stringify(next.body));
      assert.deepEqual(
        next.body.results.map((r: { id: string }) => r.id),
        [...made].reverse().slice(2, 4),
      );
      // page 1 of every group at once (GroupedOffsetPaginator)
      const page1 = await as(admin).get(`${p(board.id)}/issues/?group_by=priority&per_page=2&cursor=2:1:0`);
      assert.deepEqual(
        page1.body.results.medium.results.map((r: { id: string }) => r.id),
        [...made].reverse().slice(2, 4),
      );
      assert.deepEqual(page1.body.results.urgent.results, []);
    });

    it('cycle and module work items page by number too', async () => {
      const cycle = await as(admin).post(`${p(board.id)}/cycles/`, { name: 'Paged' });
      assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
      const added = await as(admin).post(`${p(board.id)}/cycles/${cycle.body.id}/cycle-issues/`, { issues: made });
      assert.equal(added.status, 200, JSON.stringify(added.body));
      const mod = await as(admin).post(`${p(board.id)}/modules/`, { name: 'Paged' });
      await as(admin).post(`${p(board.id)}/modules/${mod.body.id}/issues/`, { issues: made });
      for (const path of [`cycles/${cycle.body.id}/cycle-issues`, `modules/${mod.body.id}/issues`]) {
        const walk: string[] = [];
        for (let n = 0; n < 3; n++) {
          const res = await as(admin).get(`${p(board.id)}/${path}/?per_page=2&cursor=2:${n}:0`);
          assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
          walk.push(...res.body.results.map((r: { id: string }) => r.id));
        }
        assert.deepEqual(walk.sort(), [...made].sort(), path);
      }
    });

    it('keeps reading a keyset cursor from elsewhere, and refuses a malformed one', async () => {
      assertError(await as(admin).get(`${p(board.id)}/issues/?cursor=abc`), 400, 'INVALID_CURSOR');
      const res = await as(admin).get(`${p(board.id)}/issues/?per_page=2&cursor=1000000000000000:1:0`);
      assert.equal(res.status, 200, JSON.stringify(res.body));
    });
  });

  describe('issues-detail/', () => {
    it('pages the project’s work items in the App values, with their relations on request', async () => {
      const rel = await as(admin).post(`${p(alpha.id)}/issues/${items.login.id}/issue-relation/`, {
        relation_type: 'blocked_by',
        issues: [items.logout.id],
      });
      assert.equal(rel.status, 201, JSON.stringify(rel.body));
      const res = await as(member).get(
        `${p(alpha.id)}/issues-detail/?expand=issue_relation,issue_related&per_page=100&cursor=100:0:0`,
      );
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const byId = new Map(res.body.results.map((r: { id: string }) => [r.id, r]));
      const login = byId.get(items.login.id) as Record<string, unknown>;
      assert.ok('assignee_ids' in login);
      assert.deepEqual(login.issue_relation, [
        {
          id: items.logout.id,
          project_id: alpha.id,
          sequence_id: items.logout.sequence_id,
          relation_type: 'blocked_by',
          name: 'Logout button',
          state_id: alphaStates.backlog,
          priority: 'low',
        },
      ]);
      assert.deepEqual(login.issue_related, []);
      const logout = byId.get(items.logout.id) as Record<string, unknown>;
      assert.deepEqual(
        (logout.issue_related as Array<{ id: string; relation_type: string }>).map((r) => [r.id, r.relation_type]),
        [[items.login.id, 'blocked_by']],
      );
      // without expand: the App values only
      const plain = await as(member).get(`${p(alpha.id)}/issues-detail/`);
      assert.ok(!('issue_relation' in plain.body.results[0]));
      // the Guest rule
      const guestView = await as(guest).get(`${p(alpha.id)}/issues-detail/`);
      assert.equal(guestView.status, 200);
      assert.ok(!guestView.body.results.some((r: { id: string }) => r.id === items.login.id));
      assertError(await as(outsider).get(`${p(alpha.id)}/issues-detail/`), 403, 'PERMISSION_DENIED');
      assertError(await as(member).get(`${p(secret.id)}/issues-detail/`), 404, 'PROJECT_NOT_FOUND');
    });
  });

  describe('recent visits', () => {
    it('records a work item opened by id or by key, shown in recent-visits/ as Plane’s home does', async () => {
      const viewer = await signUp(t);
      await addMember(t, ws.id, viewer.userId, 15);
      await addProjectMember(t, ws.id, alpha.id, viewer.userId, 15);
      assert.equal((await as(viewer).get(`${p(alpha.id)}/issues/${items.login.id}/`)).status, 200);
      assert.equal((await as(viewer).get(`${w()}/work-items/ALPHA-${items.logout.sequence_id}/`)).status, 200);
      const visits = await as(viewer).get(`${w()}/recent-visits/?entity_name=issue`);
      assert.equal(visits.status, 200, JSON.stringify(visits.body));
      assert.deepEqual(
        visits.body.map((v: { entity_identifier: string }) => v.entity_identifier),
        [items.logout.id, items.login.id],
      );
      const [latest] = visits.body;
      assert.equal(latest.entity_name, 'issue');
      assert.equal(latest.entity_data.name, 'Logout button');
      assert.equal(latest.entity_data.project_identifier, 'ALPHA');
      // opening it again moves it to the top, once
      await as(viewer).get(`${p(alpha.id)}/issues/${items.login.id}/`);
      const again = await as(viewer).get(`${w()}/recent-visits/?entity_name=issue`);
      assert.deepEqual(
        again.body.map((v: { entity_identifier: string }) => v.entity_identifier),
        [items.login.id, items.logout.id],
      );
      // a work item the caller may not see is not recorded (404 before the visit)
      const g = await as(guest).get(`${p(alpha.id)}/issues/${items.login.id}/`);
      assert.equal(g.status, 404);
      assert.deepEqual((await as(guest).get(`${w()}/recent-visits/?entity_name=issue`)).body, []);
    });
  });
});
