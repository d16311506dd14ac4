import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PLANNED_EACH_TIME } from '#common';
import { MAX_PREPARED_TEXTS } from '#database';
import { hotQuery, ISO_TIMES, iso, MAX_NAMED_STATEMENTS, ReadBatch, UUID_ARRAYS } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite } from '../support/domain-fixtures';

describe('domain: named statements are bounded (kernel/hot-query.ts)', () => {
  let d: DomainContext;
  domainSuite({ projects: 0 }, (s) => {
    d = s.d;
  });

  it(`prepares at most ${MAX_NAMED_STATEMENTS} distinct texts in a session; the ones past it still run, unnamed`, async () => {
    const ds = d.database.dataSource;
    // one at a time: the pool hands the same idle connection back (on the embedded engine there is one)
    const texts = MAX_NAMED_STATEMENTS + 20;
    for (let k = 0; k < texts; k++) {
      const [row] = await hotQuery(ds, `SELECT $1::int + ${k} AS n /* hot-query bound test */`, [1]);
      assert.equal(Number(row.n), k + 1);
    }
    // hotQuery's names (`m_…`); the session also holds the embedded client's own (`p_…`, the last test)
    const [{ n }] = await hotQuery(
      ds,
      `SELECT COUNT(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'm\\_%'`,
      [],
    );
    assert.ok(n > 0, 'the texts were prepared as named statements');
    assert.ok(n <= MAX_NAMED_STATEMENTS, `${n} statements prepared in this session`);
  });

  it('reads timestamptz as ISO text (ISO_TIMES) exactly as iso() writes the Date pg parses', async () => {
    const ds = d.database.dataSource;
    const times = [
      '2026-11-27 04:47:45.143894+00',
      '2026-11-27 04:47:45+00',
      '2026-11-27 04:47:45.1+00',
      '1999-12-31 23:59:59.999999+00',
      '2000-02-29 12:00:00.000500+00',
      '0050-01-01 00:00:00+00',
      '2026-06-01 10:00:00.25+02',
    ];
    const sql = `SELECT t, now() AS at FROM unnest($1::timestamptz[]) AS t /* iso times test */`;
    const asDates = await hotQuery(ds, sql, [times]);
    const asText = await hotQuery(ds, sql, [times], ISO_TIMES);
    assert.equal(asText.length, times.length);
    asText.forEach((row, i) => {
      assert.equal(typeof row.t, 'string', `${times[i]} read as text`);
      assert.equal(iso(row.t as string), iso(asDates[i].t as Date), times[i]);
    });
    assert.match(asText[0].t as string, /^2026-11-27T04:47:45\.143Z$/);
  });

  it("reads uuid[] (UUID_ARRAYS) as pg's own parser does: empty, one, many, NULL elements, two dimensions", async () => {
    const ds = d.database.dataSource;
    const [a, b, c] = [
      '0f1e2d3c-4b5a-4968-8776-a5b4c3d2e1f0',
      'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11',
      'ffffffff-0000-4000-8000-000000000001',
    ];
    const sql = `SELECT '{}'::uuid[] AS empty, ARRAY['${b}']::uuid[] AS one, ARRAY['${b}', '${a}', '${c}']::uuid[] AS many,
      ARRAY[NULL, '${a}']::uuid[] AS with_null, ARRAY[ARRAY['${a}', '${b}'], ARRAY['${c}', '${a}']]::uuid[] AS two_d,
      NULL::uuid[] AS none, 7 AS n /* uuid arrays test */`;
    const [theirs] = await hotQuery(ds, sql, []);
    const [ours] = await hotQuery(ds, sql, [], UUID_ARRAYS);
    assert.deepEqual(ours, theirs);
    assert.deepEqual(ours.empty, []);
    assert.deepEqual(ours.many, [b, a, c]);
    assert.deepEqual(ours.with_null, [null, a]);
    assert.deepEqual(ours.two_d, [
      [a, b],
      [c, a],
    ]);
    assert.equal(ours.none, null);
  });

  it('a text that starts with the PLANNED_EACH_TIME comment is never prepared (a search: its plan depends on its values)', async () => {
    const ds = d.database.dataSource;
    const text = `/* ${PLANNED_EACH_TIME} */ SELECT $1::int + 2 AS n`;
    for (let k = 0; k < 7; k++) assert.equal(Number((await ds.query(text, [k]))[0].n), k + 2);
    const [{ n }] = await ds.query(`SELECT COUNT(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [
      text,
    ]);
    assert.equal(n, 0);
    // hotQuery too (a workspace's filtered list): run unnamed, never prepared
    const hot = `/* ${PLANNED_EACH_TIME} */ SELECT $1::int + 3 AS n /* hot */`;
    for (let k = 0; k < 7; k++) assert.equal(Number((await hotQuery(ds, hot, [k]))[0].n), k + 3);
    const [{ n: prepared }] = await hotQuery(
      ds,
      `SELECT COUNT(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`,
      [hot],
    );
    assert.equal(prepared, 0);
  });

  it('the embedded engine prepares statements sent as text with parameters once per connection, also after DISCARD ALL; PostgreSQL does not', async () => {
    const ds = d.database.dataSource;
    const text = `SELECT $1::int + 1 AS n /* prepared by the client test */`;
    const prepared = async () =>
      (await ds.query(`SELECT COUNT(*)::int AS n FROM pg_prepared_statements WHERE statement = $1`, [text]))[0]
        .n as number;
    for (let k = 0; k < 3; k++) assert.equal(Number((await ds.query(text, [k]))[0].n), k + 1);
    // one connection on the embedded engine: the statements above ran in the session queried here
    assert.equal(await prepared(), d.database.engine === 'embedded' ? 1 : 0);
    await ds.query('DISCARD ALL');
    assert.equal(await prepared(), 0);
    assert.equal(Number((await ds.query(text, [41]))[0].n), 42, 'prepared again after DISCARD ALL');
    assert.equal(await prepared(), d.database.engine === 'embedded' ? 1 : 0);

    // bounded: past MAX_PREPARED_TEXTS distinct texts, the rest still run, unnamed
    for (let k = 0; k < MAX_PREPARED_TEXTS + 20; k++) {
      assert.equal(Number((await ds.query(`SELECT $1::int + ${k} AS n /* prepared bound test */`, [1]))[0].n), k + 1);
    }
    const [{ n }] = await ds.query(`SELECT COUNT(*)::int AS n FROM pg_prepared_statements WHERE name LIKE 'p\\_%'`);
    if (d.database.engine === 'embedded') assert.ok(n > 0 && n <= MAX_PREPARED_TEXTS, `${n} prepared by the client`);
    else assert.equal(n, 0);
  });

  it('ReadBatch: the reads of one turn share one connection, each with its own answer; a failing one fails alone', async () => {
    const ds = d.database.dataSource;
    const batch = new ReadBatch();
    const pid = `SELECT pg_backend_pid() AS pid, $1::int AS k /* read batch test */`;
    const [a, b, bad, c] = await Promise.allSettled([
      batch.query(ds, pid, [1]),
      batch.query(ds, pid, [2]),
      batch.query(ds, `SELECT 1 / $1::int AS n /* read batch test */`, [0]),
      batch.query(ds, pid, [3]),
    ]);
    const rows = [a, b, c].map((r) => {
      assert.equal(r.status, 'fulfilled');
      return (r as PromiseFulfilledResult<Array<{ pid: number; k: number }>>).value[0];
    });
    assert.deepEqual(
      rows.map((r) => r.k),
      [1, 2, 3],
    );
    // one connection for the three (with a pool of several, separate queries would spread)
    assert.equal(new Set(rows.map((r) => r.pid)).size, 1);
    assert.equal(bad.status, 'rejected');
    assert.match(String((bad as PromiseRejectedResult).reason), /division by zero/);
    // a read after the batch left starts the next one; the connection is usable as before
    const [{ k }] = await batch.query(ds, pid, [4]);
    assert.equal(k, 4);
    await ds.transaction(async (em) => {
      assert.equal(Number((await em.query('SELECT 5 AS n'))[0].n), 5);
    });
  });
});
