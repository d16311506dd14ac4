import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client } from 'pg';
import { assertError, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { seededRandom as random } from '../support/seeded-random';
import { ENGINE, startTestApp, TestApp } from '../support/test-app';

type Row = Record<string, unknown>;

/**
 * Writers that change several work items in one transaction take their locks in one order
 * (docs/decisions.md "One lock order for the tallies"): the work items' rows in id order before
 * any change (`lockIdsInProject`), and every tally row under its project's counter row (migration
 * `IssueTallyLocks`). A transaction PostgreSQL aborts anyway (a deadlock, a serialization failure)
 * answers 503 `DATABASE_CONFLICT` with `Retry-After`, not a 500.
 */
describe('one lock order for writes of several work items', () => {
  let t: TestApp;
  let ada: SignedUp;
  let ws: { slug: string };
  let project: { id: string };
  const as = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const base = () => `/api/workspaces/${ws.slug}/projects/${project.id}`;

  before(async () => {
    t = await startTestApp();
    ada = await signUp(t);
    ws = await createWorkspace(t, ada.token);
    project = await createAppProject(t, ada.token, ws.slug);
  });
  after(async () => {
    await t.sql('DROP TRIGGER IF EXISTS meridian_test_conflict ON issues');
    await t.sql('DROP FUNCTION IF EXISTS meridian_test_conflict()');
    await t.close();
  });

  it('SQLSTATE 40P01 (deadlock) and 40001 (serialization failure) answer 503 DATABASE_CONFLICT with Retry-After; nothing is written', async () => {
    const made = await t.api.post(`${base()}/issues/`).set(as(ada)).send({ name: 'Kept', priority: 'low' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    // a trigger raising what PostgreSQL raises when it aborts a transaction (both engines)
    for (const [sqlstate, message] of [
      ['40P01', 'deadlock detected'],
      ['40001', 'could not serialize access due to concurrent update'],
    ]) {
      await t.sql(`CREATE OR REPLACE FUNCTION meridian_test_conflict() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION '${message}' USING ERRCODE = '${sqlstate}'; END $$`);
      await t.sql('DROP TRIGGER IF EXISTS meridian_test_conflict ON issues');
      await t.sql(
        'CREATE TRIGGER meridian_test_conflict BEFORE UPDATE ON issues FOR EACH ROW EXECUTE FUNCTION meridian_test_conflict()',
      );
      const res = await t.api
        .post(`${base()}/bulk-operation-issues/`)
        .set(as(ada))
        .send({ issue_ids: [made.body.id], properties: { priority: 'urgent' } });
      assertError(res, 503, 'DATABASE_CONFLICT');
      assert.match(res.headers['retry-after'] ?? '', /^[1-9]\d*$/, 'Retry-After');
      assert.deepEqual(Object.keys(res.body).sort(), ['detail', 'error_code']);
      assert.doesNotMatch(res.body.detail, /deadlock|serialize|UPDATE/);
    }
    await t.sql('DROP TRIGGER meridian_test_conflict ON issues');
    const [row] = await t.sql<{ priority: string }>('SELECT priority FROM issues WHERE id = $1', [made.body.id]);
    assert.equal(row.priority, 'low');
  });

  it(
    'a change of priority holds its project counter row until it commits, as a create does, so tally rows are only taken under it',
    {
      skip: ENGINE === 'embedded' ? 'the embedded database has one session: there is no other to see the lock' : false,
    },
    async () => {
      const made = await t.api.post(`${base()}/issues/`).set(as(ada)).send({ name: 'Locked', priority: 'low' });
      assert.equal(made.status, 201, JSON.stringify(made.body));
      const [writer, other] = [
        new Client({ connectionString: t.config.database.url }),
        new Client({ connectionString: t.config.database.url }),
      ];
      await Promise.all([writer.connect(), other.connect()]);
      try {
        const counterTaken = async () => {
          await other.query('BEGIN');
          try {
            await other.query('SELECT 1 FROM project_issue_counters WHERE project_id = $1 FOR UPDATE NOWAIT', [
              project.id,
            ]);
            return false;
          } catch (err) {
            assert.equal((err as { code?: string }).code, '55P03', String(err));
            return true;
          } finally {
            await other.query('ROLLBACK');
          }
        };
        await writer.query('BEGIN');
        await writer.query(`UPDATE issues SET name = 'Renamed' WHERE id = $1`, [made.body.id]);
        assert.equal(await counterTaken(), false, 'a change no tally counts by takes no project lock');
        await writer.query(`UPDATE issues SET priority = 'urgent' WHERE id = $1`, [made.body.id]);
        assert.equal(await counterTaken(), true, 'a change of priority holds the project counter row');
        await writer.query('ROLLBACK');
        assert.equal(await counterTaken(), false);
      } finally {
        await Promise.all([writer.end(), other.end()]);
      }
    },
  );

  it(
    'bulk updates over the same work items in opposite orders, batched creates and single changes, all at once: every request succeeds and the tallies equal a count',
    {
      skip:
        ENGINE === 'embedded'
          ? 'the embedded database has one session: its transactions never wait for each other'
          : false,
    },
    async () => {
      const next = random(7);
      const PRIORITIES = ['urgent', 'high', 'medium', 'low', 'none'];
      const states = (await t.api.get(`${base()}/states/`).set(as(ada))).body as Array<{ id: string }>;
      const ids: string[] = [];
      for (let n = 0; n < 12; n++) {
        const res = await t.api
          .post(`${base()}/issues/`)
          .set(as(ada))
          .send({ name: `Item ${n}`, priority: PRIORITIES[n % 5], state_id: states[n % states.length].id });
        assert.equal(res.status, 201, JSON.stringify(res.body));
        ids.push(res.body.id as string);
      }
      const shuffled = () => [...ids].sort(() => next() - 0.5);
      const statuses: number[] = [];
      const failures: Row[] = [];
      const expect = async (req: Promise<{ status: number; body: unknown }>, want: number) => {
        const res = await req;
        statuses.push(res.status);
        if (res.status !== want) failures.push({ status: res.status, body: res.body });
      };
      for (let round = 0; round < 6; round++) {
        const work: Array<Promise<void>> = [];
        for (let k = 0; k < 4; k++) {
          const order = k % 2 ? shuffled() : shuffled().reverse();
          const properties =
            k % 2
              ? { priority: PRIORITIES[(round + k) % 5] }
              : { priority: PRIORITIES[(round + k + 2) % 5], state_id: states[(round + k) % states.length].id };
          work.push(
            expect(
              t.api.post(`${base()}/bulk-operation-issues/`).set(as(ada)).send({ issue_ids: order, properties }),
              204,
            ),
          );
          work.push(
            expect(
              t.api
                .post(`${base()}/issues/`)
                .set(as(ada))
                .send({ name: `New ${round}.${k}`, priority: PRIORITIES[k], state_id: states[k % states.length].id }),
              201,
            ),
          );
          work.push(
            expect(
              t.api
                .patch(`${base()}/issues/${ids[Math.floor(next() * ids.length)]}/`)
                .set(as(ada))
                .send({ priority: PRIORITIES[Math.floor(next() * 5)] }),
              204,
            ),
          );
          work.push(
            expect(
              t.api
                .post(`${base()}/issue-dates/`)
                .set(as(ada))
                .send({
                  updates: shuffled().map((id, n) => ({
                    id,
                    target_date: `2031-01-${String(1 + ((n + round) % 28)).padStart(2, '0')}`,
                  })),
                }),
              200,
            ),
          );
        }
        await Promise.all(work);
      }
      assert.deepEqual(failures, [], `${failures.length} of ${statuses.length} requests failed`);
      const tallies = await t.sql<Row>(
        `SELECT state_id, priority, created_by_id, n FROM project_issue_tallies WHERE project_id = $1 AND n <> 0 ORDER BY 1, 2, 3`,
        [project.id],
      );
      const counted = await t.sql<Row>(
        `SELECT state_id, priority, created_by_id, COUNT(*)::int AS n FROM issues
         WHERE project_id = $1 AND deleted_at IS NULL AND archived_at IS NULL AND is_draft = false
         GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`,
        [project.id],
      );
      assert.deepEqual(tallies, counted);
    },
  );
});
