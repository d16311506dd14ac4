import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, addProjectMember, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Work item lists paged by number (`<per_page>:<page>:0`, as Plane's web app asks) read a deep page
 * from its start key (docs/decisions.md "Deep pages by number from their start key"), and a grouped
 * list counts its groups in one statement: the answers must be the ones an offset read and a count
 * per group give. Every page of a walk is compared with the same rows of the list read as one page,
 * in every order, on the workspace list (an Admin, a Member of some projects, a Guest under the
 * Guest rule), a project's list and the archived list; each group's `total_results` with the
 * group's work items counted from the list's own values. Ties of every key are made on purpose
 * (same `created_at`, `sort_order`, priority), so the order between them is the id's. Runs on both
 * engines.
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

  it("the migration that copies created_at onto assignee rows leaves every work item's updated_at as it was", async () => {
    // the web app's local copy syncs by updated_at: a backfill that touched the work items (through
    // the assignee rows' touch trigger) would make every assigned work item look changed
    const STATE = `SELECT i.id, i.updated_at::text AS updated_at,
              ARRAY(SELECT ga.issue_created_at::text FROM issue_assignees ga WHERE ga.issue_id = i.id ORDER BY 1) AS copies
       FROM issues i WHERE i.workspace_id = $1 ORDER BY i.id`;
    const before = await t.sql<{ id: string; updated_at: string; copies: string[] }>(STATE, [ws.id]);
    assert.ok(before.filter((r) => r.copies.length).length > 10, 'work items with assignees');
    // the migration as the server loaded it (its data source's migrations), taken off and applied
    // again in a transaction that is rolled back: the schema is left as it was (the test database
    // may be shared with the next test file, whose reset cannot undo DDL)
    const migration = t.database.dataSource.migrations.find((m) => m.name === 'AssigneeIssueCreatedAt1795969100000');
    assert.ok(migration, 'the migration is known to the server');
    const runner = t.database.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await migration.down(runner);
      const gone = (await runner.query(
        `SELECT COUNT(*)::int AS n FROM information_schema.columns WHERE table_name = 'issue_assignees' AND column_name = 'issue_created_at'`,
      )) as Array<{ n: number }>;
      assert.equal(gone[0].n, 0, 'down took the column off');
      await migration.up(runner);
      assert.deepEqual(await runner.query(STATE, [ws.id]), before);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    assert.deepEqual(await t.sql(STATE, [ws.id]), before);
  });
});
