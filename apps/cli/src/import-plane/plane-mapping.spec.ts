// The importer's mapping of a Plane work item onto Meridian's fields (plane-mapping.ts), no database.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { issueFields } from './plane-mapping';

const ids = {
  states: new Map([['src-state', 'state-1']]),
  labels: new Map([
    ['src-bug', 'label-bug'],
    ['src-ui', 'label-ui'],
  ]),
  points: new Map([['src-point', 'point-3']]),
};
const people = new Map([
  ['src-ada', 'user-ada'],
  ['src-bob', 'user-bob'],
]);
const user = (id: unknown) => (typeof id === 'string' ? (people.get(id) ?? null) : null);

describe('the importer’s mapping of a Plane work item (issueFields)', () => {
  it('maps the state, estimate point, labels and assignees through the ids imported, and keeps the plain fields', () => {
    assert.deepEqual(
      issueFields(
        {
          description_html: '<p>Body</p>',
          priority: 'high',
          state: 'src-state',
          estimate_point: 'src-point',
          start_date: '2025-01-01',
          target_date: '2025-02-01',
          assignees: ['src-ada', 'src-bob'],
          labels: ['src-ui', 'src-bug'],
        },
        ids,
        user,
      ),
      {
        description_html: '<p>Body</p>',
        priority: 'high',
        state: 'state-1',
        estimate_point: 'point-3',
        start_date: '2025-01-01',
        target_date: '2025-02-01',
        assignees: ['user-ada', 'user-bob'],
        labels: ['label-ui', 'label-bug'],
      },
    );
  });

  it('takes assignees and labels as ids or as expanded objects', () => {
    const fields = issueFields(
      { assignees: [{ id: 'src-bob', display_name: 'bob' }, 'src-ada'], labels: [{ id: 'src-bug', name: 'Bug' }] },
      ids,
      user,
    );
    assert.deepEqual(fields.assignees, ['user-bob', 'user-ada']);
    assert.deepEqual(fields.labels, ['label-bug']);
  });

  it('drops what was not imported instead of failing: an unknown state, point, label or person; blanks get defaults', () => {
    const fields = issueFields(
      {
        description_html: '',
        state: 'src-unknown',
        estimate_point: 'src-unknown',
        assignees: ['src-stranger', null, { name: 'no id' }],
        labels: ['src-unknown', 'src-bug'],
      },
      ids,
      user,
    );
    assert.equal(fields.description_html, '<p></p>');
    assert.equal(fields.state, undefined, 'undefined: the project’s default state');
    assert.equal(fields.estimate_point, null);
    assert.deepEqual(fields.assignees, []);
    assert.deepEqual(fields.labels, ['label-bug']);
    const bare = issueFields({}, ids, user);
    assert.deepEqual(
      [bare.start_date, bare.target_date, bare.state, bare.estimate_point, bare.assignees, bare.labels],
      [null, null, undefined, null, [], []],
    );
  });
});
