import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { AnalyticsService, IssueCommandService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: analytics rules (AnalyticsService): valid charts, the caller’s projects only, saved charts of the workspace', () => {
  let d: DomainContext;
  let analytics: AnalyticsService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, (s) => {
    ({ d, p, other } = s);
    analytics = d.get(AnalyticsService);
  });

  it('a chart needs a valid x_axis and y_axis; a segment must be another axis', async () => {
    await rejectsWith(
      Promise.resolve().then(() => analytics.checkChart({ y_axis: 'issue_count' })),
      'ANALYTICS_AXIS_INVALID',
    );
    await rejectsWith(
      Promise.resolve().then(() => analytics.checkChart({ x_axis: 'priority', y_axis: 'nonsense' })),
      'ANALYTICS_AXIS_INVALID',
    );
    await rejectsWith(
      Promise.resolve().then(() => analytics.checkChart({ x_axis: 'name', y_axis: 'issue_count' })),
      'ANALYTICS_AXIS_INVALID',
    );
    await rejectsWith(
      Promise.resolve().then(() =>
        analytics.checkChart({ x_axis: 'priority', y_axis: 'issue_count', segment: 'priority' }),
      ),
      'ANALYTICS_SEGMENT_INVALID',
    );
    assert.deepEqual(analytics.checkChart({ x_axis: 'priority', y_axis: 'estimate', segment: '' }), {
      x: 'priority',
      y: 'estimate',
      segment: undefined,
    });
    // the export's spelling of the estimate axis is the same axis
    assert.equal(
      analytics.checkChart({ x_axis: 'estimate_point', y_axis: 'issue_count' }, 'estimate_point').x,
      'estimate_point__value',
    );
  });

  it('counts the caller’s projects only, priorities in Plane’s order; a member outside the project counts nothing', async () => {
    const make = (s: Seeded, name: string, priority: string) =>
      d.get(IssueCommandService).create(s.ctx, { name, priority: priority as never });
    await make(p, 'a', 'urgent');
    await make(p, 'b', 'low');
    await make(p, 'c', 'low');
    await make(p, 'd', 'none');
    await make(other, 'theirs', 'high');
    const chart = analytics.checkChart({ x_axis: 'priority', y_axis: 'issue_count' });
    const mine = await analytics.chart({ workspaceId: p.workspaceId, viewerId: p.userId, filters: {} }, chart);
    assert.equal(mine.total, 4);
    assert.deepEqual(Object.keys(mine.distribution), ['low', 'urgent', 'none']);
    assert.equal(mine.distribution.low[0].count, 2);
    assert.equal('high' in mine.distribution, false, 'another workspace’s work item is not counted');
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    const theirs = await analytics.chart({ workspaceId: p.workspaceId, viewerId: mate.userId, filters: {} }, chart);
    assert.equal(theirs.total, 0);
    assert.deepEqual(theirs.distribution, {});
    const csv = await analytics.chartCsv({ workspaceId: p.workspaceId, viewerId: p.userId, filters: {} }, chart);
    assert.equal(csv, '"Priority","Issue Count"\r\n"low","2"\r\n"urgent","1"\r\n"none","1"\r\n');
  });

  it('project stats refuse an id that is not a UUID and leave out projects the caller is not in', async () => {
    await rejectsWith(
      Promise.resolve().then(() => analytics.projectStats(p.workspaceId, p.userId, 'total_issues', 'not-a-uuid')),
      'INVALID_QUERY_PARAMETER',
    );
    const rows = (await analytics.projectStats(p.workspaceId, p.userId, 'total_issues,bogus', undefined)) as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(
      rows.map((r) => r.id),
      [p.projectId],
    );
    assert.deepEqual(Object.keys(rows[0]).sort(), ['id', 'total_issues']);
    const foreign = (await analytics.projectStats(p.workspaceId, p.userId, undefined, other.projectId)) as unknown[];
    assert.deepEqual(foreign, []);
  });

  it('saved charts: a bad filter is 422 with nothing saved; another workspace’s chart is NOT_FOUND; a deleted one is gone', async () => {
    const bad = await rejectsWith(
      analytics.createView(p.workspaceId, p.userId, { name: 'Bad', query_dict: { priority: ['sky-high'] } }),
      'VALIDATION_ERROR',
    );
    assert.ok('filters' in (bad.extra.errors as object));
    assert.deepEqual(await analytics.listViews(p.workspaceId), []);
    const view = await analytics.createView(p.workspaceId, p.userId, {
      name: 'By priority',
      query_dict: { x_axis: 'priority', y_axis: 'issue_count', priority: ['low'] },
    });
    assert.equal((await analytics.getView(p.workspaceId, view.id)).name, 'By priority');
    await rejectsWith(analytics.getView(other.workspaceId, view.id), 'NOT_FOUND');
    await rejectsWith(analytics.updateView(other.workspaceId, view.id, other.userId, { name: 'Mine' }), 'NOT_FOUND');
    await rejectsWith(analytics.deleteView(other.workspaceId, view.id), 'NOT_FOUND');
    await rejectsWith(analytics.getView(p.workspaceId, randomUUID()), 'NOT_FOUND');
    // the saved chart applies its filters
    const saved = await analytics.savedChart({ workspaceId: p.workspaceId, viewerId: p.userId }, view.id, undefined);
    assert.deepEqual(Object.keys(saved.distribution), ['low']);
    const noAxes = await analytics.createView(p.workspaceId, p.userId, { name: 'No axes', query_dict: {} });
    await rejectsWith(
      analytics.savedChart({ workspaceId: p.workspaceId, viewerId: p.userId }, noAxes.id, undefined),
      'ANALYTICS_AXIS_INVALID',
    );
    await analytics.deleteView(p.workspaceId, view.id);
    await rejectsWith(analytics.getView(p.workspaceId, view.id), 'NOT_FOUND');
    assert.deepEqual(
      (await analytics.listViews(p.workspaceId)).map((v) => v.id),
      [noAxes.id],
    );
  });
});
