import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { EstimateService, IssueCommandService, ProjectService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: estimate rules (EstimateService, and the kernel check work items use)', () => {
  let d: DomainContext;
  let estimates: EstimateService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, other],
    } = s);
    estimates = d.get(EstimateService);
  });

  const pointOf = async (issueId: string) =>
    (
      await d.sql<{ estimate_point_id: string | null }>('SELECT estimate_point_id FROM issues WHERE id = $1', [issueId])
    )[0].estimate_point_id;

  it('one estimate per project; its type never changes; points of a points estimate are numbers with free keys', async () => {
    const ctx = p.ctx;
    const e = await estimates.create(ctx, { name: 'Story points', type: 'points' });
    const again = await rejectsWith(estimates.create(ctx, { name: 'Second', type: 'points' }), 'ESTIMATE_EXISTS');
    assert.equal(again.extra.id, e.id);
    await rejectsWith(estimates.update(ctx, { type: 'categories' }), 'VALIDATION_ERROR');
    const bad = await rejectsWith(
      estimates.createPoints(ctx, e.id as string, [{ value: '3' }, { value: 'large' }]),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(bad.extra.errors, { 'estimate_points.1.value': ['A points estimate takes numbers only.'] });
    assert.deepEqual(await estimates.listPoints(p.projectId, e.id as string), [], 'all or none');
    const [one, two] = await estimates.createPoints(ctx, e.id as string, [{ value: '1' }, { value: '2' }]);
    assert.deepEqual([one.key, two.key], [0, 1]);
    await rejectsWith(
      estimates.createPoints(ctx, e.id as string, [{ key: 1, value: '5' }]),
      'ESTIMATE_POINT_KEY_TAKEN',
    );
    // another project's estimate is not reachable through this one
    await rejectsWith(estimates.listPoints(other.projectId, e.id as string), 'NOT_FOUND');
  });

  it("a work item's point must belong to the estimate its project uses; removing the point clears it", async () => {
    const ctx = p.ctx;
    const e = await estimates.retrieve(p.projectId);
    const [point] = await estimates.listPoints(p.projectId, e.id as string);
    const commands = d.get(IssueCommandService);
    // the project does not use its estimate yet
    const unused = await rejectsWith(
      commands.create(ctx, { name: 'Too early', estimate_point: point.id as string }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(unused.extra.errors, {
      estimate_point: ['This estimate point is not one of the estimate the project uses.'],
    });
    await d.get(ProjectService).update(p.workspaceId, p.projectId, p.actor, {
      estimate: e.id as string,
    });
    const item = await commands.create(ctx, { name: 'Sized', estimate_point: point.id as string });
    assert.equal(await pointOf(item.id as string), point.id);
    // a point of another project's estimate is refused on update too
    const theirs = await estimates.create(other.ctx, { name: 'Theirs', type: 'points' });
    const [foreign] = await estimates.createPoints(other.ctx, theirs.id as string, [{ value: '8' }]);
    await rejectsWith(
      commands.update(ctx, item.id as string, { estimate_point: foreign.id as string }),
      'VALIDATION_ERROR',
    );
    assert.equal(await pointOf(item.id as string), point.id);

    await estimates.removePoint(ctx, e.id as string, point.id as string);
    assert.equal(await pointOf(item.id as string), null);
    const history = await d.sql("SELECT 1 FROM issue_activities WHERE issue_id = $1 AND field = 'estimate_point'", [
      item.id,
    ]);
    assert.ok(history.length >= 1, 'the cleared point is in the history');
  });
});
