// The work item search's choice between the newest work items and the trigram index, no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameShare, NameStats, walksNewest } from './issue-search-estimate';

/** 102 bounds: every `every`-th inner bound holds "payment". */
function stats(every: number, rows: number, extra: Partial<NameStats> = {}): NameStats {
  const histogram = Array.from({ length: 102 }, (_, i) => (i % every === 0 ? `Payment bound ${i}` : `Login ${i}`));
  return { histogram, common: [], commonFreqs: [], nullFrac: 0, rows, ...extra };
}

describe('work item search: newest walk or trigram index', () => {
  it('estimates the share of names holding the text as the planner does, in any case', () => {
    assert.equal(nameShare('PAYMENT', stats(20, 1_000_000)), 5 / 100);
    // none of the histogram: the planner's floor, 1 in 10,000
    assert.equal(nameShare('zeppelin', stats(20, 1_000_000)), 0.0001);
    // the common values count by their own shares, the histogram for the rest
    const withCommon = stats(20, 1_000_000, { common: ['Zeppelin one', 'Other'], commonFreqs: [0.1, 0.1] });
    assert.ok(Math.abs(nameShare('zeppelin', withCommon)! - (0.0001 * 0.8 + 0.1)) < 1e-12);
    assert.equal(nameShare('payment', stats(20, 1_000_000, { histogram: ['a', 'b', 'c'] })), undefined);
  });

  it('walks for a common text, reads the index for a rare one, by the table size', () => {
    assert.equal(walksNewest('payment', stats(20, 1_000_000), 100), true); // 1 in 20 at a million
    assert.equal(walksNewest('zeppelin', stats(20, 1_000_000), 100), false);
    // 1 in 50: the walk tests about 5,000 rows, the index returns 20,000
    assert.equal(walksNewest('payment', stats(50, 1_000_000), 100), true);
    // 1 in 100 at 10,000 rows: 10,000 rows walked for 100 hits from the index
    assert.equal(walksNewest('payment', stats(100, 10_000), 100), false);
  });

  it('walks for a text the trigram index cannot look up; the index without statistics', () => {
    assert.equal(walksNewest('e', undefined, 100), true);
    assert.equal(walksNewest('ab', stats(20, 1_000_000), 100), true);
    assert.equal(walksNewest('payment', undefined, 100), false);
    assert.equal(walksNewest('payment', stats(20, -1), 100), false);
  });
});
