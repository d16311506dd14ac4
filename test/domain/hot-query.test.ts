import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { hotQuery, MAX_NAMED_STATEMENTS } from '#domain';
import { DomainContext, startDomainContext } from '../support/domain-context';

describe('domain: named statements are bounded (kernel/hot-query.ts)', () => {
  let d: DomainContext;
  before(async () => {
    d = await startDomainContext();
  });
  after(() => d.close());

  it(`prepares at most ${MAX_NAMED_STATEMENTS} distinct texts in a session; the ones past it still run, unnamed`, async () => {
    const ds = d.database.dataSource;
    // one at a time: the pool hands the same idle connection back (on the embedded engine there is one)
    const texts = MAX_NAMED_STATEMENTS + 20;
    for (let k = 0; k < texts; k++) {
      const [row] = await hotQuery(ds, `SELECT $1::int + ${k} AS n /* hot-query bound test */`, [1]);
      assert.equal(Number(row.n), k + 1);
    }
    const [{ n }] = await hotQuery(ds, `SELECT COUNT(*)::int AS n FROM pg_prepared_statements`, []);
    assert.ok(n > 0, 'the texts were prepared as named statements');
    assert.ok(n <= MAX_NAMED_STATEMENTS, `${n} statements prepared in this session`);
  });
});
