import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import express from 'express';
import type { AddressInfo } from 'node:net';
import {
  AnswerBudget,
  byWeight,
  heapPressure,
  MeridianError,
  pageInChunks,
  paginate,
  parseCursor,
  readInChunks,
  shedUnderHeapPressure,
} from '#common';
import { IssueChildrenService, IssueCommandService, IssueComment } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, seedProject } from '../support/domain-fixtures';

/** Lists of large rows read in chunks (libs/common/src/pagination/chunked-reads.ts) and the budget that lends them memory. */
describe('domain: lists read in chunks of bounded size, and the answer budget', () => {
  let d: DomainContext;
  let issueId: string;
  /** the comments' ids, oldest first */
  let ids: string[];
  const sizes = [10, 3000, 50, 8000, 20, 20, 5000];
  const weight = 'octet_length(c.commentHtml)';
  const comments = () =>
    d.database.dataSource
      .getRepository(IssueComment)
      .createQueryBuilder('c')
      .where('c.issueId = :issueId', { issueId });

  domainSuite({ projects: 0 }, async (s) => {
    d = s.d;
    const p = await seedProject(d);
    const ctx = p.ctx;
    issueId = ((await d.get(IssueCommandService).create(ctx, { name: 'Long talk' })) as { id: string }).id;
    ids = [];
    for (const size of sizes) {
      const made = await d.get(IssueChildrenService).createComment(ctx, issueId, { comment_html: 'x'.repeat(size) });
      ids.push(made.id as string);
    }
  });

  const collect = async <T>(chunks: AsyncIterable<T[]>) => {
    const all: T[][] = [];
    for await (const chunk of chunks) all.push(chunk);
    return all;
  };

  it('readInChunks: every row once, in list order, across scan windows, each chunk within its byte limit or one row', async () => {
    for (const order of ['ASC', 'DESC'] as const) {
      const chunks = await collect(readInChunks(comments(), { order, weight, window: 3, chunkBytes: 6000 }));
      const read = chunks.flat().map((c) => c.id);
      assert.deepEqual(read, order === 'ASC' ? ids : [...ids].reverse());
      for (const chunk of chunks) {
        const bytes = chunk.reduce((n, c) => n + Buffer.byteLength(c.commentHtml), 0);
        assert.ok(chunk.length === 1 || bytes <= 6000, `a chunk of ${chunk.length} rows holds ${bytes} bytes`);
      }
      // the rows are whole entities
      assert.equal(chunks.flat()[0].commentHtml.length, order === 'ASC' ? sizes[0] : sizes[sizes.length - 1]);
    }
    assert.deepEqual(await collect(readInChunks(comments().andWhere('1 = 0'), { weight })), []);
  });

  it('pageInChunks: the keyset page of light rows (cursors, counts) and its rows whole, in page order', async () => {
    const all = await paginate(comments(), { perPage: 3 }, { order: 'DESC' });
    const list = await pageInChunks(comments(), { perPage: 3 }, { order: 'DESC', weight, chunkBytes: 4000 });
    assert.ok(list.page);
    assert.equal(list.page.totalCount, sizes.length);
    assert.equal(list.page.nextCursor, all.nextCursor);
    const read = (await collect(list.chunks)).flat();
    assert.deepEqual(
      read.map((c) => c.id),
      all.results.map((c) => c.id),
    );
    assert.equal(read[0].commentHtml, all.results[0].commentHtml);
    // the next page from the cursor
    const next = await pageInChunks(
      comments(),
      { perPage: 3, cursor: parseCursor(all.nextCursor!) },
      { order: 'DESC', weight },
    );
    assert.deepEqual(
      (await collect(next.chunks)).flat().map((c) => c.id),
      [...ids].reverse().slice(3, 6),
    );
    // every row: no page
    const every = await pageInChunks(comments(), { perPage: 100, all: true }, { order: 'DESC', weight });
    assert.equal(every.page, null);
    assert.equal((await collect(every.chunks)).flat().length, sizes.length);
  });

  it('byWeight: consecutive runs within the limit, a heavier row alone', () => {
    const rows = [
      { id: 'a', w: 4 },
      { id: 'b', w: '5' },
      { id: 'c', w: 20 },
      { id: 'd', w: null },
      { id: 'e', w: 10 },
    ];
    assert.deepEqual(byWeight(rows, 10), [
      { ids: ['a', 'b'], bytes: 9 },
      { ids: ['c'], bytes: 20 },
      { ids: ['d', 'e'], bytes: 10 },
    ]);
  });

  it('AnswerBudget: lends up to its capacity, serves waiters first come first served, sheds a waiter after its wait', async () => {
    const budget = new AnswerBudget(100, 200);
    const first = await budget.acquire(60);
    const order: string[] = [];
    const big = budget.acquire(80).then((release) => (order.push('big'), release));
    const small = budget.acquire(10).then((release) => (order.push('small'), release));
    await new Promise((r) => setTimeout(r, 20));
    assert.deepEqual(order, [], 'the small one waits behind the big one, although it would fit');
    first();
    first(); // a second call gives nothing back twice
    (await big)();
    (await small)();
    assert.deepEqual(order, ['big', 'small']);
    assert.equal(budget.free, 100);
    // more than the capacity takes all of it
    const all = await budget.acquire(1_000);
    assert.equal(budget.free, 0);
    const late = await budget.acquire(1).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(late instanceof MeridianError && late.code === 'SERVER_BUSY' && late.retryAfter === 1);
    all();
    assert.equal(budget.free, 100);
  });

  it('forOneAnswer: an answer holding a lease gets its next one at once (two lists merged never wait on each other)', async () => {
    const budget = new AnswerBudget(100, 5_000);
    const answer = budget.forOneAnswer();
    const first = await answer.acquire(100);
    const second = await answer.acquire(100);
    assert.equal(budget.free, -100, 'past the capacity, by one chunk');
    let other = false;
    const waiting = budget.acquire(50).then((release) => ((other = true), release));
    second();
    await new Promise((r) => setTimeout(r, 10));
    assert.equal(other, false, 'another answer waits until the capacity is back');
    first();
    (await waiting)();
    assert.equal(budget.free, 100);
  });

  it('a chunk is lent from the budget while it is used, and given back when the next is asked for', async () => {
    const budget = new AnswerBudget(1_000_000);
    const reader = readInChunks(comments(), { weight, chunkBytes: 1, budget });
    const first = await reader.next();
    assert.equal(first.done, false);
    assert.equal(budget.free, 1_000_000 - sizes[0]);
    await reader.next();
    assert.equal(budget.free, 1_000_000 - sizes[1]);
    await reader.return(undefined);
    assert.equal(budget.free, 1_000_000);
  });

  it('shedUnderHeapPressure: above the ratio, 503 SERVER_BUSY with Retry-After; /health still answers', async () => {
    const app = express();
    app.use(shedUnderHeapPressure(heapPressure() / 2));
    app.get('/health', (_req, res) => void res.json({ ok: true }));
    app.get('/api/x', (_req, res) => void res.json({ ok: true }));
    const server = app.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const shed = await fetch(`${base}/api/x`);
      assert.equal(shed.status, 503);
      assert.equal(shed.headers.get('retry-after'), '2');
      assert.equal(((await shed.json()) as { error_code: string }).error_code, 'SERVER_BUSY');
      assert.equal((await fetch(`${base}/health`)).status, 200);
    } finally {
      server.close();
    }
  });
});
