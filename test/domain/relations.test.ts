import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IssueCommandService, IssueRelationService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: relation rules (IssueRelationService): no self, pairs seen from both ends, one per pair', () => {
  let d: DomainContext;
  let relations: IssueRelationService;
  let p: Seeded;
  let other: Seeded;
  let ctx: ProjectContext;
  const item = async (name: string) => (await d.get(IssueCommandService).create(ctx, { name })).id as string;
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, other],
    } = s);
    relations = d.get(IssueRelationService);
    ctx = p.ctx;
  });

  const live = (a: string, b: string) =>
    d.sql<{ relation_type: string; issue_id: string }>(
      `SELECT relation_type, issue_id FROM issue_relations
        WHERE deleted_at IS NULL AND ((issue_id = $1 AND related_issue_id = $2) OR (issue_id = $2 AND related_issue_id = $1))`,
      [a, b],
    );

  it('a work item cannot be related to itself, nor to one the caller cannot reach; nothing is written', async () => {
    const a = await item('Self');
    const err = await rejectsWith(relations.create(ctx, a, 'relates_to', [a.toUpperCase()]), 'VALIDATION_ERROR');
    assert.deepEqual(err.extra.errors, { issues: ['A work item cannot be related to itself.'] });
    const foreign = (await d.get(IssueCommandService).create(other.ctx, { name: 'X' })).id as string;
    const b = await item('Fine');
    await rejectsWith(relations.create(ctx, a, 'relates_to', [b, foreign]), 'VALIDATION_ERROR');
    assert.deepEqual(await live(a, b), [], 'the valid half of a refused request is not kept');
  });

  it('blocking is stored once and read as blocked_by from the other end', async () => {
    const a = await item('Blocker');
    const b = await item('Blocked');
    const mine = await relations.create(ctx, a, 'blocking', [b]);
    assert.deepEqual(mine.blocking, [b]);
    assert.deepEqual(mine.blocked_by, []);
    const theirs = await relations.list(p.projectId, b);
    assert.deepEqual(theirs.blocked_by, [a]);
    assert.deepEqual(theirs.blocking, []);
    assert.deepEqual(await live(a, b), [{ relation_type: 'blocked_by', issue_id: b }]);
    const history = await d.sql(
      'SELECT issue_id FROM issue_activities WHERE field IN ($1, $2) AND issue_id IN ($3, $4)',
      ['blocking', 'blocked_by', a, b],
    );
    assert.equal(history.length, 2, 'one history row on each work item');
  });

  it('a pair has one relation: relating it again with another type replaces it; the same type is a no-op', async () => {
    const a = await item('Start');
    const b = await item('Finish');
    await relations.create(ctx, a, 'start_before', [b]);
    await relations.create(ctx, a, 'start_before', [b]);
    assert.equal((await live(a, b)).length, 1);
    // from the other end: b finish_before a replaces a start_before b
    await relations.create(ctx, b, 'finish_before', [a]);
    assert.deepEqual(await live(a, b), [{ relation_type: 'finish_before', issue_id: b }]);
    assert.deepEqual((await relations.list(p.projectId, a)).finish_after, [b]);
    assert.deepEqual((await relations.list(p.projectId, a)).start_before, []);
  });

  it('removing works from either end; removing what is not there is NOT_FOUND', async () => {
    const a = await item('One');
    const b = await item('Two');
    await relations.create(ctx, a, 'duplicate', [b]);
    await relations.remove(ctx, b, a);
    assert.deepEqual(await live(a, b), []);
    await rejectsWith(relations.remove(ctx, a, b), 'NOT_FOUND');
  });
});
