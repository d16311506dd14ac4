// The query-list reader of every API surface (Plane's `plane/utils/issue_filters.py`, GET), no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  dateCondition,
  dateListParam,
  idListParam,
  idsOrNoneParam,
  isDateValue,
  listParam,
  oneOfListParam,
  singleParam,
} from './query-lists';

const A = '0b7c8b3e-1d2f-4a5b-8c9d-0e1f2a3b4c5d';
const B = 'f1e2d3c4-b5a6-4978-8695-a4b3c2d1e0f9';
const PRIORITIES = ['urgent', 'high', 'medium', 'low', 'none'];

const invalid = (name: string) => (err: { code?: string; status?: number; message?: string }) =>
  err.code === 'INVALID_QUERY_PARAMETER' && err.status === 400 && String(err.message).includes(name);

describe('query lists', () => {
  it('splits on commas, trims, and drops empty items and null (Plane drops "null")', () => {
    assert.deepEqual(idListParam({ state: ` ${A} , ,null,${B},` }, 'state'), [A, B]);
    assert.deepEqual(
      listParam({ status: '-2,null,1' }, 'status', (v) => /^-?\d$/.test(v)),
      ['-2', '1'],
    );
  });

  it('is no filter when absent, empty or only null', () => {
    for (const raw of [undefined, '', ' ', ',', 'null', 'null,null'])
      assert.equal(idListParam(raw === undefined ? {} : { state: raw }, 'state'), undefined);
  });

  it('reads ids in any case and answers them lower-cased (Python uuid.UUID)', () => {
    assert.deepEqual(idListParam({ labels: `${A.toUpperCase()},${B}` }, 'labels'), [A, B]);
  });

  it('compares priorities and state groups as given (Plane priority__in is case-sensitive)', () => {
    assert.deepEqual(oneOfListParam({ priority: 'high,low' }, 'priority', PRIORITIES), ['high', 'low']);
    assert.throws(() => oneOfListParam({ priority: 'HIGH' }, 'priority', PRIORITIES), invalid('priority'));
    assert.throws(() => oneOfListParam({ state_group: 'Started' }, 'state_group', ['started']), invalid('state_group'));
  });

  it('refuses a bad item with 400, naming the parameter', () => {
    assert.throws(() => idListParam({ assignees: `${A},nope` }, 'assignees'), invalid('assignees'));
    assert.throws(() => idListParam({ state: [A, B] }, 'state'), invalid('more than once'));
    assert.throws(() => singleParam({ order_by: ['a', 'b'] }, 'order_by'), invalid('order_by'));
  });

  it('reads None as "in none" in cycle and module lists, and drops null', () => {
    assert.deepEqual(idsOrNoneParam({ cycle: `None,${A.toUpperCase()}` }, 'cycle'), [null, A]);
    assert.equal(idsOrNoneParam({ module: 'null' }, 'module'), undefined);
    assert.throws(() => idsOrNoneParam({ cycle: 'none' }, 'cycle'), invalid('cycle'));
  });

  it('reads absolute dates (after ≥, before ≤, a plain day =)', () => {
    assert.deepEqual(dateListParam({ start_date: '2025-01-01;after,2025-02-01;before,2025-01-15' }, 'start_date'), [
      { date: '2025-01-01', op: 'after' },
      { date: '2025-02-01', op: 'before' },
      { date: '2025-01-15', op: 'on' },
    ]);
    for (const bad of ['2025-13-01', '2025-01-01;AFTER', '2025-01-01;on', '01-01-2025', '2025-1-1'])
      assert.throws(() => dateListParam({ target_date: bad }, 'target_date'), invalid('target_date'));
  });

  it("reads Plane's relative dates on today's UTC date (a week 7 days, a month 30)", () => {
    const today = new Date('2025-03-10T23:30:00Z');
    assert.deepEqual(dateListParam({ target_date: '2_weeks;after;fromnow' }, 'target_date', today), [
      { date: '2025-03-24', op: 'after' },
    ]);
    assert.deepEqual(dateCondition('1_months;before;ago', today), { date: '2025-02-08', op: 'before' });
    assert.equal(isDateValue('2_days;after;fromnow'), false);
    assert.equal(isDateValue('2_weeks;after'), false);
  });
});
