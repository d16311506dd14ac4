import { PlaneClient } from '@makeplane/plane-node-sdk';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const EMPTY = {
  blocking: [],
  blocked_by: [],
  duplicate: [],
  relates_to: [],
  start_before: [],
  start_after: [],
  finish_before: [],
  finish_after: [],
};

/**
 * Contract test: Plane's official Node SDK (@makeplane/plane-node-sdk 0.2.12), unmodified, for work
 * item relations, estimates and estimate points, intake, and stickies (`plane-node-sdk/dist/api/`).
 * Every method of those resources is called and its result asserted.
 */
describe('contract: @makeplane/plane-node-sdk 0.2.12 (relations, estimates, intake, stickies)', () => {
  let t: TestApp;
  let client: PlaneClient;
  let slug: string;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let projectId: string;

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    slug = (await createWorkspace(t, owner.token)).slug;
    const apiKey = await createApiKey(t, owner.token, slug);
    projectId = (await createProject(t, apiKey, slug, { identifier: 'SDKI', name: 'Sdk Items' })).id;
    client = new PlaneClient({ baseUrl: t.url, apiKey });
  });
  after(() => t.close());

  it('workItems.relations: create, list, delete', async () => {
    const a = await client.workItems.create(slug, projectId, { name: 'a' });
    const b = await client.workItems.create(slug, projectId, { name: 'b' });
    const c = await client.workItems.create(slug, projectId, { name: 'c' });
    await client.workItems.relations.create(slug, projectId, a.id, {
      relation_type: 'blocking',
      issues: [b.id],
    } as never);
    await client.workItems.relations.create(slug, projectId, a.id, {
      relation_type: 'start_after',
      issues: [c.id],
    } as never);
    assert.deepEqual(await client.workItems.relations.list(slug, projectId, a.id), {
      ...EMPTY,
      blocking: [b.id],
      start_after: [c.id],
    });
    assert.deepEqual(await client.workItems.relations.list(slug, projectId, b.id), { ...EMPTY, blocked_by: [a.id] });
    assert.deepEqual(await client.workItems.relations.list(slug, projectId, c.id), { ...EMPTY, start_before: [a.id] });
    await client.workItems.relations.delete(slug, projectId, b.id, { related_issue: a.id } as never);
    assert.deepEqual(await client.workItems.relations.list(slug, projectId, a.id), { ...EMPTY, start_after: [c.id] });
    await assert.rejects(
      client.workItems.relations.delete(slug, projectId, b.id, { related_issue: a.id } as never),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
  });

  it('estimates: create, retrieve, update, linkToProject, createPoints, listPoints, updatePoint, deletePoint, delete', async () => {
    const e = await client.estimates.create(slug, projectId, {
      name: 'Fibonacci',
      type: 'points',
      description: 'sizes',
    });
    assert.equal(e.name, 'Fibonacci');
    assert.equal(e.type, 'points');
    assert.equal(e.project, projectId);
    assert.equal((await client.estimates.retrieve(slug, projectId)).id, e.id);
    const upd = await client.estimates.update(slug, projectId, {
      name: 'Fib',
      external_id: 'x1',
      external_source: 'jira',
    });
    assert.equal(upd.name, 'Fib');
    assert.equal(upd.external_id, 'x1');
    const linked = (await client.estimates.linkToProject(slug, projectId, e.id)) as unknown as { estimate: string };
    assert.equal(linked.estimate, e.id);
    const created = await client.estimates.createPoints(slug, projectId, e.id, [
      { value: '1' },
      { value: '2' },
      { value: '3' },
    ]);
    assert.deepEqual(
      created.map((p) => [p.key, p.value]),
      [
        [0, '1'],
        [1, '2'],
        [2, '3'],
      ],
    );
    const points = await client.estimates.listPoints(slug, projectId, e.id);
    assert.deepEqual(
      points.map((p) => p.value),
      ['1', '2', '3'],
    );
    const changed = await client.estimates.updatePoint(slug, projectId, e.id, points[2].id, {
      value: '5',
      description: 'big',
    });
    assert.equal(changed.value, '5');
    assert.equal(changed.description, 'big');
    const item = await client.workItems.create(slug, projectId, { name: 'sized', estimate_point: points[1].id });
    assert.equal(item.estimate_point, points[1].id);
    await client.estimates.deletePoint(slug, projectId, e.id, points[1].id);
    assert.deepEqual(
      (await client.estimates.listPoints(slug, projectId, e.id)).map((p) => p.value),
      ['1', '5'],
    );
    assert.equal((await client.workItems.retrieve(slug, projectId, item.id)).estimate_point ?? null, null);
    await client.estimates.delete(slug, projectId);
    await assert.rejects(
      client.estimates.retrieve(slug, projectId),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
    assert.equal((await client.projects.retrieve(slug, projectId)).estimate, null);
  });

  it('intake: create, list, retrieve, update, updateStatus, delete (addressed by the work item id)', async () => {
    await client.projects.update(slug, projectId, { intake_view: true } as never);
    const created = await client.intake.create(slug, projectId, {
      issue: { name: 'From the SDK', priority: 'high' },
      source: 'IN_APP',
    });
    assert.equal(created.status, -2);
    assert.equal(created.issue_detail?.name, 'From the SDK');
    const workItemId = created.issue!;
    const list = await client.intake.list(slug, projectId);
    assert.deepEqual(
      list.results.map((r) => r.issue),
      [workItemId],
    );
    assert.equal((await client.intake.retrieve(slug, projectId, workItemId)).id, created.id);
    const upd = await client.intake.update(slug, projectId, workItemId, {
      issue: { name: 'Renamed' },
      source_email: 'x@example.com',
    });
    assert.equal(upd.issue_detail?.name, 'Renamed');
    assert.equal(upd.source_email, 'x@example.com');
    const accepted = await client.intake.updateStatus(slug, projectId, workItemId, { status: 1 });
    assert.equal(accepted.status, 1);
    assert.equal((await client.workItems.retrieve(slug, projectId, workItemId)).name, 'Renamed');
    await client.intake.delete(slug, projectId, workItemId);
    await assert.rejects(
      client.intake.retrieve(slug, projectId, workItemId),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
    assert.equal((await client.workItems.retrieve(slug, projectId, workItemId)).id, workItemId);
  });

  it('stickies: create, retrieve, update, list (20 per page by default), delete', async () => {
    const s = await client.stickies.create(slug, {
      name: 'Remember',
      description_html: '<p>the milk</p>',
      color: '#ffee00',
    });
    assert.equal(s.name, 'Remember');
    assert.equal(s.owner, owner.userId);
    assert.equal(s.description_stripped, 'the milk');
    assert.equal((await client.stickies.retrieve(slug, s.id)).color, '#ffee00');
    const upd = await client.stickies.update(slug, s.id, { name: 'Remembered', background_color: '#111111' });
    assert.equal(upd.name, 'Remembered');
    assert.equal(upd.background_color, '#111111');
    for (let n = 0; n < 21; n++) await client.stickies.create(slug, { name: `n${n}` });
    const page = await client.stickies.list(slug);
    assert.equal(page.results.length, 20);
    assert.equal(page.total_count, 22);
    assert.equal(page.results[0].name, 'n20');
    const withLimit = await client.stickies.list(slug, { limit: 5, offset: 0 });
    assert.equal(withLimit.results.length, 20);
    await client.stickies.delete(slug, s.id);
    await assert.rejects(
      client.stickies.retrieve(slug, s.id),
      (err: { statusCode?: number }) => err.statusCode === 404,
    );
    assert.equal((await client.stickies.list(slug)).total_count, 21);
  });
});
