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

/** A work item's App values the groupings read. */
interface Row {
  id: string;
  state_id: string;
  priority: string;
  label_ids: string[];
  assignee_ids: string[];
}

/** A sub-grouped answer (Plane's `SubGroupedOffsetPaginator` through `paginate`). */
interface SubGrouped {
  grouped_by: string;
  sub_grouped_by: string;
  total_count: number;
  next_page_results: boolean;
  prev_page_results: boolean;
  total_pages: number;
  results: Record<
    string,
    { total_results: number; results: Record<string, { results: Row[]; total_results: number }> }
  >;
}

/**
 * The App API's board with sub-groups (`group_by` and `sub_group_by`, Plane 0.25.3's
 * `SubGroupedOffsetPaginator`): each cell of a group and a sub-group is a page of its work items in
 * the list's order, with its size; each group its size; checked against the ungrouped list read
 * whole, on the project's list, page after page, with filters, for groupings by a value and by a
 * set (labels, assignees: a work item in several cells). Runs on both engines.
 */
describe('App API: work item lists with sub-groups', () => {
  let t: TestApp;
  let ada: SignedUp;
  let ben: SignedUp;
  let ws: { id: string; slug: string };
  let base: string;
  let stateIds: string[];
  let labelIds: string[];
  let all: Row[];

  const get = async (path: string) => {
    const res = await t.api.get(path).set({ authorization: `Bearer ${ada.token}` });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body;
  };

  /** The keys of a row under a grouping (`None` for a set without values). */
  const keysOf = (row: Row, by: string): string[] => {
    const set = (ids: string[]) => (ids.length ? ids : ['None']);
    if (by === 'state_id') return [row.state_id];
    if (by === 'priority') return [row.priority];
    if (by === 'labels__id') return set(row.label_ids);
    if (by === 'assignees__id') return set(row.assignee_ids);
    throw new Error(by);
  };

  /** Each cell's work items (group, then sub-group), from the whole list in its order. */
  function expected(rows: Row[], by: string, sub: string) {
    const cells = new Map<string, Map<string, Row[]>>();
    for (const row of rows) {
      for (const g of keysOf(row, by)) {
        for (const s of keysOf(row, sub)) {
          const group = cells.get(g) ?? new Map<string, Row[]>();
          cells.set(g, group);
          group.set(s, [...(group.get(s) ?? []), row]);
        }
      }
    }
    return cells;
  }

  function check(answer: SubGrouped, rows: Row[], by: string, sub: string, perPage: number, page: number) {
    assert.equal(answer.grouped_by, by);
    assert.equal(answer.sub_grouped_by, sub);
    assert.equal(answer.total_count, rows.length);
    const cells = expected(rows, by, sub);
    let more = false;
    for (const [g, group] of cells) {
      const got = answer.results[g];
      assert.ok(got, `group ${g}`);
      assert.equal(got.total_results, new Set([...group.values()].flat().map((r) => r.id)).size, `group ${g} size`);
      assert.deepEqual(Object.keys(got.results).sort(), [...group.keys()].sort(), `group ${g}'s sub-groups`);
      for (const [s, items] of group) {
        const cell = got.results[s];
        assert.equal(cell.total_results, items.length, `cell ${g}/${s} size`);
        assert.deepEqual(
          cell.results.map((r) => r.id),
          items.slice(page * perPage, (page + 1) * perPage).map((r) => r.id),
          `cell ${g}/${s} page ${page}`,
        );
        more ||= items.length > (page + 1) * perPage;
      }
    }
    // groups without work items are there, empty
    for (const [g, got] of Object.entries(answer.results)) {
      if (!cells.has(g)) assert.deepEqual([got.total_results, got.results], [0, {}], `empty group ${g}`);
    }
    assert.equal(answer.next_page_results, more);
    assert.equal(answer.prev_page_results, page > 0);
  }

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    ben = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, ben.userId, 15);
    const project = await createAppProject(t, ada.token, ws.slug);
    await addProjectMember(t, ws.id, project.id, ben.userId, 15);
    base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
    const states = (await get(`${base}/states/`)) as Array<{ id: string; group: string }>;
    stateIds = states.map((s) => s.id);
    labelIds = [];
    for (const name of ['Bug', 'Docs']) {
      const res = await t.api
        .post(`${base}/issue-labels/`)
        .set({ authorization: `Bearer ${ada.token}` })
        .send({ name, color: '#123456' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
      labelIds.push(res.body.id as string);
    }
    const priorities = ['urgent', 'high', 'medium', 'low', 'none'];
    const people = [[], [ada.userId], [ben.userId], [ada.userId, ben.userId]];
    const labelSets = [[], [labelIds[0]], [labelIds[1]], labelIds];
    for (let n = 0; n < 23; n++) {
      const res = await t.api
        .post(`${base}/issues/`)
        .set({ authorization: `Bearer ${ada.token}` })
        .send({
          name: `Item ${n}`,
          state_id: stateIds[n % 3],
          priority: priorities[n % 5],
          assignee_ids: people[n % 4],
          label_ids: labelSets[(n * 3) % 4],
        });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    }
    all = (await get(`${base}/issues/?per_page=100&cursor=100:0:0`)).results as Row[];
    assert.equal(all.length, 23);
  });

  after(async () => {
    await t.close();
  });

  it('by state, then priority: each cell a page of its work items, page after page', async () => {
    for (const page of [0, 1, 2]) {
      const answer = (await get(
        `${base}/issues/?group_by=state_id&sub_group_by=priority&per_page=2&cursor=2:${page}:0`,
      )) as SubGrouped;
      check(answer, all, 'state_id', 'priority', 2, page);
    }
    // every state of the project is a group
    const answer = (await get(`${base}/issues/?group_by=state_id&sub_group_by=priority`)) as SubGrouped;
    assert.deepEqual(Object.keys(answer.results).sort(), [...stateIds].sort());
  });

  it('by labels, then assignees: a work item in each of its cells, None for none, groups counted once', async () => {
    for (const page of [0, 1]) {
      const answer = (await get(
        `${base}/issues/?group_by=labels__id&sub_group_by=assignees__id&per_page=3&cursor=3:${page}:0`,
      )) as SubGrouped;
      check(answer, all, 'labels__id', 'assignees__id', 3, page);
    }
    const flipped = (await get(
      `${base}/issues/?group_by=priority&sub_group_by=labels__id&per_page=3&cursor=3:0:0`,
    )) as SubGrouped;
    check(flipped, all, 'priority', 'labels__id', 3, 0);
  });

  it('filters apply before grouping', async () => {
    const answer = (await get(
      `${base}/issues/?group_by=state_id&sub_group_by=assignees__id&priority=urgent,high&per_page=5&cursor=5:0:0`,
    )) as SubGrouped;
    check(
      answer,
      all.filter((r) => r.priority === 'urgent' || r.priority === 'high'),
      'state_id',
      'assignees__id',
      5,
      0,
    );
  });

  it("a saved view's work items and a profile's tab sub-group as the list", async () => {
    const created = await t.api
      .post(`${base}/views/`)
      .set({ authorization: `Bearer ${ada.token}` })
      .send({ name: 'Hot', filters: { priority: ['urgent', 'high'] } });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const hot = all.filter((r) => r.priority === 'urgent' || r.priority === 'high');
    for (const page of [0, 1]) {
      const answer = (await get(
        `${base}/views/${created.body.id}/issues/?group_by=state_id&sub_group_by=assignees__id&per_page=2&cursor=2:${page}:0`,
      )) as SubGrouped;
      check(answer, hot, 'state_id', 'assignees__id', 2, page);
    }
    // paged by number as the project's list (`<per_page>:<page>:0`)
    const flat = await get(`${base}/views/${created.body.id}/issues/?per_page=3&cursor=3:1:0`);
    assert.deepEqual(
      (flat.results as Row[]).map((r) => r.id),
      hot.slice(3, 6).map((r) => r.id),
    );
    assert.deepEqual([flat.prev_page_results, flat.next_page_results], [true, true]);
    // the profile's "assigned" tab: the work items assigned to the user, across the workspace
    const assigned = all.filter((r) => r.assignee_ids.includes(ben.userId));
    const profile = (await get(
      `/api/workspaces/${ws.slug}/user-issues/${ben.userId}/?group_by=priority&sub_group_by=labels__id&per_page=3&cursor=3:0:0`,
    )) as SubGrouped;
    check(profile, assigned, 'priority', 'labels__id', 3, 0);
  });

  it('the same sub-grouping twice, or an unknown one, is 400', async () => {
    const bearer = { authorization: `Bearer ${ada.token}` };
    assertError(
      await t.api.get(`${base}/issues/?group_by=priority&sub_group_by=priority`).set(bearer),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    assertError(
      await t.api.get(`${base}/issues/?group_by=priority&sub_group_by=colour`).set(bearer),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    // sub_group_by without group_by: Plane pages the list as it is
    const plain = await get(`${base}/issues/?sub_group_by=priority&per_page=100&cursor=100:0:0`);
    assert.equal(plain.results.length, 23);
  });
});
