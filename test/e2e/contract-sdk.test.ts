import { PlaneClient } from '@makeplane/plane-node-sdk';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, createApiKey, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Contract test: Plane's official Node SDK (@makeplane/plane-node-sdk 0.2.12), unmodified, against
 * a listening Meridian. Every SDK method for projects, states, labels, members, work items,
 * comments, links and activities is called and its result asserted (`plane-node-sdk/dist/api/`).
 */
describe('contract: @makeplane/plane-node-sdk 0.2.12', () => {
  let t: TestApp;
  let client: PlaneClient;
  let slug: string;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;
  let stateId: string;
  let labelId: string;
  let workItem: { id: string; sequence_id: number };

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    const ws = await createWorkspace(t, owner.token);
    slug = ws.slug;
    other = await signUp(t);
    await addMember(t, ws.id, other.userId, 15);
    const apiKey = await createApiKey(t, owner.token, slug);
    client = new PlaneClient({ baseUrl: t.url, apiKey });
  });
  after(() => t.close());

  it('users.me and workspace.getMembers', async () => {
    const me = await client.users.me();
    assert.equal(me.id, owner.userId);
    assert.equal(me.email, owner.email);
    const members = await client.workspace.getMembers(slug);
    assert.ok(Array.isArray(members));
    assert.deepEqual(members.map((m) => m.id).sort(), [owner.userId, other.userId].sort());
    assert.equal(members.find((m) => m.id === other.userId)!.role, 15);
  });

  it('projects: create (identifier filled by the SDK), list, retrieve, update, getMembers, archive, unArchive, delete', async () => {
    const created = await client.projects.create(slug, { name: 'Sdk Project' } as never);
    assert.equal(created.identifier, 'SDKPR');
    assert.equal(created.name, 'Sdk Project');
    projectId = created.id;
    const list = await client.projects.list(slug);
    assert.equal(list.total_count, 1);
    assert.equal(list.results[0].id, projectId);
    const got = await client.projects.retrieve(slug, projectId);
    assert.equal(got.id, projectId);
    assert.equal(got.is_member, true);
    const upd = await client.projects.update(slug, projectId, {
      description: 'from the sdk',
      project_lead: other.userId,
    } as never);
    assert.equal(upd.description, 'from the sdk');
    assert.equal(upd.project_lead, other.userId);
    const members = await client.projects.getMembers(slug, projectId);
    assert.deepEqual(members.map((m) => m.id).sort(), [owner.userId, other.userId].sort());
    assert.ok(members.every((m) => m.role === 20));
    assert.equal(await client.projects.archive(slug, projectId), '');
    assert.ok((await client.projects.retrieve(slug, projectId)).archived_at);
    await client.projects.unArchive(slug, projectId);
    assert.equal((await client.projects.retrieve(slug, projectId)).archived_at, null);
    const doomed = await client.projects.create(slug, { name: 'Doomed', identifier: 'DOOM' } as never);
    await client.projects.delete(slug, doomed.id);
    await assert.rejects(
      client.projects.retrieve(slug, doomed.id),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
  });

  it('states: list, create, retrieve, update, delete', async () => {
    const list = await client.states.list(slug, projectId);
    assert.deepEqual(
      list.results.map((s) => s.name),
      ['Backlog', 'Todo', 'In Progress', 'Done', 'Cancelled'],
    );
    const created = await client.states.create(slug, projectId, {
      name: 'Review',
      color: '#abcdef',
      group: 'started',
    } as never);
    assert.equal(created.name, 'Review');
    assert.equal(created.group, 'started');
    stateId = created.id;
    assert.equal((await client.states.retrieve(slug, projectId, stateId)).color, '#abcdef');
    const upd = await client.states.update(slug, projectId, stateId, { name: 'In Review' } as never);
    assert.equal(upd.name, 'In Review');
    const tmp = await client.states.create(slug, projectId, { name: 'Temp', color: '#000000' } as never);
    await client.states.delete(slug, projectId, tmp.id);
    await assert.rejects(
      client.states.retrieve(slug, projectId, tmp.id),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
    await assert.rejects(
      client.states.create(slug, projectId, { name: 'In Review', color: '#1' } as never),
      (err: { statusCode?: number }) => err.statusCode === 409,
    );
  });

  it('labels: create, list, retrieve, update, delete', async () => {
    const created = await client.labels.create(slug, projectId, { name: 'bug', color: '#ff0000', description: 'Bugs' });
    labelId = created.id;
    assert.equal(created.name, 'bug');
    const list = await client.labels.list(slug, projectId);
    assert.deepEqual(
      list.results.map((l) => l.id),
      [labelId],
    );
    assert.equal((await client.labels.retrieve(slug, projectId, labelId)).description, 'Bugs');
    const upd = await client.labels.update(slug, projectId, labelId, { color: '#00ff00' });
    assert.equal(upd.color, '#00ff00');
    const tmp = await client.labels.create(slug, projectId, { name: 'tmp' });
    await client.labels.delete(slug, projectId, tmp.id);
    assert.equal((await client.labels.list(slug, projectId)).total_count, 1);
  });

  it('work items: create, list (with expand), retrieve (expand), retrieveByIdentifier, search, update, delete', async () => {
    const created = await client.workItems.create(slug, projectId, {
      name: 'Sdk item',
      description_html: '<p>hi</p>',
      priority: 'high',
      state: stateId,
      labels: [labelId],
      assignees: [other.userId],
    });
    workItem = created as never;
    assert.equal(created.name, 'Sdk item');
    assert.equal(created.sequence_id, 1);
    assert.equal(created.state, stateId);
    assert.deepEqual(created.labels, [labelId]);
    assert.deepEqual(created.assignees, [other.userId]);
    const list = await client.workItems.list(slug, projectId, { expand: 'state', per_page: 10 });
    assert.equal(list.total_count, 1);
    assert.equal((list.results[0].state as unknown as { name: string }).name, 'In Review');
    const retrieve = client.workItems.retrieve as (
      s: string,
      p: string,
      id: string,
      expand?: string[],
    ) => Promise<Record<string, unknown>>;
    const got = await retrieve.call(client.workItems, slug, projectId, created.id, [
      'state',
      'labels',
      'assignees',
      'project',
    ]);
    assert.equal((got.state as { group: string }).group, 'started');
    assert.equal((got.labels as Array<{ name: string }>)[0].name, 'bug');
    assert.equal((got.assignees as Array<{ id: string }>)[0].id, other.userId);
    assert.equal((got.project as { identifier: string }).identifier, 'SDKPR');
    const byKey = await client.workItems.retrieveByIdentifier(slug, `SDKPR-${created.sequence_id}`);
    assert.equal(byKey.id, created.id);
    const found = await client.workItems.search(slug, 'Sdk', projectId);
    assert.deepEqual(
      found.issues.map((i) => i.id),
      [created.id],
    );
    assert.equal(found.issues[0].project__identifier, 'SDKPR');
    const upd = await client.workItems.update(slug, projectId, created.id, {
      name: 'Sdk item 2',
      priority: 'urgent',
      labels: [],
    });
    assert.equal(upd.name, 'Sdk item 2');
    assert.equal(upd.priority, 'urgent');
    assert.deepEqual(upd.labels, []);
    const tmp = await client.workItems.create(slug, projectId, { name: 'to delete' });
    await client.workItems.delete(slug, projectId, tmp.id);
    await assert.rejects(
      client.workItems.retrieve(slug, projectId, tmp.id),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
  });

  it('work item comments: create, list, retrieve, update, delete', async () => {
    const c = await client.workItems.comments.create(slug, projectId, workItem.id, {
      comment_html: '<p>looks good</p>',
      access: 'INTERNAL',
    });
    assert.equal(c.comment_html, '<p>looks good</p>');
    assert.equal(c.actor, owner.userId);
    const list = await client.workItems.comments.list(slug, projectId, workItem.id);
    assert.deepEqual(
      list.results.map((x) => x.id),
      [c.id],
    );
    assert.equal((await client.workItems.comments.retrieve(slug, projectId, workItem.id, c.id)).issue, workItem.id);
    const upd = await client.workItems.comments.update(slug, projectId, workItem.id, c.id, {
      comment_html: '<p>edited</p>',
    });
    assert.equal(upd.comment_html, '<p>edited</p>');
    assert.ok(upd.edited_at);
    await client.workItems.comments.delete(slug, projectId, workItem.id, c.id);
    assert.equal((await client.workItems.comments.list(slug, projectId, workItem.id)).total_count, 0);
  });

  it('work item links (client.workItems.links and client.links): create, list, retrieve, update, delete', async () => {
    for (const links of [client.workItems.links, client.links]) {
      const l = await links.create(slug, projectId, workItem.id, { url: 'https://example.com/spec', title: 'Spec' });
      assert.equal(l.url, 'https://example.com/spec');
      assert.equal(l.issue, workItem.id);
      const list = await links.list(slug, projectId, workItem.id);
      assert.deepEqual(
        list.results.map((x) => x.id),
        [l.id],
      );
      assert.equal((await links.retrieve(slug, projectId, workItem.id, l.id)).title, 'Spec');
      await assert.rejects(
        links.create(slug, projectId, workItem.id, { url: 'https://example.com/spec' }),
        (err: { statusCode?: number }) => err.statusCode === 409,
      );
      const upd = await links.update(slug, projectId, workItem.id, l.id, { title: 'Spec v2' });
      assert.equal(upd.title, 'Spec v2');
      await links.delete(slug, projectId, workItem.id, l.id);
      assert.equal((await links.list(slug, projectId, workItem.id)).total_count, 0);
    }
  });

  it('work item activities: list and retrieve show who changed what', async () => {
    const list = await client.workItems.activities.list(slug, projectId, workItem.id);
    assert.equal(list.results[0].verb, 'created');
    const name = list.results.find((a) => a.field === 'name')!;
    assert.equal(name.old_value, 'Sdk item');
    assert.equal(name.new_value, 'Sdk item 2');
    assert.equal(name.actor, owner.userId);
    assert.ok(list.results.some((a) => a.field === 'link' && a.verb === 'created'));
    const one = await client.workItems.activities.retrieve(slug, projectId, workItem.id, name.id);
    assert.equal(one.id, name.id);
    assert.equal(one.field, 'name');
  });
});
