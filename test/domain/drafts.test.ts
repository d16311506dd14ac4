import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CycleService, DraftService, ModuleService } from '#domain';
import type { DomainContext } from '../support/domain-context';
import { addWorkspaceMember, domainSuite, ProjectContext, rejectsWith, Seeded } from '../support/domain-fixtures';

describe('domain: draft rules (DraftService): private to their creator, checked against the project, published whole or not at all', () => {
  let d: DomainContext;
  let drafts: DraftService;
  let p: Seeded;
  let other: Seeded;
  let me: { workspaceId: string; userId: string };
  let ctx: ProjectContext;
  domainSuite({ projects: 2 }, (s) => {
    ({
      d,
      seeded: [p, other],
    } = s);
    drafts = d.get(DraftService);
    me = { workspaceId: p.workspaceId, userId: p.userId };
    ctx = { ...me, projectId: p.projectId, role: 20 };
  });

  const issuesNamed = (name: string) =>
    d.sql<{ id: string }>('SELECT id FROM issues WHERE project_id = $1 AND name = $2 AND deleted_at IS NULL', [
      p.projectId,
      name,
    ]);
  const stateOf = async (projectId: string) =>
    (
      await d.sql<{ id: string }>('SELECT id FROM states WHERE project_id = $1 AND deleted_at IS NULL LIMIT 1', [
        projectId,
      ])
    )[0].id;

  it("a draft is its creator's alone; its project fields must be the project's", async () => {
    const draft = await drafts.create(me, { name: 'Mine' });
    const mate = await addWorkspaceMember(d, p.workspaceId, p, 20);
    await rejectsWith(
      drafts.retrieve({ workspaceId: p.workspaceId, userId: mate.userId }, draft.id as string),
      'NOT_FOUND',
    );
    const err = await rejectsWith(
      drafts.create(me, { name: 'Wrong state', project_id: p.projectId, state_id: await stateOf(other.projectId) }),
      'VALIDATION_ERROR',
    );
    assert.ok('state_id' in (err.extra.errors as object));
    await rejectsWith(
      drafts.create(me, { name: 'No project', state_id: await stateOf(p.projectId) }),
      'VALIDATION_ERROR',
    );
  });

  it('publishing needs a project; a refused publish leaves the draft and creates nothing', async () => {
    const loose = await drafts.create(me, { name: 'Loose' });
    await rejectsWith(drafts.publish(me, loose.id as string, {}), 'DRAFT_PROJECT_REQUIRED');
    const cycles = d.get(CycleService);
    const cycle = await cycles.create(ctx, { name: 'Sprint', start_date: '2099-01-01', end_date: '2099-01-14' });
    const planned = await drafts.create(me, { name: 'Planned', project_id: p.projectId, cycle_id: cycle.id as string });
    await cycles.update(ctx, cycle.id as string, { start_date: '2020-01-01', end_date: '2020-01-14' });
    await rejectsWith(drafts.publish(me, planned.id as string, {}), 'CYCLE_COMPLETED');
    assert.deepEqual(await issuesNamed('Planned'), [], 'no work item was created');
    assert.equal((await drafts.retrieve(me, planned.id as string)).name, 'Planned');
  });

  it('publish creates the work item with the body over the stored fields, its modules, and removes the draft', async () => {
    const module = await d.get(ModuleService).create(ctx, { name: 'Launch' });
    const draft = await drafts.create(me, {
      name: 'Draft name',
      priority: 'low',
      project_id: p.projectId,
      module_ids: [module.id as string],
    });
    const issue = await drafts.publish(me, draft.id as string, { name: 'Published name' });
    assert.equal(issue.name, 'Published name');
    assert.equal(issue.priority, 'low');
    const [{ id }] = await issuesNamed('Published name');
    const links = await d.sql(
      'SELECT 1 FROM module_issues WHERE issue_id = $1 AND module_id = $2 AND deleted_at IS NULL',
      [id, module.id],
    );
    assert.equal(links.length, 1);
    await rejectsWith(drafts.retrieve(me, draft.id as string), 'NOT_FOUND');
    await rejectsWith(drafts.publish(me, draft.id as string, {}), 'NOT_FOUND');
  });
});
