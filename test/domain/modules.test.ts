import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, it } from 'node:test';
import { IssueCommandService, ModuleService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: module rules (ModuleService): names, dates, lead, members, archive, work items', () => {
  let d: DomainContext;
  let modules: ModuleService;
  let p: Seeded;
  let other: Seeded;
  let ctx: ProjectContext;
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, other],
    } = s);
    modules = d.get(ModuleService);
    ctx = p.ctx;
  });

  const modulesOf = async (issueId: string) =>
    (
      await d.sql<{ module_id: string }>(
        'SELECT module_id FROM module_issues WHERE issue_id = $1 AND deleted_at IS NULL ORDER BY module_id',
        [issueId],
      )
    ).map((r) => r.module_id);

  it('a name is one per project (trimmed), with the holder named; free in another project', async () => {
    const first = await modules.create(ctx, { name: 'Billing' });
    assert.equal(first.status, 'planned');
    const taken = await rejectsWith(modules.create(ctx, { name: ' Billing ' }), 'MODULE_NAME_TAKEN');
    assert.equal(taken.extra.id, first.id);
    const second = await modules.create(ctx, { name: 'Search' });
    await rejectsWith(modules.update(ctx, second.id, { name: 'Billing' }), 'MODULE_NAME_TAKEN');
    await modules.create(
      { workspaceId: other.workspaceId, projectId: other.projectId, userId: other.userId },
      { name: 'Billing' },
    );
  });

  it('start after target is 422; the lead must be a workspace member; members are filtered to the project', async () => {
    const dates = await rejectsWith(
      modules.create(ctx, { name: 'Backwards', start_date: '2099-02-01', target_date: '2099-01-01' }),
      'VALIDATION_ERROR',
    );
    assert.deepEqual(dates.extra.errors, { start_date: ['Start date cannot exceed target date.'] });
    const ok = await modules.create(ctx, { name: 'Dated', start_date: '2099-01-01', target_date: '2099-02-01' });
    // the update checks the stored target against the new start
    await rejectsWith(modules.update(ctx, ok.id, { start_date: '2099-03-01' }), 'VALIDATION_ERROR');
    await rejectsWith(modules.create(ctx, { name: 'Led', lead: other.userId }), 'VALIDATION_ERROR');
    const led = await modules.create(ctx, {
      name: 'Led',
      lead: p.userId,
      members: [p.userId, other.userId, randomUUID()],
    });
    assert.equal(led.lead, p.userId);
    const members = await d.sql<{ member_id: string }>('SELECT member_id FROM module_members WHERE module_id = $1', [
      led.id,
    ]);
    assert.deepEqual(
      members.map((m) => m.member_id),
      [p.userId],
    );
  });

  it('only a completed or cancelled module can be archived; an archived one refuses changes and work items', async () => {
    const m = await modules.create(ctx, { name: 'To archive' });
    await rejectsWith(modules.archive(ctx, m.id), 'MODULE_NOT_ARCHIVABLE');
    await modules.update(ctx, m.id, { status: 'in-progress' });
    await rejectsWith(modules.archive(ctx, m.id), 'MODULE_NOT_ARCHIVABLE');
    await modules.update(ctx, m.id, { status: 'completed' });
    await modules.archive(ctx, m.id);
    await rejectsWith(modules.retrieve(p.projectId, m.id), 'NOT_FOUND');
    assert.equal((await modules.retrieveArchived(p.projectId, m.id)).id, m.id);
    await rejectsWith(modules.update(ctx, m.id, { name: 'Renamed' }), 'MODULE_ARCHIVED');
    const item = await d.get(IssueCommandService).create(ctx, { name: 'Late' });
    await rejectsWith(modules.addIssues(ctx, m.id, [item.id as string]), 'MODULE_ARCHIVED');
    await modules.unarchive(ctx, m.id);
    await modules.addIssues(ctx, m.id, [item.id as string]);
    assert.deepEqual(await modulesOf(item.id as string), [m.id]);
  });

  it('a work item may be in several modules; setIssueModules adds and removes in one go, with history', async () => {
    const a = await modules.create(ctx, { name: 'Alpha' });
    const b = await modules.create(ctx, { name: 'Beta' });
    const item = await d.get(IssueCommandService).create(ctx, { name: 'Shared' });
    const id = item.id as string;
    await modules.addIssues(ctx, a.id, [id]);
    await modules.addIssues(ctx, a.id, [id]); // already in: skipped
    await modules.addIssues(ctx, b.id, [id]);
    assert.deepEqual(await modulesOf(id), [a.id, b.id].sort());
    await modules.setIssueModules(ctx, id, [], [a.id]);
    assert.deepEqual(await modulesOf(id), [b.id]);
    await rejectsWith(modules.removeIssue(ctx, a.id, id), 'NOT_FOUND');
    const history = await d.sql<{ verb: string }>(
      "SELECT verb FROM issue_activities WHERE issue_id = $1 AND field = 'modules' ORDER BY created_at",
      [id],
    );
    assert.equal(history.length, 3, 'added a, added b, removed a');
    // a foreign work item is refused, and nothing is added
    const foreign = await d.get(IssueCommandService).create(other.ctx, { name: 'X' });
    await rejectsWith(modules.addIssues(ctx, b.id, [foreign.id as string]), 'VALIDATION_ERROR');
    assert.deepEqual(await modulesOf(foreign.id as string), []);
  });

  it('deleting: only the creator or a project Admin; the work items leave the module', async () => {
    const m = await modules.create(ctx, { name: 'Doomed' });
    const item = await d.get(IssueCommandService).create(ctx, { name: 'Member of doomed' });
    await modules.addIssues(ctx, m.id, [item.id as string]);
    await rejectsWith(modules.remove({ ...ctx, userId: randomUUID(), role: 15 }, m.id), 'PERMISSION_DENIED');
    await modules.remove(ctx, m.id);
    await rejectsWith(modules.retrieve(p.projectId, m.id), 'NOT_FOUND');
    assert.deepEqual(await modulesOf(item.id as string), []);
  });
});
