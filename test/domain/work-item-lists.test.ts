import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IssueCommandService, IssueQueryService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, Seeded } from '../support/domain-fixtures';

/**
 * The statements the data source's connections are given while `fn` runs: the pool's client class's
 * `query` watched, not replaced (what `pool.query` sends, and what a request's statements sent
 * together on one connection send: `ReadBatch`).
 */
async function statementsOf(d: DomainContext, fn: () => Promise<unknown>): Promise<string[]> {
  const pool = d.database.dataSource.driver as unknown as { master: { Client: { prototype: object } } };
  const proto = pool.master.Client.prototype as { query: (...args: unknown[]) => unknown };
  const own = Object.prototype.hasOwnProperty.call(proto, 'query');
  const query = proto.query;
  const seen: string[] = [];
  proto.query = function (this: unknown, ...args: unknown[]) {
    const first = args[0] as string | { text?: string };
    seen.push(typeof first === 'string' ? first : (first?.text ?? ''));
    return query.apply(this, args);
  };
  try {
    await fn();
  } finally {
    if (own) proto.query = query;
    else delete (proto as { query?: unknown }).query;
  }
  return seen;
}

describe('domain: what the work item lists read (IssueQueryService)', () => {
  let d: DomainContext;
  let issues: IssueQueryService;
  let p: Seeded;
  const description = `<p>${'a long description '.repeat(200)}</p>`;
  domainSuite({ projects: 1 }, async (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    issues = d.get(IssueQueryService);
    const ctx = p.ctx;
    for (const name of ['One', 'Two']) {
      await d.get(IssueCommandService).create(ctx, { name, description_html: description });
    }
  });

  const pageOf = (query: Record<string, unknown>) => ({
    page: { perPage: 100, number: 0 },
    shape: { expand: new Set<string>() },
    ...query,
  });
  /**
   * the statements that read the work items' rows (a page, or the pages of a board's groups
   * together: `groupPages`), not their counts or App values
   */
  const pageReads = (statements: string[]) =>
    statements.filter((s) => /^SELECT (i\.id, i\.created_at|gk\.n::int AS __group|i\.\*, ARRAY)/.test(s));

  it("the App list and board read no description (Plane's list shape has none); the v1 list and `fields=` read it", async () => {
    let app: unknown;
    const appStatements = await statementsOf(
      d,
      async () => (app = await issues.list(p.projectId, pageOf({ view: 'app' }))),
    );
    const appReads = pageReads(appStatements);
    assert.equal(appReads.length, 1, 'the App list reads one page');
    assert.doesNotMatch(appReads[0], /description/);
    // a page by number reads its App values with its rows, not in a statement of their own
    assert.match(appReads[0], /AS assignee_ids/);
    assert.deepEqual(
      appStatements.filter((s) => /AS assignee_ids/.test(s)),
      appReads,
      'no second statement for the App values',
    );
    const appRows = (app as { results: Array<Record<string, unknown>> }).results;
    assert.deepEqual(appRows.map((r) => r.name).sort(), ['One', 'Two']);
    assert.ok(appRows.every((r) => !('description_html' in r) && typeof r.state__group === 'string'));

    const boardReads = pageReads(
      await statementsOf(d, () => issues.listGrouped(p.projectId, pageOf({ view: 'app' }) as never, 'state_id')),
    );
    assert.ok(boardReads.length >= 1, "the board reads its states' pages");
    for (const text of boardReads) assert.doesNotMatch(text, /description/);

    let v1: unknown;
    const v1Reads = pageReads(await statementsOf(d, async () => (v1 = await issues.list(p.projectId, pageOf({})))));
    assert.equal(v1Reads.length, 1);
    assert.match(v1Reads[0], /i\.description_html, i\.description_stripped/);
    const v1Rows = (v1 as { results: Array<Record<string, unknown>> }).results;
    assert.ok(v1Rows.every((r) => r.description_html === description));

    let picked: unknown;
    const pickedReads = pageReads(
      await statementsOf(
        d,
        async () =>
          (picked = await issues.list(
            p.projectId,
            pageOf({ view: 'app', shape: { fields: ['id', 'description_html'], expand: new Set<string>() } }),
          )),
      ),
    );
    assert.match(pickedReads[0], /i\.description_html/);
    assert.ok(
      (picked as { results: Array<Record<string, unknown>> }).results.every((r) => r.description_html === description),
    );
  });
});
