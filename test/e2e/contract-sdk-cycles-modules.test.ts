import { PlaneClient } from '@makeplane/plane-node-sdk';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, createApiKey, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Contract test: Plane's official Node SDK (@makeplane/plane-node-sdk 0.2.12), unmodified, against a
 * listening Meridian: every `client.cycles` and `client.modules` method that Plane's community
 * edition serves (`plane-node-sdk/dist/api/Cycles.js`, `Modules.js`; `listLite` is Cloud/EE only) is
 * called and its result asserted.
 */
describe('contract: @makeplane/plane-node-sdk 0.2.12, cycles and modules', () => {
  let t: TestApp;
  let client: PlaneClient;
  let slug: string;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;
  const items: string[] = [];

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    const ws = await createWorkspace(t, owner.token);
    slug = ws.slug;
    other = await signUp(t);
    await addMember(t, ws.id, other.userId, 15);
    const apiKey = await createApiKey(t, owner.token, slug);
    client = new PlaneClient({ baseUrl: t.url, apiKey });
    const project = await client.projects.create(slug, { name: 'Planning', identifier: 'PLAN' } as never);
    projectId = project.id;
    for (const name of ['one', 'two', 'three'])
      items.push((await client.workItems.create(slug, projectId, { name })).id);
  });
  after(() => t.close());

  it('cycles: create, retrieve, update, list, addWorkItemsToCycle, listWorkItemsInCycle, removeWorkItemFromCycle, delete', async () => {
    const created = await client.cycles.create(slug, projectId, {
      name: 'Sprint 1',
      start_date: '2030-01-01',
      end_date: '2030-01-14',
      owned_by: owner.userId,
      project_id: projectId,
    });
    assert.equal(created.name, 'Sprint 1');
    assert.equal(created.owned_by, owner.userId);
    assert.equal(created.project, projectId);
    assert.equal(created.start_date, '2030-01-01T00:00:00.000Z');
    assert.equal(created.end_date, '2030-01-14T23:59:59.000Z');
    const got = await client.cycles.retrieve(slug, projectId, created.id);
    assert.equal(got.id, created.id);
    const upd = await client.cycles.update(slug, projectId, created.id, {
      name: 'Sprint 1b',
      description: 'first',
    } as never);
    assert.equal(upd.name, 'Sprint 1b');
    assert.equal(upd.description, 'first');
    const list = await client.cycles.list(slug, projectId);
    assert.equal(list.total_count, 1);
    assert.equal(list.results[0].id, created.id);
    const links = (await client.cycles.addWorkItemsToCycle(slug, projectId, created.id, [
      items[0],
      items[1],
    ])) as unknown as Array<{ issue: string; cycle: string }>;
    assert.deepEqual(links.map((l) => l.issue).sort(), [items[0], items[1]].sort());
    assert.ok(links.every((l) => l.cycle === created.id));
    assert.equal(
      ((await client.cycles.retrieve(slug, projectId, created.id)) as unknown as { total_issues: number }).total_issues,
      2,
    );
    const inCycle = await client.cycles.listWorkItemsInCycle(slug, projectId, created.id);
    assert.deepEqual(inCycle.results.map((w) => w.id).sort(), [items[0], items[1]].sort());
    assert.ok(inCycle.results.every((w) => typeof w.sequence_id === 'number'));
    const paged = await client.cycles.listWorkItemsInCycle(slug, projectId, created.id, { per_page: 1 });
    assert.equal(paged.results.length, 1);
    assert.equal(paged.total_count, 2);
    await client.cycles.removeWorkItemFromCycle(slug, projectId, created.id, items[0]);
    const after1 = await client.cycles.listWorkItemsInCycle(slug, projectId, created.id);
    assert.deepEqual(
      after1.results.map((w) => w.id),
      [items[1]],
    );
    const activity = await client.workItems.activities.list(slug, projectId, items[0]);
    assert.deepEqual(
      activity.results.filter((a) => a.field === 'cycles').map((a) => a.verb),
      ['updated', 'deleted'],
    );
    await client.cycles.delete(slug, projectId, created.id);
    await assert.rejects(
      client.cycles.retrieve(slug, projectId, created.id),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
  });

  it('cycles: transferWorkItemsToAnotherCycle, archive, listArchived, unArchive; the rules on ended cycles surface as HttpError 400', async () => {
    const ended = await client.cycles.create(slug, projectId, {
      name: 'Ended',
      start_date: '2020-01-01',
      end_date: '2020-01-14',
      owned_by: owner.userId,
      project_id: projectId,
    });
    const next = await client.cycles.create(slug, projectId, {
      name: 'Next',
      start_date: '2031-01-01',
      end_date: '2031-01-14',
      owned_by: owner.userId,
      project_id: projectId,
    });
    await assert.rejects(
      client.cycles.addWorkItemsToCycle(slug, projectId, ended.id, [items[2]]),
      (err: { statusCode?: number }) => err.statusCode === 400,
    );
    await t.sql(
      'INSERT INTO cycle_issues (workspace_id, project_id, cycle_id, issue_id) SELECT workspace_id, project_id, $1, id FROM issues WHERE id = $2',
      [ended.id, items[2]],
    );
    await assert.rejects(
      client.cycles.archive(slug, projectId, next.id),
      (err: { statusCode?: number }) => err.statusCode === 400,
    );
    await client.cycles.transferWorkItemsToAnotherCycle(slug, projectId, ended.id, { new_cycle_id: next.id });
    const moved = await client.cycles.listWorkItemsInCycle(slug, projectId, next.id);
    assert.deepEqual(
      moved.results.map((w) => w.id),
      [items[2]],
    );
    assert.equal(await client.cycles.archive(slug, projectId, ended.id), '');
    const archived = await client.cycles.listArchived(slug, projectId);
    assert.deepEqual(
      archived.results.map((c) => c.id),
      [ended.id],
    );
    assert.ok(archived.results[0].archived_at);
    assert.ok(!(await client.cycles.list(slug, projectId)).results.some((c) => c.id === ended.id));
    await client.cycles.unArchive(slug, projectId, ended.id);
    assert.equal((await client.cycles.retrieve(slug, projectId, ended.id)).archived_at, null);
    assert.equal((await client.cycles.listArchived(slug, projectId)).total_count, 0);
  });

  it('modules: create, retrieve, update, list, addWorkItemsToModule, listWorkItemsInModule, removeWorkItemFromModule', async () => {
    const created = await client.modules.create(slug, projectId, {
      name: 'Auth',
      description: 'sign in',
      status: 'backlog',
      lead: other.userId,
      members: [owner.userId],
      start_date: '2030-01-01',
      target_date: '2030-03-01',
    });
    assert.equal(created.name, 'Auth');
    assert.equal(created.status, 'backlog');
    assert.equal(created.lead, other.userId);
    assert.deepEqual(created.members, [owner.userId]);
    assert.equal(created.start_date, '2030-01-01');
    assert.equal((await client.modules.retrieve(slug, projectId, created.id)).id, created.id);
    const upd = await client.modules.update(slug, projectId, created.id, { status: 'in-progress', name: 'Auth v2' });
    assert.equal(upd.status, 'in-progress');
    assert.equal(upd.name, 'Auth v2');
    const list = await client.modules.list(slug, projectId);
    assert.equal(list.total_count, 1);
    assert.equal(list.results[0].id, created.id);
    await client.modules.addWorkItemsToModule(slug, projectId, created.id, [items[0], items[1]]);
    const inModule = await client.modules.listWorkItemsInModule(slug, projectId, created.id);
    assert.deepEqual(inModule.results.map((w) => w.id).sort(), [items[0], items[1]].sort());
    await client.modules.removeWorkItemFromModule(slug, projectId, created.id, items[1]);
    assert.deepEqual(
      (await client.modules.listWorkItemsInModule(slug, projectId, created.id)).results.map((w) => w.id),
      [items[0]],
    );
    const activity = await client.workItems.activities.list(slug, projectId, items[1]);
    assert.deepEqual(
      activity.results.filter((a) => a.field === 'modules').map((a) => a.verb),
      ['updated', 'deleted'],
    );
  });

  it('modules: archiveModule (completed or cancelled only), listArchivedModules, unArchiveModule, delete', async () => {
    const m = await client.modules.create(slug, projectId, { name: 'Billing', status: 'in-progress' });
    await assert.rejects(
      client.modules.archiveModule(slug, projectId, m.id),
      (err: { statusCode?: number }) => err.statusCode === 400,
    );
    await client.modules.update(slug, projectId, m.id, { status: 'completed' });
    assert.equal(await client.modules.archiveModule(slug, projectId, m.id), '');
    const archived = await client.modules.listArchivedModules(slug, projectId);
    assert.deepEqual(
      archived.results.map((x) => x.id),
      [m.id],
    );
    assert.ok(archived.results[0].archived_at);
    await client.modules.unArchiveModule(slug, projectId, m.id);
    assert.equal((await client.modules.retrieve(slug, projectId, m.id)).archived_at, null);
    await client.modules.delete(slug, projectId, m.id);
    await assert.rejects(
      client.modules.retrieve(slug, projectId, m.id),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
    assert.equal((await client.modules.listArchivedModules(slug, projectId)).total_count, 0);
  });
});
