import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  createApiKey,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Work item lists paged by number (`<per_page>:<page>:0`, as Plane's web app asks) read a deep page
 * from its start key (docs/decisions.md "Deep pages by number from their start key"), and a grouped
 * list counts its groups in one statement: the answers must be the ones an offset read and a count
 * per group give. Every page of a walk is compared with the same rows of the list read as one page,
 * in every order, on the workspace list (an Admin, a Member of some projects, a Guest under the
 * Guest rule), a project's list and the archived list; each group's `total_results` with the
 * group's work items counted from the list's own values. Ties of every key are made on purpose
 * (same `created_at`, `sort_order`, priority), so the order between them is the id's. A list in
 * creation order of one assignee or one label (a filter or a group) is read from that value's rows
 * (`issue_created_at`, kept by triggers): compared with the list's own rows before and after the
 * writes that change them. Runs on both engines.
 */
describe('Lists paged by number and grouped lists: the same answers as offsets and counts', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let guest: SignedUp;
  let ws: { id: string; slug: string };
  let alpha: { id: string };
  let beta: { id: string };
  let gamma: { id: string };
  /** each project's labels (Bug, Feature, Chore), by project id */
  const labelsOf: Record<string, string[]> = {};
  const w = () => `/api/workspaces/${ws.slug}`;
  const p = (pid: string) => `${w()}/projects/${pid}`;
  const get = async (who: SignedUp, path: string) => {
    const res = await t.api.get(path).auth(who.token, { type: 'bearer' });
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const post = async (who: SignedUp, path: string, body: object, status = 201) => {
    const res = await t.api.post(path).auth(who.token, { type: 'bearer' }).send(body);
    assert.equal(res.status, status, `${path}: ${JSON.stringify(res.body)}`);
    return res.body;
  };
  type Row = Record<string, unknown> & { id: string };
  const ORDERS = [
    '-created_at',
    'created_at',
    'priority',
    '-priority',
    'sort_order',
    '-sort_order',
    'sequence_id',
    '-updated_at',
    'target_date',
    '-state__group',
    'completed_at',
  ];

  before(async () => {
    t = await startTestApp();
    admin = await signUp(t);
    member = await signUp(t);
    guest = await signUp(t);
    ws = await createWorkspace(t, admin.token);
    await addMember(t, ws.id, member.userId, 15);
    await addMember(t, ws.id, guest.userId, 5);
    alpha = await createAppProject(t, admin.token, ws.slug, { identifier: 'ALPHA', name: 'Alpha' });
    beta = await createAppProject(t, admin.token, ws.slug, { identifier: 'BETA', name: 'Beta' });
    gamma = await createAppProject(t, admin.token, ws.slug, { identifier: 'GAMMA', name: 'Gamma' });
    await addProjectMember(t, ws.id, alpha.id, member.userId, 15);
    await addProjectMember(t, ws.id, beta.id, member.userId, 15);
    await addProjectMember(t, ws.id, alpha.id, guest.userId, 5);
    await addProjectMember(t, ws.id, beta.id, guest.userId, 5);
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [beta.id]);
    const priorities = ['urgent', 'high', 'medium', 'low', 'none'];
    const made: string[] = [];
    for (const project of [alpha, beta, gamma]) {
      const states = await t.sql<{ id: string }>(
        'SELECT id FROM states WHERE project_id = $1 AND is_triage = false ORDER BY sequence',
        [project.id],
      );
      const labels: string[] = [];
      for (const name of ['Bug', 'Feature', 'Chore'])
        labels.push((await post(admin, `${p(project.id)}/issue-labels/`, { name })).id);
      labelsOf[project.id] = labels;
      const cycle = await post(admin, `${p(project.id)}/cycles/`, { name: 'Cycle' });
      const module = await post(admin, `${p(project.id)}/modules/`, { name: 'Module' });
      const people = project === gamma ? [admin.userId] : [admin.userId, member.userId, guest.userId];
      const inProject: string[] = [];
      for (let n = 0; n < 11; n++) {
        const item = await post(admin, `${p(project.id)}/issues/`, {
          name: `Item ${n}`,
          priority: priorities[n % 5],
          state_id: states[n % states.length].id,
          assignee_ids: n % 4 === 0 ? [] : people.slice(0, 1 + (n % people.length)),
          label_ids: n % 3 === 0 ? [] : labels.slice(n % 3),
          ...(n % 3 === 1 ? { target_date: `2031-0${1 + (n % 4)}-15` } : {}),
        });
        inProject.push(item.id);
      }
      await post(admin, `${p(project.id)}/cycles/${cycle.id}/cycle-issues/`, { issues: inProject.slice(0, 4) }, 200);
      await post(admin, `${p(project.id)}/modules/${module.id}/issues/`, { issues: inProject.slice(3, 8) }, 200);
      made.push(...inProject);
    }
    // ties of every key: created_at, sort_order, updated_at; some by the Guest; some archived
    await t.sql(
      'UPDATE issues SET created_at = (SELECT created_at FROM issues WHERE id = $1), sort_order = 5000 WHERE id = ANY($2::uuid[])',
      [made[4], made.filter((_, n) => n % 4 === 1)],
    );
    await t.sql(
      'UPDATE issues SET updated_at = (SELECT updated_at FROM issues WHERE id = $1) WHERE id = ANY($2::uuid[])',
      [made[7], made.filter((_, n) => n % 5 === 2)],
    );
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = ANY($1::uuid[])', [
      made.filter((_, n) => n % 6 === 0),
      guest.userId,
    ]);
    await t.sql(`UPDATE issues SET archived_at = now()::date WHERE id = ANY($1::uuid[])`, [
      made.filter((_, n) => n % 7 === 3),
    ]);
  });
  after(() => t.close());

  /** Each grouping's keys of a work item of the App list (`None`: null). */
  const value: Record<string, (r: Row) => Array<string | null>> = {
    state_id: (r) => [r.state_id as string],
    state__group: (r) => [r.state__group as string],
    priority: (r) => [r.priority as string],
    project_id: (r) => [r.project_id as string],
    created_by: (r) => [r.created_by as string],
    target_date: (r) => [(r.target_date as string | null) ?? null],
    assignees__id: (r) => ((r.assignee_ids as string[]).length ? (r.assignee_ids as string[]) : [null]),
    labels__id: (r) => ((r.label_ids as string[]).length ? (r.label_ids as string[]) : [null]),
    cycle_id: (r) => [(r.cycle_id as string | null) ?? null],
    issue_module__module_id: (r) => ((r.module_ids as string[]).length ? (r.module_ids as string[]) : [null]),
  };

  /** Every page of `per` by number, compared with the list read as one page; the walk's rows. */
  const walk = async (who: SignedUp, base: string, order: string, per: number): Promise<Row[]> => {
    const whole = await get(who, `${base}order_by=${order}&per_page=1000&cursor=1000:0:0`);
    const all = whole.results as Row[];
    const pages = Math.ceil(all.length / per);
    for (let n = 0; n <= pages; n++) {
      const page = await get(who, `${base}order_by=${order}&per_page=${per}&cursor=${per}:${n}:0`);
      const what = `${base}order_by=${order}, page ${n}`;
      assert.deepEqual(page.results, all.slice(n * per, (n + 1) * per), what);
      assert.equal(page.total_results, whole.total_results, what);
      assert.equal(page.next_cursor, (n + 1) * per < all.length ? `${per}:${n + 1}:0` : null, what);
      assert.equal(page.prev_cursor, n > 0 ? `${per}:${n - 1}:1` : null, what);
    }
    return all;
  };

  it('the workspace list: every page equals the rows the offset gives, in every order, for each caller', async () => {
    for (const who of [admin, member, guest]) {
      for (const order of ORDERS) {
        const all = await walk(who, `${w()}/issues/?`, order, 4);
        assert.ok(all.length > 8, `${order}: ${all.length} rows`);
      }
    }
    // the newest first, ties by id: as the database orders them
    const expected = await t.sql<{ id: string }>(
      `SELECT i.id FROM issues i JOIN projects p ON p.id = i.project_id WHERE i.workspace_id = $1
       AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false ORDER BY i.created_at DESC, i.id DESC`,
      [ws.id],
    );
    const rows = await walk(admin, `${w()}/issues/?`, '-created_at', 5);
    assert.deepEqual(
      rows.map((r) => r.id),
      expected.map((r) => r.id),
    );
    // with filters
    await walk(member, `${w()}/issues/?priority=urgent,high,low&`, '-created_at', 2);
    await walk(guest, `${w()}/issues/?state_group=backlog,unstarted,started&`, 'sort_order', 2);
  });

  it("an assignee's group read from the assignee's rows in creation order: the group's own rows, both ways", async () => {
    // the copy of each work item's created_at on its assignee rows follows the ties made above
    const [copies] = await t.sql<{ n: number; stale: number }>(
      `SELECT COUNT(*)::int AS n, COUNT(*) FILTER (WHERE ga.issue_created_at <> i.created_at)::int AS stale
       FROM issue_assignees ga JOIN issues i ON i.id = ga.issue_id WHERE i.workspace_id = $1`,
      [ws.id],
    );
    assert.ok(copies.n > 20, `${copies.n} assignee rows`);
    assert.equal(copies.stale, 0);
    for (const who of [admin, member, guest]) {
      for (const order of ['created_at', '-created_at']) {
        const all = await walk(who, `${w()}/issues/?`, order, 1000);
        for (const page of [0, 1, 2]) {
          const grouped = await get(
            who,
            `${w()}/issues/?group_by=assignees__id&order_by=${order}&per_page=2&cursor=2:${page}:0`,
          );
          for (const [key, group] of Object.entries(grouped.results as Record<string, { results: Row[] }>)) {
            const mine = all.filter((r) =>
              key === 'None' ? !(r.assignee_ids as string[]).length : (r.assignee_ids as string[]).includes(key),
            );
            assert.deepEqual(
              group.results.map((r) => r.id),
              mine.slice(page * 2, page * 2 + 2).map((r) => r.id),
              `${order}, ${key}, page ${page}`,
            );
          }
        }
      }
    }
  });

  it("the labels filter: a label's work items through its project, the same rows as the list's own", async () => {
    const [alphaFeature, betaChore] = [labelsOf[alpha.id][1], labelsOf[beta.id][2]];
    for (const who of [admin, member, guest]) {
      const all = await walk(who, `${w()}/issues/?`, '-created_at', 1000);
      for (const labels of [[alphaFeature], [betaChore], [alphaFeature, betaChore]]) {
        for (const order of ['-created_at', 'priority', 'sort_order']) {
          const rows = await walk(who, `${w()}/issues/?labels=${labels.join(',')}&`, order, 2);
          const expected = all.filter((r) => (r.label_ids as string[]).some((l) => labels.includes(l)));
          assert.deepEqual(
            rows.map((r) => r.id).sort(),
            expected.map((r) => r.id).sort(),
            `labels=${labels.join(',')}, ${order}`,
          );
          if (who === admin) assert.ok(expected.length > 2, `labels=${labels.join(',')}: ${expected.length} rows`);
        }
      }
    }
    // a project's list with another project's label: none
    const none = await get(admin, `${p(alpha.id)}/issues/?labels=${betaChore}&per_page=100&cursor=100:0:0`);
    assert.deepEqual(none.results, []);
    assert.equal(none.total_results, 0);
  });

  it("a project's list and its archived list: the same, through the plain SQL paginator", async () => {
    for (const order of ORDERS) {
      await walk(admin, `${p(alpha.id)}/issues/?`, order, 3);
      await walk(guest, `${p(alpha.id)}/issues/?`, order, 2);
    }
    await walk(admin, `${p(beta.id)}/issues/?priority=urgent,medium&`, 'priority', 2);
    await walk(admin, `${p(alpha.id)}/archived-issues/?`, '-created_at', 1);
  });

  it('a grouped list: each group’s total is its work items, counted in one statement for all groups', async () => {
    const lists: Array<[SignedUp, string]> = [
      [admin, `${w()}/issues/?`],
      [member, `${w()}/issues/?priority=urgent,high,medium&`],
      [guest, `${w()}/issues/?`],
      [admin, `${p(alpha.id)}/issues/?`],
      [guest, `${p(alpha.id)}/issues/?`],
    ];
    for (const [who, base] of lists) {
      const all = (await get(who, `${base}per_page=1000&cursor=1000:0:0`)).results as Row[];
      for (const [by, of] of Object.entries(value)) {
        if (by === 'project_id' && base.includes('/projects/')) continue;
        const grouped = await get(who, `${base}group_by=${by}&per_page=2&cursor=2:0:0`);
        const what = `${base}group_by=${by}`;
        const counted = new Map<string, number>();
        for (const r of all) for (const k of of(r)) counted.set(k ?? 'None', (counted.get(k ?? 'None') ?? 0) + 1);
        for (const [key, group] of Object.entries(grouped.results as Record<string, { total_results: number }>))
          assert.equal(group.total_results, counted.get(key) ?? 0, `${what}: ${key}`);
        assert.equal(grouped.total_results, all.length, what);
        // and each group's next page by number: the group's own list's
        for (const [key, group] of Object.entries(grouped.results as Record<string, { results: Row[] }>)) {
          const mine = all.filter((r) => of(r).includes(key === 'None' ? null : key));
          assert.deepEqual(
            group.results.map((r) => r.id),
            mine.slice(0, 2).map((r) => r.id),
            `${what}: ${key}, first page`,
          );
        }
        // page 1 of every group, past the end of the small ones (answered without a read: the same envelope)
        const second = await get(who, `${base}group_by=${by}&per_page=2&cursor=2:1:0`);
        type Group = { results: Row[]; total_results: number; next_cursor: string | null; prev_cursor: string | null };
        for (const [key, group] of Object.entries(second.results as Record<string, Group>)) {
          const mine = all.filter((r) => of(r).includes(key === 'None' ? null : key));
          assert.deepEqual(
            group.results.map((r) => r.id),
            mine.slice(2, 4).map((r) => r.id),
            `${what}: ${key}, second page`,
          );
          assert.equal(group.total_results, mine.length, `${what}: ${key}, second page`);
          assert.equal(group.next_cursor, mine.length > 4 ? '2:2:0' : null, `${what}: ${key}, second page`);
          assert.equal(group.prev_cursor, '2:0:1', `${what}: ${key}, second page`);
        }
      }
    }
  });

  it("a grouped list's pages by number, every group's in one statement: each group's rows of the whole list, at every depth, with filters", async () => {
    // every group's page of a grouping, read together (`groupPages`), against the list read whole
    // and split by the group's value in the page's order: every row's full App values, each
    // group's total and cursors, at every page number up to past the largest group's end
    const alphaFeature = labelsOf[alpha.id][1];
    const lists: Array<[SignedUp, string, string[]]> = [
      [admin, `${w()}/issues/?`, ['-created_at', 'created_at', 'sort_order', 'priority', '-updated_at']],
      [guest, `${w()}/issues/?`, ['-created_at', 'sort_order']],
      [member, `${w()}/issues/?priority=urgent,high,medium&state_group=backlog,unstarted,started&`, ['-created_at']],
      [admin, `${w()}/issues/?assignees=${member.userId}&`, ['-created_at', 'target_date']],
      [admin, `${w()}/issues/?labels=${alphaFeature}&`, ['created_at']],
      [admin, `${p(alpha.id)}/issues/?`, ['-created_at', 'sort_order']],
    ];
    const per = 2;
    for (const [who, base, orders] of lists) {
      for (const order of orders) {
        const all = (await get(who, `${base}order_by=${order}&per_page=1000&cursor=1000:0:0`)).results as Row[];
        for (const [by, of] of Object.entries(value)) {
          if (by === 'project_id' && base.includes('/projects/')) continue;
          const mine = (key: string) => all.filter((r) => of(r).includes(key === 'None' ? null : key));
          const largest = Math.max(...all.map((r) => of(r).map((k) => mine(k ?? 'None').length)).flat(), 0);
          for (let n = 0; n <= Math.ceil(largest / per); n++) {
            const what = `${base}group_by=${by}&order_by=${order}, page ${n}`;
            const grouped = await get(
              who,
              `${base}group_by=${by}&order_by=${order}&per_page=${per}&cursor=${per}:${n}:0`,
            );
            type Group = {
              results: Row[];
              total_results: number;
              next_cursor: string | null;
              prev_cursor: string | null;
            };
            const groups = grouped.results as Record<string, Group>;
            assert.ok(Object.keys(groups).length > 0, what);
            for (const [key, group] of Object.entries(groups)) {
              const theirs = mine(key);
              assert.deepEqual(group.results, theirs.slice(n * per, (n + 1) * per), `${what}: ${key}`);
              assert.equal(group.total_results, theirs.length, `${what}: ${key}`);
              assert.equal(
                group.next_cursor,
                theirs.length > (n + 1) * per ? `${per}:${n + 1}:0` : null,
                `${what}: ${key}`,
              );
              assert.equal(group.prev_cursor, n > 0 ? `${per}:${n - 1}:1` : null, `${what}: ${key}`);
            }
            assert.equal(grouped.total_results, all.length, what);
            assert.equal(
              grouped.count,
              Object.values(groups).reduce((a, g) => a + g.results.length, 0),
              what,
            );
          }
        }
      }
    }
  });

  it("one assignee's or one label's work items in creation order, read from the value's rows: the list's own, after writes", async () => {
    const [alphaBug, alphaFeature, alphaChore] = labelsOf[alpha.id];
    const betaChore = labelsOf[beta.id][2];
    const key = await createApiKey(t, admin.token, ws.slug);
    const v1 = (pid: string, q: string) => `/api/v1/workspaces/${ws.slug}/projects/${pid}/work-items/?${q}`;
    const v1Get = async (path: string) => {
      const res = await t.api.get(path).set('X-API-Key', key);
      assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      return res.body;
    };
    const has = (field: string, value: string) => (r: Row) => (r[field] as string[]).includes(value);
    const check = async (when: string) => {
      // the copies on the link rows are the work items' created_at
      for (const table of ['issue_assignees', 'issue_labels']) {
        const [copies] = await t.sql<{ n: number; stale: number }>(
          `SELECT COUNT(*)::int AS n, COUNT(*) FILTER (WHERE ga.issue_created_at <> i.created_at)::int AS stale
           FROM ${table} ga JOIN issues i ON i.id = ga.issue_id WHERE i.workspace_id = $1`,
          [ws.id],
        );
        assert.ok(copies.n > 20, `${when}: ${copies.n} rows of ${table}`);
        assert.equal(copies.stale, 0, `${when}: ${table}`);
      }
      const filters: Array<[string, string, string]> = [
        ['assignees', 'assignee_ids', admin.userId],
        ['assignees', 'assignee_ids', member.userId],
        ['labels', 'label_ids', alphaFeature],
        ['labels', 'label_ids', betaChore],
      ];
      for (const who of [admin, member, guest]) {
        for (const order of ['-created_at', 'created_at']) {
          const all = await walk(who, `${w()}/issues/?`, order, 1000);
          for (const [param, field, value] of filters) {
            const what = `${when}: ${param}=${value}, ${order}`;
            const expected = all.filter(has(field, value));
            // the same rows, values and order as the whole list's, on every page (`walk`)
            assert.deepEqual(await walk(who, `${w()}/issues/?${param}=${value}&`, order, 2), expected, what);
            // with another filter, and in a project's list
            const urgent = await walk(who, `${w()}/issues/?${param}=${value}&priority=urgent,high,none&`, order, 2);
            const high = (r: Row) => ['urgent', 'high', 'none'].includes(r.priority as string);
            assert.deepEqual(urgent, expected.filter(high), `${what}, priority`);
            const mine = await walk(who, `${p(alpha.id)}/issues/?${param}=${value}&`, order, 3);
            assert.deepEqual(
              mine,
              expected.filter((r) => r.project_id === alpha.id),
              `${what}, project`,
            );
            if (who === admin) assert.ok(expected.length > 2, `${what}: ${expected.length} rows`);
          }
          // a grouping by labels in creation order: each label's group from its rows, pages 0–2
          for (const page of [0, 1, 2]) {
            const grouped = await get(
              who,
              `${w()}/issues/?group_by=labels__id&order_by=${order}&per_page=2&cursor=2:${page}:0`,
            );
            for (const [label, group] of Object.entries(grouped.results as Record<string, { results: Row[] }>)) {
              const theirs = all.filter((r) =>
                label === 'None' ? !(r.label_ids as string[]).length : (r.label_ids as string[]).includes(label),
              );
              assert.deepEqual(
                group.results,
                theirs.slice(page * 2, page * 2 + 2),
                `${when}: ${order}, ${label}, ${page}`,
              );
            }
          }
          // a grouping by state filtered by one assignee: each state's page from the assignee's rows
          const byState = await get(
            who,
            `${w()}/issues/?group_by=state_id&assignees=${member.userId}&order_by=${order}&per_page=2&cursor=2:1:0`,
          );
          for (const [state, group] of Object.entries(byState.results as Record<string, { results: Row[] }>)) {
            const theirs = all.filter((r) => r.state_id === state && has('assignee_ids', member.userId)(r));
            assert.deepEqual(group.results, theirs.slice(2, 4), `${when}: ${order}, state ${state}`);
          }
        }
      }
      // v1's keyset cursors over the label's rows, both orders: forward to the end, then back
      for (const order of ['-created_at', 'created_at']) {
        const whole = (await v1Get(v1(alpha.id, `order_by=${order}&per_page=100`))).results as Row[];
        for (const q of [`label=${alphaChore}`, `assignee=${admin.userId}`]) {
          const [field, value] = q.startsWith('label') ? ['labels', alphaChore] : ['assignees', admin.userId];
          const expected = whole.filter((r) => (r[field] as string[]).includes(value)).map((r) => r.id);
          const seen: string[] = [];
          const pages: Array<{ ids: string[]; prev: string | null }> = [];
          let cursor: string | null = null;
          do {
            const page = await v1Get(
              v1(alpha.id, `${q}&order_by=${order}&per_page=1${cursor ? `&cursor=${cursor}` : ''}`),
            );
            const ids = (page.results as Row[]).map((r) => r.id);
            seen.push(...ids);
            pages.push({ ids, prev: page.prev_cursor });
            assert.equal(page.total_results, expected.length, `${when}: v1 ${q}, ${order}`);
            cursor = page.next_cursor;
          } while (cursor);
          assert.deepEqual(seen, expected, `${when}: v1 ${q}, ${order}`);
          assert.ok(pages.length > 2, `${when}: v1 ${q}: ${pages.length} pages`);
          const back = await v1Get(v1(alpha.id, `${q}&order_by=${order}&per_page=1&cursor=${pages[2].prev}`));
          assert.deepEqual(
            (back.results as Row[]).map((r) => r.id),
            pages[1].ids,
            `${when}: v1 ${q}, ${order}, back`,
          );
        }
      }
    };
    await check('before the writes');
    // writes that change assignees and labels, and what the copies follow
    const patch = async (pid: string, id: string, body: object) => {
      const res = await t.api
        .patch(`${p(pid)}/issues/${id}/`)
        .auth(admin.token, { type: 'bearer' })
        .send(body);
      assert.equal(res.status, 204, JSON.stringify(res.body));
    };
    const ofAlpha = await t.sql<{ id: string }>(
      'SELECT id FROM issues WHERE project_id = $1 AND deleted_at IS NULL AND archived_at IS NULL ORDER BY sequence_id',
      [alpha.id],
    );
    await patch(alpha.id, ofAlpha[0].id, { assignee_ids: [member.userId], label_ids: [alphaFeature, alphaBug] });
    await patch(alpha.id, ofAlpha[1].id, { assignee_ids: [], label_ids: [] });
    await patch(alpha.id, ofAlpha[2].id, { assignee_ids: [admin.userId, member.userId], label_ids: [alphaBug] });
    for (let n = 0; n < 3; n++) {
      await post(admin, `${p(alpha.id)}/issues/`, {
        name: `Later ${n}`,
        assignee_ids: [admin.userId, member.userId].slice(n % 2),
        label_ids: [alphaFeature, alphaBug].slice(n % 2),
      });
    }
    // a work item made the oldest and another the newest (an import, a fix by hand): the copies follow
    await t.sql(`UPDATE issues SET created_at = '2020-01-01T00:00:00Z' WHERE id = $1`, [ofAlpha[3].id]);
    await t.sql(`UPDATE issues SET created_at = now() + interval '1 day' WHERE id = $1`, [ofAlpha[4].id]);
    // one deleted, one archived
    const gone = await t.api.delete(`${p(alpha.id)}/issues/${ofAlpha[5].id}/`).auth(admin.token, { type: 'bearer' });
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    await t.sql('UPDATE issues SET archived_at = now()::date WHERE id = $1', [ofAlpha[6].id]);
    await check('after the writes');
  });

  it("the migrations that copy created_at onto assignee and label rows leave every work item's updated_at as it was", async () => {
    // the web app's local copy syncs by updated_at: a backfill that touched the work items (through
    // the link rows' touch trigger) would make every assigned or labelled work item look changed
    const migrations: Array<[name: string, table: string]> = [
      ['AssigneeIssueCreatedAt1795969100000', 'issue_assignees'],
      ['LabelIssueCreatedAt1795978000000', 'issue_labels'],
    ];
    for (const [name, table] of migrations) {
      const STATE = `SELECT i.id, i.updated_at::text AS updated_at,
              ARRAY(SELECT ga.issue_created_at::text FROM ${table} ga WHERE ga.issue_id = i.id ORDER BY 1) AS copies
       FROM issues i WHERE i.workspace_id = $1 ORDER BY i.id`;
      const before = await t.sql<{ id: string; updated_at: string; copies: string[] }>(STATE, [ws.id]);
      assert.ok(before.filter((r) => r.copies.length).length > 10, `work items with rows in ${table}`);
      // the migration as the server loaded it (its data source's migrations), taken off and applied
      // again in a transaction that is rolled back: the schema is left as it was (the test database
      // may be shared with the next test file, whose reset cannot undo DDL)
      const migration = t.database.dataSource.migrations.find((m) => m.name === name);
      assert.ok(migration, `${name} is known to the server`);
      const runner = t.database.dataSource.createQueryRunner();
      try {
        await runner.startTransaction();
        await migration.down(runner);
        const gone = (await runner.query(
          `SELECT COUNT(*)::int AS n FROM information_schema.columns WHERE table_name = '${table}' AND column_name = 'issue_created_at'`,
        )) as Array<{ n: number }>;
        assert.equal(gone[0].n, 0, `${name}: down took the column off`);
        await migration.up(runner);
        assert.deepEqual(await runner.query(STATE, [ws.id]), before, name);
      } finally {
        await runner.rollbackTransaction();
        await runner.release();
      }
      assert.deepEqual(await t.sql(STATE, [ws.id]), before, name);
    }
  });
});
