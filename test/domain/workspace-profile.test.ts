import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { IssueCommandService, WorkspaceProfileService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: a member’s profile pages (WorkspaceProfileService): members only, the viewer’s projects only', () => {
  let d: DomainContext;
  let profiles: WorkspaceProfileService;
  let p: Seeded;
  let other: Seeded;
  domainSuite({ projects: 2 }, async (s) => {
    ({ d, p, other } = s);
    profiles = d.get(WorkspaceProfileService);
    const issues = d.get(IssueCommandService);
    await issues.create(p.ctx, { name: 'Mine urgent', priority: 'urgent', assignees: [p.userId] });
    await issues.create(p.ctx, { name: 'Mine low', priority: 'low', assignees: [p.userId] });
    await issues.create(p.ctx, { name: 'Mine urgent too', priority: 'urgent' });
    await issues.create(p.ctx, { name: 'Mine high', priority: 'high', assignees: [p.userId] });
  });

  it('a user who never was a member of the workspace, or an unknown one, is NOT_FOUND', async () => {
    const admin = { userId: p.userId, role: 20 };
    await rejectsWith(profiles.profile(p.workspaceId, admin, other.userId), 'NOT_FOUND');
    await rejectsWith(profiles.profile(p.workspaceId, admin, randomUUID()), 'NOT_FOUND');
    const own = await profiles.profile(p.workspaceId, admin, p.userId);
    assert.equal(own.user_data.email, p.email);
    assert.deepEqual(
      own.project_data.map((r) => r.id),
      [p.projectId],
    );
  });

  it('a Guest sees no email but their own and no project counts; a member outside the project sees none of it', async () => {
    const guest = await addWorkspaceMember(d, p.workspaceId, p, 5);
    const seen = await profiles.profile(p.workspaceId, { userId: guest.userId, role: 5 }, p.userId);
    assert.equal(seen.user_data.email, '');
    assert.deepEqual(seen.project_data, []);
    assert.equal(
      (await profiles.profile(p.workspaceId, { userId: guest.userId, role: 5 }, guest.userId)).user_data.email,
      guest.email,
    );
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 15);
    const byMate = await profiles.profile(p.workspaceId, { userId: mate.userId, role: 15 }, p.userId);
    assert.equal(byMate.user_data.email, p.email);
    assert.deepEqual(byMate.project_data, [], 'the mate is in none of the owner’s projects');
    const stats = await profiles.stats(p.workspaceId, mate.userId, p.userId, {});
    assert.equal(stats.created_issues, 0);
    const activity = await profiles.workspaceActivity(
      p.workspaceId,
      mate.userId,
      p.userId,
      { perPage: 50 },
      { asc: false },
    );
    assert.deepEqual(activity.results, []);
  });

  it('stats count the user’s created and assigned work items, the assigned ones by priority in Plane’s order, with the filters', async () => {
    const stats = await profiles.stats(p.workspaceId, p.userId, p.userId, {});
    assert.equal(stats.created_issues, 4);
    assert.equal(stats.assigned_issues, 3);
    assert.equal(stats.completed_issues, 0);
    assert.deepEqual(
      stats.priority_distribution.map((r) => [r.priority, r.priority_count]),
      [
        ['urgent', 1],
        ['high', 1],
        ['low', 1],
      ],
    );
    const lowOnly = await profiles.stats(p.workspaceId, p.userId, p.userId, { priority: ['low'] });
    assert.equal(lowOnly.created_issues, 1);
  });

  it('the activity is newest first (oldest with asc) and the CSV of a day has the header and a row per entry', async () => {
    const newest = await profiles.workspaceActivity(p.workspaceId, p.userId, p.userId, { perPage: 50 }, { asc: false });
    assert.ok(newest.results.length >= 4);
    const oldest = await profiles.workspaceActivity(p.workspaceId, p.userId, p.userId, { perPage: 50 }, { asc: true });
    assert.deepEqual(
      oldest.results.map((r) => r.id),
      [...newest.results.map((r) => r.id)].reverse(),
    );
    const none = await profiles.workspaceActivity(
      p.workspaceId,
      p.userId,
      p.userId,
      { perPage: 50 },
      { asc: false, projectIds: [randomUUID()] },
    );
    assert.deepEqual(none.results, []);
    const [{ day }] = await d.sql<{ day: string }>(
      "SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day FROM issue_activities WHERE actor_id = $1 LIMIT 1",
      [p.userId],
    );
    const csv = await profiles.exportActivity(p.workspaceId, p.userId, p.userId, day);
    const lines = csv.split('\r\n').filter(Boolean);
    assert.equal(
      lines[0],
      '"Actor name","Issue ID","Project","Created at","Updated at","Action","Field","Old value","New value"',
    );
    const [{ n }] = await d.sql<{ n: number }>(
      "SELECT COUNT(*)::int AS n FROM issue_activities WHERE actor_id = $1 AND to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') = $2",
      [p.userId, day],
    );
    assert.equal(lines.length, n + 1);
    assert.equal(await profiles.exportActivity(p.workspaceId, other.userId, p.userId, day), lines[0] + '\r\n');
  });
});
