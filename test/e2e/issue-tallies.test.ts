import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  createApiKey,
  createProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { seededRandom as random } from '../support/seeded-random';
import { startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, unknown>;

/**
 * The tallies of the visible work items per project, state, priority and creator
 * (`project_issue_tallies`, migration `IssueTallies`; docs/decisions.md "Tallies of the visible
 * work items per state, priority and creator", issue #40) stay exact through a seeded sequence of
 * every kind of change (creates one by one and in concurrent batches, drafts, state, priority,
 * creator and project changes, archive and restore, deletes soft, bulk and for good, intake triage
 * in and out), and the answers read from them (filtered totals of the workspace and project lists,
 * a grouped list's group counts, the analytics charts by state, state group and priority, for an
 * Admin and a Guest) equal a fresh count of the work items. Runs on both engines.
 */
describe('work item tallies: exact through every kind of change, and the answers read from them', () => {
  let t: TestApp;
  let owner: SignedUp;
  let member: SignedUp;
  let guest: SignedUp;
  let ws: { id: string; slug: string };
  let key: string;
  let a: { id: string };
  let b: { id: string };
  const states = new Map<string, Array<{ id: string; group: string }>>();
  const live: string[] = []; // work items that may be changed (not deleted for good)
  const next = random(40);
  const pick = <T>(list: T[]): T => list[Math.floor(next() * list.length)];
  const PRIORITIES = ['urgent', 'high', 'medium', 'low', 'none'];
  const v1 = (pid: string, path = '') => `/api/v1/workspaces/${ws.slug}/projects/${pid}/${path}`;
  const app = () => `/api/workspaces/${ws.slug}`;
  const as = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  let moved = 0;

  const get = async (u: SignedUp, path: string): Promise<Row> => {
    const res = await t.api.get(`${app()}/${path}`).set(as(u));
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    return res.body as Row;
  };

  const create = async (pid: string, who: SignedUp, body: Row = {}) => {
    const res = await t.api
      .post(`${app()}/projects/${pid}/issues/`)
      .set(as(who))
      .send({ name: 'Tallied', state_id: pick(states.get(pid)!).id, priority: pick(PRIORITIES), ...body });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    live.push(res.body.id as string);
    return res.body.id as string;
  };

  /** The visible work items of the workspace, counted afresh, per project, state, state group, priority and creator. */
  const fresh = () =>
    t.sql<{
      project_id: string;
      state_id: string | null;
      grp: string | null;
      priority: string;
      created_by_id: string;
      n: number;
    }>(
      `SELECT i.project_id, i.state_id, s."group" AS grp, i.priority, i.created_by_id, COUNT(*)::int AS n
       FROM issues i LEFT JOIN states s ON s.id = i.state_id
       WHERE i.workspace_id = $1 AND i.deleted_at IS NULL AND i.archived_at IS NULL AND i.is_draft = false
       AND NOT EXISTS (SELECT 1 FROM intake_issues ii WHERE ii.issue_id = i.id AND ii.deleted_at IS NULL AND ii.status IN (-2, 0))
       GROUP BY 1, 2, 3, 4, 5`,
      [ws.id],
    );

  const sum = (rows: Array<{ n: number }>) => rows.reduce((s, r) => s + r.n, 0);
  const by = <R extends { n: number }>(rows: R[], k: (r: R) => string) => {
    const out = new Map<string, number>();
    for (const r of rows) out.set(k(r), (out.get(k(r)) ?? 0) + r.n);
    return out;
  };

  /** Every tally against a fresh count, then the answers read from them against the same count. */
  const check = async (what: string) => {
    const counted = await fresh();
    const tallies = await t.sql<{ k: string; n: number }>(
      `SELECT project_id || '/' || COALESCE(state_id::text, '-') || '/' || priority || '/' || COALESCE(created_by_id::text, '-') AS k, n
       FROM project_issue_tallies WHERE workspace_id = $1 AND n <> 0 ORDER BY 1`,
      [ws.id],
    );
    const expected = counted
      .map((r) => ({ k: `${r.project_id}/${r.state_id ?? '-'}/${r.priority}/${r.created_by_id ?? '-'}`, n: r.n }))
      .sort((x, y) => (x.k < y.k ? -1 : x.k > y.k ? 1 : 0));
    assert.deepEqual(tallies, expected, `${what}: the tallies`);

    // the workspace list's filtered totals (Admin of both projects)
    const stateOfA = states.get(a.id)![1].id;
    const filters: Array<[string, (r: (typeof counted)[number]) => boolean]> = [
      ['', () => true],
      ['priority=urgent,high&', (r) => ['urgent', 'high'].includes(r.priority)],
      ['state_group=started&', (r) => r.grp === 'started'],
      [
        'state_group=backlog,unstarted&priority=low,none&',
        (r) => ['backlog', 'unstarted'].includes(r.grp ?? '') && ['low', 'none'].includes(r.priority),
      ],
      [`state=${stateOfA}&`, (r) => r.state_id === stateOfA],
      [`created_by=${member.userId}&`, (r) => r.created_by_id === member.userId],
    ];
    for (const [query, match] of filters) {
      const list = await get(owner, `issues/?${query}per_page=3&cursor=3:0:0`);
      assert.equal(list.total_count, sum(counted.filter(match)), `${what}: workspace ${query} total`);
      const page = await get(owner, `projects/${a.id}/issues/?${query}per_page=3&cursor=3:1:0`);
      assert.equal(
        page.total_count,
        sum(counted.filter((r) => r.project_id === a.id && match(r))),
        `${what}: project ${query} total`,
      );
    }
    // a grouped list's group counts
    const groups: Array<[string, (r: (typeof counted)[number]) => string]> = [
      ['priority', (r) => r.priority],
      ['state__group', (r) => r.grp ?? 'None'],
      ['state_id', (r) => r.state_id ?? 'None'],
    ];
    for (const [group, k] of groups) {
      for (const [query, match] of filters.slice(0, 3)) {
        const grouped = await get(owner, `issues/?${query}group_by=${group}&per_page=2&cursor=2:0:0`);
        const want = by(counted.filter(match), k);
        for (const [g, r] of Object.entries(grouped.results as Record<string, { total_results: number }>))
          assert.equal(r.total_results, want.get(g) ?? 0, `${what}: ${query}group_by=${group}: ${g}`);
        assert.equal(grouped.total_results, sum(counted.filter(match)), `${what}: ${query}group_by=${group}`);
      }
    }
    // the analytics charts
    const chart = async (u: SignedUp, query: string) => {
      const res = await get(u, `analytics/?${query}`);
      const seen = new Map<string, number>();
      for (const rows of Object.values(res.distribution as Record<string, Row[]>))
        for (const r of rows) seen.set(`${String(r.dimension)}|${String(r.segment ?? '')}`, Number(r.count));
      return { total: res.total as number, seen, res };
    };
    const charts: Array<[string, (r: (typeof counted)[number]) => string]> = [
      ['x_axis=priority&y_axis=issue_count', (r) => `${r.priority}|`],
      ['x_axis=state_id&y_axis=issue_count', (r) => `${r.state_id}|`],
      ['x_axis=state__group&y_axis=issue_count&segment=priority', (r) => `${r.grp}|${r.priority}`],
      [
        'x_axis=priority&y_axis=issue_count&segment=state_id&state_group=started,backlog',
        (r) => `${r.priority}|${r.state_id}`,
      ],
    ];
    for (const [query, k] of charts) {
      const mine = query.includes('state_group=')
        ? counted.filter((r) => ['started', 'backlog'].includes(r.grp ?? ''))
        : counted;
      const { total, seen } = await chart(owner, query);
      assert.equal(total, sum(mine), `${what}: ${query} total`);
      const want = by(
        mine.filter((r) => r.state_id !== null),
        k,
      );
      assert.deepEqual(new Map([...seen].sort()), new Map([...want].sort()), `${what}: ${query}`);
    }
    // a Guest of project A (no `guest_view_all_features`), in no other project: their own work items only
    const own = counted.filter((r) => r.project_id === a.id && r.created_by_id === guest.userId);
    assert.equal(
      (await get(guest, 'issues/?per_page=2&cursor=2:0:0')).total_count,
      sum(own),
      `${what}: the Guest's total`,
    );
    const high = own.filter((r) => ['urgent', 'high'].includes(r.priority));
    assert.equal(
      (await get(guest, 'issues/?priority=urgent,high&per_page=2&cursor=2:0:0')).total_count,
      sum(high),
      `${what}: the Guest's filtered total`,
    );
    const guestChart = await chart(guest, 'x_axis=priority&y_axis=issue_count');
    assert.equal(guestChart.total, sum(own), `${what}: the Guest's chart total`);
    assert.deepEqual(
      new Map([...guestChart.seen].sort()),
      new Map([...by(own, (r) => `${r.priority}|`)].sort()),
      `${what}: the Guest's chart`,
    );
  };

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    member = await signUp(t);
    guest = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    a = await createProject(t, key, ws.slug, { identifier: 'TALA', name: 'Tallies A' });
    b = await createProject(t, key, ws.slug, { identifier: 'TALB', name: 'Tallies B' });
    await addMember(t, ws.id, member.userId, 15);
    // a workspace Member (analytics is for Members) who is a Guest of project A
    await addMember(t, ws.id, guest.userId, 15);
    for (const p of [a, b]) await addProjectMember(t, ws.id, p.id, member.userId, 15);
    await addProjectMember(t, ws.id, a.id, guest.userId, 5);
    assert.equal((await t.api.patch(v1(a.id)).set('X-API-Key', key).send({ intake_view: true })).status, 200);
    for (const p of [a, b])
      states.set(
        p.id,
        await t.sql<{ id: string; group: string }>(
          `SELECT id, "group" FROM states WHERE project_id = $1 AND is_triage = false AND deleted_at IS NULL ORDER BY sequence, id`,
          [p.id],
        ),
      );
  });
  after(() => t.close());

  it('creates one by one and in concurrent batches, and drafts', async () => {
    await check('empty');
    for (let n = 0; n < 6; n++) await create(pick([a.id, b.id]), pick([owner, member]));
    await Promise.all(Array.from({ length: 16 }, () => create(pick([a.id, b.id]), pick([owner, member]))));
    await create(a.id, owner, { is_draft: true });
    await check('creates');
  });

  it('a seeded sequence of every kind of change', async () => {
    const intake: string[] = [];
    const doneOf = (pid: string) => states.get(pid)!.find((s) => s.group === 'completed')!.id;
    const projectOf = async (id: string) =>
      (await t.sql<{ project_id: string }>('SELECT project_id FROM issues WHERE id = $1', [id]))[0].project_id;
    for (let step = 0; step < 60; step++) {
      const id = pick(live);
      const pid = await projectOf(id);
      const kind = Math.floor(next() * 13);
      switch (kind) {
        case 0:
          await create(pick([a.id, b.id]), pick([owner, member]));
          break;
        case 1:
          await Promise.all(Array.from({ length: 5 }, () => create(pick([a.id, b.id]), pick([owner, member]))));
          break;
        case 2:
        case 3: {
          const res = await t.api
            .patch(v1(pid, `work-items/${id}/`))
            .set('X-API-Key', key)
            .send({ state: pick(states.get(pid)!).id, priority: pick(PRIORITIES) });
          assert.ok([200, 404].includes(res.status), JSON.stringify(res.body));
          break;
        }
        case 4: {
          // a move to the other project, with one of its states
          const to = pid === a.id ? b.id : a.id;
          await t.sql('UPDATE issues SET project_id = $1, state_id = $2, sequence_id = $3 WHERE id = $4', [
            to,
            pick(states.get(to)!).id,
            100000 + moved++,
            id,
          ]);
          break;
        }
        case 5: {
          // archive (a completed work item), sometimes restored
          await t.api
            .patch(v1(pid, `work-items/${id}/`))
            .set('X-API-Key', key)
            .send({ state: doneOf(pid) });
          const res = await t.api.post(`${app()}/projects/${pid}/issues/${id}/archive/`).set(as(owner));
          if (res.status === 200 && next() < 0.5)
            assert.equal(
              (await t.api.delete(`${app()}/projects/${pid}/issues/${id}/archive/`).set(as(owner))).status,
              204,
            );
          break;
        }
        case 6: {
          // a draft published; a work item made a draft
          const draft = await create(pid, owner, { is_draft: true });
          if (next() < 0.5)
            await t.api
              .patch(v1(pid, `work-items/${draft}/`))
              .set('X-API-Key', key)
              .send({ is_draft: false });
          await t.sql('UPDATE issues SET is_draft = true WHERE id = $1', [id]);
          break;
        }
        case 7:
          await t.api.delete(v1(pid, `work-items/${id}/`)).set('X-API-Key', key);
          break;
        case 8: {
          const res = await t.api
            .delete(`${app()}/projects/${pid}/bulk-delete-issues/`)
            .set(as(owner))
            .send({ issue_ids: [id] });
          assert.equal(res.status, 200, JSON.stringify(res.body));
          break;
        }
        case 9:
          await t.sql('DELETE FROM issues WHERE id = $1', [id]);
          live.splice(live.indexOf(id), 1);
          break;
        case 10: {
          const res = await t.api
            .post(v1(a.id, 'intake-issues/'))
            .set('X-API-Key', key)
            .send({ issue: { name: 'In' } });
          assert.equal(res.status, 201, JSON.stringify(res.body));
          intake.push(res.body.issue as string);
          live.push(res.body.issue as string);
          break;
        }
        case 11: {
          if (!intake.length) break;
          const item = pick(intake);
          const status = pick([1, -1, 0, 1]);
          await t.api
            .patch(v1(a.id, `intake-issues/${item}/`))
            .set('X-API-Key', key)
            .send(status === 0 ? { status, snoozed_till: '2099-01-01T00:00:00Z' } : { status });
          break;
        }
        case 12:
          // the creator changes: the Guest's own work items (only in A, where the Guest is)
          if (pid === a.id) await t.sql('UPDATE issues SET created_by_id = $1 WHERE id = $2', [guest.userId, id]);
          else await t.sql('UPDATE issues SET priority = $1 WHERE id = $2', [pick(PRIORITIES), id]);
          break;
      }
      if (step % 10 === 9) await check(`step ${step}`);
    }
    await check('the end');
    assert.ok(sum(await fresh()) > 10, 'work items left to count');
  });

  it('the migration round trip: down drops the tallies, up counts them again', async () => {
    const STATE = `SELECT project_id::text, state_id::text, priority, created_by_id::text, n FROM project_issue_tallies
       WHERE workspace_id = $1 AND n <> 0 ORDER BY 1, 2, 3, 4`;
    const before = await t.sql(STATE, [ws.id]);
    const migration = t.database.dataSource.migrations.find((m) => m.name === 'IssueTallies1795971000000');
    assert.ok(migration, 'the migration is known to the server');
    const runner = t.database.dataSource.createQueryRunner();
    try {
      await runner.startTransaction();
      await migration.down(runner);
      const gone = (await runner.query(
        `SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_name = 'project_issue_tallies'`,
      )) as Array<{ n: number }>;
      assert.equal(gone[0].n, 0, 'down took the table off');
      await migration.up(runner);
      assert.deepEqual(await runner.query(STATE, [ws.id]), before);
    } finally {
      await runner.rollbackTransaction();
      await runner.release();
    }
    await check('after the round trip');
  });
});
