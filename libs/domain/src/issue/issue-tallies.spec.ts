// When the tallies per assignee and per label may answer (no database): the groupings and filters.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { bindPositional } from './issue-filters';
import { tallyFilterOf, tallyKindOf, tallyProjects } from './issue-tallies';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';

describe('tallies per assignee and per label', () => {
  it('answer the assignee and label groupings only', () => {
    assert.equal(tallyKindOf('assignees__id'), 'a');
    assert.equal(tallyKindOf('labels__id'), 'l');
    for (const by of ['state_id', 'priority', 'state__group', 'cycle_id', 'issue_module__module_id'] as const)
      assert.equal(tallyKindOf(by), undefined, by);
  });

  it('give a total for one assignee or one label and nothing else', () => {
    assert.deepEqual(tallyFilterOf({ assignee: [A] }), { kind: 'a', value: A });
    assert.deepEqual(tallyFilterOf({ label: [B], guestViewerId: undefined }), { kind: 'l', value: B });
    // two values are not a sum (a work item may have both); both sets at once are an intersection
    assert.equal(tallyFilterOf({ assignee: [A, B] }), undefined);
    assert.equal(tallyFilterOf({ assignee: [A], label: [B] }), undefined);
    // any other filter, the Guest rule, or a value that is not a UUID: counted as before
    assert.equal(tallyFilterOf({ assignee: [A], priority: ['high'] }), undefined);
    assert.equal(tallyFilterOf({ label: [B], state: [A] }), undefined);
    assert.equal(tallyFilterOf({ assignee: [A], guestViewerId: B }), undefined);
    assert.equal(tallyFilterOf({ assignee: [A], top_level: true }), undefined);
    assert.equal(tallyFilterOf({ assignee: ['None'] }), undefined);
    assert.equal(tallyFilterOf({}), undefined);
  });

  it('read the scope’s projects with their values bound, the Guest rule as `whole`', () => {
    const params: unknown[] = [];
    const one = tallyProjects(A, bindPositional(params));
    assert.match(one, /p\.id = \$1::uuid/);
    assert.deepEqual(params, [A]);
    const ws: unknown[] = [];
    const all = tallyProjects({ workspaceId: A, viewerId: B }, bindPositional(ws));
    assert.match(all, /pm\.role > 5 OR p\.guest_view_all_features/);
    assert.deepEqual(ws, [A, B]);
    assert.ok(!all.includes(A) && !all.includes(B), 'values are bound, not written');
  });
});
