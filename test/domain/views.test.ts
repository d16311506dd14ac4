import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { AppProjectService, IssueCommandService, ViewService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: saved view rules (ViewService): checked filters, owner-only changes, lock, access, the filtered list', () => {
  let d: DomainContext;
  let views: ViewService;
  let p: Seeded;
  let owner: ProjectContext;
  let member: typeof owner;
  domainSuite({ projects: 1 }, async (s) => {
    ({
      d,
      seeded: [p],
    } = s);
    views = d.get(ViewService);
    owner = p.ctx;
    const m = await addWorkspaceMember(d, p.workspaceId, p, 15);
    await d.get(AppProjectService).join(p.workspaceId, { userId: m.userId, workspaceRole: 15 }, [p.projectId]);
    member = { ...owner, userId: m.userId, role: 15 };
  });

  it("filters are checked on write (Plane's values, as given) and stored with Plane's query", async () => {
    const bad = await rejectsWith(
      views.create(owner, { name: 'Loud', filters: { priority: ['HIGH'] } }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(bad.extra.errors, { filters: ['priority has a value that is not valid.'] });
    await rejectsWith(
      views.create(owner, { name: 'Dates', filters: { start_date: ['2025-13-01;after'] } }),
      'VALIDATION_ERROR',
    );
    const ok = await views.create(owner, {
      name: 'Urgent, no cycle',
      filters: { priority: ['urgent'], cycle: ['None'], target_date: ['2_weeks;after;fromnow'] },
    });
    const [row] = await d.sql<{ query: Record<string, unknown> }>('SELECT query FROM issue_views WHERE id = $1', [
      ok.id,
    ]);
    assert.deepEqual(row.query.priority__in, ['urgent']);
    assert.deepEqual(row.query.issue_cycle__cycle_id__in, ['None']);
    assert.match(String(row.query.target_date__gte), /^\d{4}-\d{2}-\d{2}$/);
  });

  it('only the owner changes a view, and not while it is locked unless the change unlocks it', async () => {
    const view = await views.create(owner, { name: 'Mine' });
    const id = view.id as string;
    await rejectsWith(views.update(member, id, { name: 'Theirs' }), 'PERMISSION_DENIED');
    await views.update(owner, id, { is_locked: true });
    await rejectsWith(views.update(owner, id, { name: 'Renamed' }), 'VIEW_LOCKED');
    assert.equal((await views.update(owner, id, { name: 'Renamed', is_locked: false })).name, 'Renamed');
  });

  it('a private view is hidden from others; the owner or an Admin deletes, a Member who is not the owner may not', async () => {
    const hidden = await views.create(owner, { name: 'Private', access: 0 });
    await rejectsWith(views.retrieve(member, hidden.id as string), 'NOT_FOUND');
    const theirs = await views.create(member, { name: 'Member view' });
    await rejectsWith(
      views.remove({ ...member, userId: p.userId, role: 15 }, theirs.id as string),
      'PERMISSION_DENIED',
    );
    await views.remove(owner, theirs.id as string);
    await rejectsWith(views.retrieve(member, theirs.id as string), 'NOT_FOUND');
  });

  it("the view's work items are the list with its filters; a filter in the query replaces the view's", async () => {
    const commands = d.get(IssueCommandService);
    const high = await commands.create(owner, { name: 'High one', priority: 'high' });
    const low = await commands.create(owner, { name: 'Low one', priority: 'low' });
    const view = await views.create(owner, { name: 'High', filters: { priority: ['high'] } });
    const ids = async (query: Record<string, unknown>) =>
      (
        (await views.listIssues(
          owner,
          view.id as string,
          {
            page: { perPage: 100, number: 0 },
            shape: { expand: new Set<string>() },
            view: 'app',
            ...query,
          } as never,
        )) as { results: Array<{ id: string }> }
      ).results.map((r) => r.id);
    assert.deepEqual(await ids({}), [high.id]);
    assert.deepEqual(await ids({ priority: ['low'] }), [low.id]);
  });
});
