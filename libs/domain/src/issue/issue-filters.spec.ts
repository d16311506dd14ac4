// The work item lists' filters as SQL conditions with bound values, and order_by, no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  bindPositional,
  containsPattern,
  issueFilterConditions,
  resolveIssueOrder,
  talliedFilters,
} from './issue-filters';

describe('work item filters', () => {
  it('binds every value as a parameter, never into the text', () => {
    const params: unknown[] = [];
    const where = issueFilterConditions(
      {
        state: ['11111111-1111-4111-8111-111111111111'],
        priority: ["high'; DROP TABLE issues; --"],
        top_level: true,
        start_date: [{ op: 'after', date: '2025-01-31' }],
        target_date: [{ op: 'before', date: '2025-12-31' }],
      },
      bindPositional(params),
    );
    assert.deepEqual(where, [
      'i.state_id = $1::uuid AND i.project_id = (SELECT sf.project_id FROM states sf WHERE sf.id = $1::uuid)',
      'i.priority = ANY($2::text[])',
      'i.parent_id IS NULL',
      'i.start_date >= $3',
      'i.target_date <= $4',
    ]);
    assert.deepEqual(params, [
      '11111111-1111-4111-8111-111111111111',
      ["high'; DROP TABLE issues; --"],
      '2025-01-31',
      '2025-12-31',
    ]);
  });

  it('several states: any of them', () => {
    const params: unknown[] = [];
    assert.deepEqual(issueFilterConditions({ state: ['a', 'b'] }, bindPositional(params)), [
      'i.state_id = ANY($1::uuid[])',
    ]);
    assert.deepEqual(params, [['a', 'b']]);
  });

  it('cycle and module: null means "in none", beside ids', () => {
    const params: unknown[] = [];
    const [cycle] = issueFilterConditions(
      { cycle: ['22222222-2222-4222-8222-222222222222', null] },
      bindPositional(params),
    );
    assert.match(
      cycle,
      /^\(EXISTS \(SELECT 1 FROM cycle_issues x .*x\.cycle_id = ANY\(\$1::uuid\[\]\)\) OR NOT EXISTS \(SELECT 1 FROM cycle_issues x /,
    );
    assert.deepEqual(params, [['22222222-2222-4222-8222-222222222222']]);
    assert.deepEqual(issueFilterConditions({}, bindPositional([])), []);
  });

  it('name, parent, estimate point, times of the day and both dates: bound values, a day as a range of instants', () => {
    const params: unknown[] = [];
    const where = issueFilterConditions(
      {
        name: '5%_off',
        parent: ['33333333-3333-4333-8333-333333333333', null],
        estimate_point: ['44444444-4444-4444-8444-444444444444'],
        both_dates: true,
        created_at: [{ op: 'on', date: '2024-03-10' }],
        completed_at: [{ op: 'after', date: '2024-05-01' }],
      },
      bindPositional(params),
    );
    assert.deepEqual(where, [
      '(i.parent_id = ANY($1::uuid[]) OR i.parent_id IS NULL)',
      'i.estimate_point_id = ANY($2::uuid[])',
      'i.name ILIKE $3',
      'i.start_date IS NOT NULL AND i.target_date IS NOT NULL',
      "i.created_at >= ($4::date)::timestamp AT TIME ZONE 'UTC'",
      "i.created_at < ($4::date + 1)::timestamp AT TIME ZONE 'UTC'",
      "i.completed_at >= ($5::date)::timestamp AT TIME ZONE 'UTC'",
    ]);
    assert.equal(params[2], '%5\\%\\_off%');
    assert.equal(containsPattern('a\\b'), '%a\\\\b%');
    assert.equal(talliedFilters({ name: 'x' }), false);
    assert.equal(talliedFilters({ both_dates: false, priority: ['high'] }), true);
  });

  it('order_by: a known key, ascending or descending (default newest first); anything else is 400', () => {
    assert.equal(resolveIssueOrder(undefined).desc, true);
    assert.equal(resolveIssueOrder(' ').desc, true);
    const asc = resolveIssueOrder('created_at');
    assert.equal(asc.desc, false);
    assert.deepEqual(resolveIssueOrder('-created_at').order, asc.order);
    assert.throws(
      () => resolveIssueOrder('-password'),
      (err: { code?: string; status?: number }) => err.code === 'INVALID_QUERY_PARAMETER' && err.status === 400,
    );
  });

  it("tells the filters that read only the tallies' keys (project, state, state group, priority, creator, Guest rule)", () => {
    const state = '11111111-1111-4111-8111-111111111111';
    assert.equal(talliedFilters({}), true);
    assert.equal(
      talliedFilters({
        state: [state],
        priority: ['high'],
        state_group: ['started'],
        state_type: ['unstarted'],
        created_by: [state],
        project: [state],
        guestViewerId: state,
      }),
      true,
    );
    // empty lists, `top_level: false` and undefined add no condition
    assert.equal(talliedFilters({ assignee: [], label: [], top_level: false, updated_after: undefined }), true);
    // keys that are no filter (a list query's own) compile to no condition
    assert.equal(talliedFilters({ priority: ['high'], order_by: '-created_at', per_page: '100' } as never), true);
    for (const other of [
      { assignee: [state] },
      { label: [state] },
      { cycle: [null] },
      { module: [state] },
      { subscriber: [state] },
      { top_level: true },
      { ids: [state] },
      { updated_after: '2025-01-01T00:00:00Z' },
      { start_date: [{ op: 'after' as const, date: '2025-01-01' }] },
      { target_date: [{ op: 'on' as const, date: '2025-01-01' }] },
    ])
      assert.equal(talliedFilters({ priority: ['high'], ...other }), false, JSON.stringify(other));
  });
});
