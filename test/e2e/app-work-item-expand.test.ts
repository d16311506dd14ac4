import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { addMember, addProjectMember, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * The App API's work item detail with `expand=`, as Plane's web app reads every work item
 * (`issue.store.ts` `fetchIssue` / `fetchIssueWithIdentifier`:
 * `expand=issue_reactions,issue_attachments,issue_link,parent`) and as Plane's
 * `IssueDetailSerializer(issue, expand=...)` answers: the links, reactions and attachments nested in
 * Plane's lite shapes, the parent as `{id, sequence_id, project_id}` (`{}` without one), and
 * `is_subscribed` always. Both routes
 * (`issues/{id}/` and `work-items/{IDENT}-{seq}/`); runs on both engines.
 */
describe('App API: work item detail with expand=', () => {
  let t: TestApp;
  let ana: SignedUp;
  let ben: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string; identifier: string };
  const EXPAND = 'issue_reactions,issue_attachments,issue_link,parent';
  const base = () => `/api/workspaces/${ws.slug}/projects/${project.id}`;
  const get = (who: SignedUp, path: string) => t.api.get(path).auth(who.token, { type: 'bearer' });
  const post = (who: SignedUp, path: string, body: object) =>
    t.api.post(path).auth(who.token, { type: 'bearer' }).send(body);
  const create = async (body: Record<string, unknown>) => {
    const res = await post(ana, `${base()}/issues/`, body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number };
  };

  before(async () => {
    t = await startTestApp();
    ana = await signUp(t);
    ben = await signUp(t);
    ws = await createWorkspace(t, ana.token);
    await addMember(t, ws.id, ben.userId, 15);
    project = await createAppProject(t, ana.token, ws.slug, { identifier: 'EXP', name: 'Expand' });
    await addProjectMember(t, ws.id, project.id, ben.userId, 15);
  });
  after(() => t.close());

  it('nests the links, reactions, attachments and parent the web app asks for, on both detail routes', async () => {
    const parent = await create({ name: 'The epic' });
    const item = await create({ name: 'With everything', parent_id: parent.id });
    const first = await post(ana, `${base()}/issues/${item.id}/issue-links/`, {
      url: 'https://example.com/spec',
      title: 'Spec',
    });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    const second = await post(ben, `${base()}/issues/${item.id}/issue-links/`, { url: 'https://example.com/design' });
    assert.equal(second.status, 201, JSON.stringify(second.body));
    const reaction = await post(ben, `${base()}/issues/${item.id}/reactions/`, { reaction: '128077' });
    assert.equal(reaction.status, 201, JSON.stringify(reaction.body));
    const upload = await t.api
      .post(`${base()}/issues/${item.id}/issue-attachments/`)
      .auth(ana.token, { type: 'bearer' })
      .attach('asset', Buffer.from('the spec'), { filename: 'spec.txt', contentType: 'text/plain' });
    assert.equal(upload.status, 201, JSON.stringify(upload.body));

    const byId = await get(ana, `${base()}/issues/${item.id}/?expand=${EXPAND}`);
    const byKey = await get(ana, `/api/workspaces/${ws.slug}/work-items/EXP-${item.sequence_id}/?expand=${EXPAND}`);
    for (const res of [byId, byKey]) {
      assert.equal(res.status, 200, JSON.stringify(res.body));
      const d = res.body;
      // the detail's own values stay
      assert.equal(d.id, item.id);
      assert.equal(d.name, 'With everything');
      assert.equal(d.link_count, 2);
      assert.equal(d.parent_id, parent.id);
      assert.deepEqual(d.parent, { id: parent.id, sequence_id: parent.sequence_id, project_id: project.id });
      // newest first, Plane's IssueLinkLiteSerializer
      assert.deepEqual(
        d.issue_link.map((l: Record<string, unknown>) => [l.url, l.title, l.created_by_id, l.issue_id]),
        [
          ['https://example.com/design', null, ben.userId, item.id],
          ['https://example.com/spec', 'Spec', ana.userId, item.id],
        ],
      );
      assert.deepEqual(Object.keys(d.issue_link[0]).sort(), [
        'created_at',
        'created_by_id',
        'id',
        'issue_id',
        'metadata',
        'title',
        'url',
      ]);
      assert.equal(d.issue_link[1].id, first.body.id);
      assert.ok(!Number.isNaN(Date.parse(d.issue_link[0].created_at)));
      assert.deepEqual(d.issue_reactions, [
        { id: reaction.body.id, actor: ben.userId, issue: item.id, reaction: '128077' },
      ]);
      assert.equal(d.issue_attachments.length, 1);
      const a = d.issue_attachments[0];
      assert.deepEqual(Object.keys(a).sort(), [
        'asset',
        'asset_url',
        'attributes',
        'created_by',
        'id',
        'updated_at',
        'updated_by',
      ]);
      assert.equal(a.id, upload.body.id);
      assert.equal(a.attributes.name, 'spec.txt');
      assert.equal(a.created_by, ana.userId);
      assert.equal(a.asset_url, upload.body.asset_url);
    }
  });

  it('answers the link list the web app keeps up to date after a link is added and the page reloads', async () => {
    const item = await create({ name: 'No links yet' });
    const empty = await get(ana, `${base()}/issues/${item.id}/?expand=${EXPAND}`);
    assert.deepEqual(empty.body.issue_link, [], 'an empty list, so the web app has one to add to');
    assert.deepEqual(empty.body.issue_reactions, []);
    assert.deepEqual(empty.body.issue_attachments, []);
    assert.deepEqual(empty.body.parent, {}, "no parent: Plane's serializer of no instance");
    const link = await post(ana, `${base()}/issues/${item.id}/issue-links/`, { url: 'https://example.com/new' });
    assert.equal(link.status, 201);
    const again = await get(ana, `${base()}/issues/${item.id}/?expand=${EXPAND}`);
    assert.deepEqual(
      again.body.issue_link.map((l: { id: string }) => l.id),
      [link.body.id],
    );
    // a deleted link is gone from the nested list
    const gone = await t.api
      .delete(`${base()}/issues/${item.id}/issue-links/${link.body.id}/`)
      .auth(ana.token, { type: 'bearer' });
    assert.equal(gone.status, 204);
    assert.deepEqual((await get(ana, `${base()}/issues/${item.id}/?expand=issue_link`)).body.issue_link, []);
  });

  it('adds only what is asked for, and nothing without expand', async () => {
    const item = await create({ name: 'Plain' });
    const plain = await get(ana, `${base()}/issues/${item.id}/`);
    assert.equal(plain.status, 200);
    assert.equal(plain.body.is_subscribed, true);
    for (const key of ['issue_link', 'issue_reactions', 'issue_attachments', 'parent'])
      assert.ok(!(key in plain.body), `${key} without expand`);
    const one = await get(ana, `${base()}/issues/${item.id}/?expand=issue_link`);
    assert.deepEqual(one.body.issue_link, []);
    assert.ok(!('issue_reactions' in one.body));
    assert.ok(!('parent' in one.body));
    // a value no work item field has changes nothing (and is no error)
    const odd = await get(ana, `${base()}/issues/${item.id}/?expand=nonsense`);
    assert.equal(odd.status, 200);
    assert.ok(!('nonsense' in odd.body));
  });

  it('says whether the caller follows the work item (is_subscribed), with or without expand', async () => {
    const item = await create({ name: 'Followed' }); // the creator follows it
    for (const path of [
      `${base()}/issues/${item.id}/`,
      `/api/workspaces/${ws.slug}/work-items/EXP-${item.sequence_id}/`,
    ]) {
      assert.equal((await get(ana, path)).body.is_subscribed, true, path);
      assert.equal((await get(ben, `${path}?expand=${EXPAND}`)).body.is_subscribed, false, path);
    }
    const follow = await post(ben, `${base()}/issues/${item.id}/subscribe/`, {});
    assert.ok(follow.status === 200 || follow.status === 201, JSON.stringify(follow.body));
    assert.equal((await get(ben, `${base()}/issues/${item.id}/`)).body.is_subscribed, true);
  });

  it('keeps another project’s work item a 404 whatever is expanded', async () => {
    const other = await createAppProject(t, ana.token, ws.slug, { identifier: 'OTH', name: 'Other' });
    const item = await create({ name: 'Here' });
    const res = await get(ana, `/api/workspaces/${ws.slug}/projects/${other.id}/issues/${item.id}/?expand=${EXPAND}`);
    assert.equal(res.status, 404);
  });
});
