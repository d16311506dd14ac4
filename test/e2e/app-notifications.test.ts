import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createApiKey,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/** A notification as the tests read it. */
interface Note {
  id: string;
  entity_identifier: string;
  [key: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const mention = (userId: string) =>
  `<p>look <mention-component entity_name="user_mention" entity_identifier="${userId}"></mention-component></p>`;

/**
 * Notifications and subscribers on the App API: assignments, comments on followed work items and
 * mentions make notifications in the change's transaction; each user reaches only their own.
 * Work items are made through v1 until the App API work item routes exist.
 */
describe('App API: notifications and work item subscribers', () => {
  let t: TestApp;
  let ada: SignedUp; // Admin, creates the work items
  let bob: SignedUp; // Member
  let cyd: SignedUp; // Guest
  let dan: SignedUp; // Member, mentioned
  let eve: SignedUp; // workspace member, not in the project
  let ws: { id: string; slug: string };
  let project: { id: string };
  let adaKey: string;
  let bobKey: string;
  const bearer = (u: SignedUp) => ({ Authorization: `Bearer ${u.token}` });
  const v1 = (path: string) => `/api/v1/workspaces/${ws.slug}/projects/${project.id}/${path}`;
  const app = (path: string) => `/api/workspaces/${ws.slug}/${path}`;
  const notes = async (u: SignedUp, query: Record<string, string> = {}) => {
    const res = await t.api.get(app('users/notifications/')).query(query).set(bearer(u));
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.body as Note[];
  };
  const createItem = async (body: Record<string, unknown>, key = adaKey) => {
    const res = await t.api.post(v1('issues/')).set('X-API-Key', key).send(body);
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body as { id: string; sequence_id: number };
  };
  const comment = async (issueId: string, html: string, key = adaKey) => {
    const res = await t.api
      .post(v1(`issues/${issueId}/comments/`))
      .set('X-API-Key', key)
      .send({ comment_html: html });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body;
  };

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    [ada, bob, cyd, eve, dan] = [await signUp(t), await signUp(t), await signUp(t), await signUp(t), await signUp(t)];
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, bob.userId, 20);
    bobKey = await createApiKey(t, bob.token, ws.slug);
    await t.sql('UPDATE workspace_members SET role = 15 WHERE workspace_id = $1 AND member_id = $2', [
      ws.id,
      bob.userId,
    ]);
    await addMember(t, ws.id, cyd.userId, 5);
    await addMember(t, ws.id, eve.userId, 15);
    await addMember(t, ws.id, dan.userId, 15);
    adaKey = await createApiKey(t, ada.token, ws.slug);
    project = await createAppProject(t, ada.token, ws.slug, { identifier: 'NOTE', name: 'Notes' });
    await addProjectMember(t, ws.id, project.id, bob.userId, 15);
    await addProjectMember(t, ws.id, project.id, cyd.userId, 5);
    await addProjectMember(t, ws.id, project.id, dan.userId, 15);
  });
  after(() => t.close());

  it('an assignment notifies the new assignee once, with Plane’s fields; the creator and assignee become subscribers', async () => {
    const item = await createItem({ name: 'Assigned at birth', assignees: [bob.userId] });
    let mine = (await notes(bob)).filter((n) => n.entity_identifier === item.id);
    assert.equal(mine.length, 1);
    const n = mine[0];
    assert.equal(n.sender, 'in_app:issue_activities:assigned');
    assert.equal(n.entity_name, 'issue');
    assert.equal(n.receiver, bob.userId);
    assert.equal(n.triggered_by, ada.userId);
    assert.equal(n.triggered_by_details.id, ada.userId);
    assert.equal(n.triggered_by_details.email, undefined);
    assert.equal(n.read_at, null);
    assert.equal(n.project, project.id);
    assert.deepEqual(Object.keys(n.data).sort(), ['issue', 'issue_activity']);
    assert.equal(n.data.issue.identifier, 'NOTE');
    assert.equal(n.data.issue.sequence_id, item.sequence_id);
    assert.equal(n.data.issue.state_group, 'backlog');
    assert.equal(n.data.issue_activity.actor, ada.userId);
    const [created] = await t.sql<{ id: string }>(
      `SELECT id FROM issue_activities WHERE issue_id = $1 AND verb = 'created'`,
      [item.id],
    );
    assert.equal(n.data.issue_activity.id, created.id, 'the notification names the "created the issue" history row');
    assert.equal(n.data.issue_activity.verb, 'created');
    // nobody is notified of their own change
    assert.equal((await notes(ada)).filter((x) => x.entity_identifier === item.id).length, 0);
    // a later assignment through PATCH notifies only the newly added assignee
    const other = await createItem({ name: 'Assigned later' });
    const patched = await t.api
      .patch(v1(`issues/${other.id}/`))
      .set('X-API-Key', adaKey)
      .send({ assignees: [bob.userId] });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    mine = (await notes(bob)).filter((x) => x.entity_identifier === other.id);
    assert.equal(mine.length, 1);
    assert.equal(mine[0].data.issue_activity.field, 'assignees');
    assert.equal(mine[0].data.issue_activity.new_identifier, bob.userId);
    await t.api
      .patch(v1(`issues/${other.id}/`))
      .set('X-API-Key', adaKey)
      .send({ assignees: [bob.userId], name: 'renamed' });
    assert.equal((await notes(bob)).filter((x) => x.entity_identifier === other.id).length, 1);
    const subs = await t.api
      .get(`/api/workspaces/${ws.slug}/projects/${project.id}/issues/${item.id}/issue-subscribers/`)
      .set(bearer(ada));
    assert.equal(subs.status, 200);
    assert.deepEqual(
      subs.body.map((s: { subscriber: string }) => s.subscriber).sort(),
      [ada.userId, bob.userId].sort(),
    );
  });

  it('a comment notifies the subscribers except its author, who becomes a subscriber; a mention notifies the mentioned user instead', async () => {
    const item = await createItem({ name: 'Discussed', assignees: [bob.userId] });
    await comment(item.id, '<p>first</p>', bobKey); // bob comments: ada (creator, subscriber) is notified
    let adaNotes = (await notes(ada)).filter((x) => x.entity_identifier === item.id);
    assert.equal(adaNotes.length, 1);
    assert.equal(adaNotes[0].sender, 'in_app:issue_activities:created');
    assert.equal(adaNotes[0].data.issue_activity.field, 'comment');
    assert.equal(adaNotes[0].message_html, '<p>first</p>');
    assert.equal(adaNotes[0].message_stripped, 'first');
    // ada comments mentioning dan: dan gets a mention, bob (assignee) a comment notification
    await comment(item.id, mention(dan.userId));
    const danAll = (await notes(dan)).filter((x) => x.entity_identifier === item.id);
    assert.equal(danAll.length, 0, 'mentions are listed only with mentioned=true, as in Plane');
    const danMentions = (await notes(dan, { mentioned: 'true' })).filter((x) => x.entity_identifier === item.id);
    assert.equal(danMentions.length, 1);
    assert.equal(danMentions[0].is_mentioned_notification, true);
    assert.equal(danMentions[0].sender, 'in_app:issue_activities:mentioned');
    const bobNotes = (await notes(bob)).filter(
      (x) => x.entity_identifier === item.id && x.data.issue_activity.field === 'comment',
    );
    assert.equal(bobNotes.length, 1);
    assert.equal(bobNotes[0].sender, 'in_app:issue_activities:assigned');
    // dan is now a subscriber: a third comment (bob's) reaches ada and dan, not bob
    await comment(item.id, '<p>third</p>', bobKey);
    assert.equal((await notes(dan)).filter((x) => x.entity_identifier === item.id).length, 1);
    adaNotes = (await notes(ada)).filter((x) => x.entity_identifier === item.id);
    assert.equal(adaNotes.length, 2);
    assert.equal(
      (await notes(bob)).filter((x) => x.entity_identifier === item.id && x.data.issue_activity.field === 'comment')
        .length,
      1,
    );
    // someone outside the project is neither notified nor subscribed when mentioned
    await comment(item.id, mention(eve.userId));
    assert.equal((await notes(eve, { mentioned: 'true' })).length, 0);
    const subs = await t.sql<{ n: number }>(
      'SELECT count(*)::int AS n FROM issue_subscribers WHERE issue_id = $1 AND subscriber_id = $2',
      [item.id, eve.userId],
    );
    assert.equal(subs[0].n, 0);
  });

  it('a mention in the description notifies the newly mentioned user once; type=subscribed lists followed items only', async () => {
    const item = await createItem({ name: 'Described', description_html: mention(dan.userId) });
    assert.equal((await notes(dan, { mentioned: 'true' })).filter((x) => x.entity_identifier === item.id).length, 1);
    // editing the description again with the same mention and a new one notifies only the new one
    const res = await t.api
      .patch(v1(`issues/${item.id}/`))
      .set('X-API-Key', adaKey)
      .send({ description_html: mention(dan.userId) + mention(bob.userId) });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.equal((await notes(dan, { mentioned: 'true' })).filter((x) => x.entity_identifier === item.id).length, 1);
    assert.equal((await notes(bob, { mentioned: 'true' })).filter((x) => x.entity_identifier === item.id).length, 1);
    // dan follows the item (mentioned), is neither its creator nor an assignee: a comment is "subscribed"
    await comment(item.id, '<p>news</p>', bobKey);
    const subscribed = (await notes(dan, { type: 'subscribed' })).filter((x) => x.entity_identifier === item.id);
    assert.equal(subscribed.length, 1);
    assert.equal(subscribed[0].sender, 'in_app:issue_activities:subscribed');
    assert.equal((await notes(dan, { type: 'assigned' })).filter((x) => x.entity_identifier === item.id).length, 0);
    assert.equal((await notes(ada, { type: 'created' })).filter((x) => x.entity_identifier === item.id).length, 1);
  });

  it('unread counts, mark read/unread, archive/unarchive, snooze, mark-all-read, delete', async () => {
    const item = await createItem({ name: 'Counting', assignees: [bob.userId] });
    await comment(item.id, mention(bob.userId));
    const before = await t.api.get(app('users/notifications/unread/')).set(bearer(bob));
    assert.equal(before.status, 200);
    assert.ok(before.body.total_unread_notifications_count >= 1);
    assert.ok(before.body.mention_unread_notifications_count >= 1);
    const [n] = (await notes(bob)).filter((x) => x.entity_identifier === item.id);
    const read = await t.api.post(app(`users/notifications/${n.id}/read/`)).set(bearer(bob));
    assert.equal(read.status, 200);
    assert.ok(read.body.read_at);
    let counts = (await t.api.get(app('users/notifications/unread/')).set(bearer(bob))).body;
    assert.equal(counts.total_unread_notifications_count, before.body.total_unread_notifications_count - 1);
    assert.ok((await notes(bob, { read: 'true' })).some((x) => x.id === n.id));
    assert.ok(!(await notes(bob, { read: 'false' })).some((x) => x.id === n.id));
    const unread = await t.api.delete(app(`users/notifications/${n.id}/read/`)).set(bearer(bob));
    assert.equal(unread.status, 200);
    assert.equal(unread.body.read_at, null);
    const archived = await t.api.post(app(`users/notifications/${n.id}/archive/`)).set(bearer(bob));
    assert.equal(archived.status, 200);
    assert.ok(archived.body.archived_at);
    assert.ok(!(await notes(bob)).some((x) => x.id === n.id));
    assert.ok((await notes(bob, { archived: 'true' })).some((x) => x.id === n.id));
    assert.equal(
      (await t.api.delete(app(`users/notifications/${n.id}/archive/`)).set(bearer(bob))).body.archived_at,
      null,
    );
    const later = new Date(Date.now() + 3600_000).toISOString();
    const snoozed = await t.api
      .patch(app(`users/notifications/${n.id}/`))
      .set(bearer(bob))
      .send({ snoozed_till: later });
    assert.equal(snoozed.status, 200);
    assert.ok(!(await notes(bob)).some((x) => x.id === n.id));
    assert.ok((await notes(bob, { snoozed: 'true' })).some((x) => x.id === n.id));
    await t.api
      .patch(app(`users/notifications/${n.id}/`))
      .set(bearer(bob))
      .send({ snoozed_till: null });
    assertError(
      await t.api.get(app('users/notifications/')).query({ type: 'nope' }).set(bearer(bob)),
      400,
      'INVALID_QUERY_PARAMETER',
    );
    assert.ok((await notes(bob, { type: 'assigned' })).some((x) => x.id === n.id));
    assert.ok(!(await notes(bob, { type: 'created' })).some((x) => x.id === n.id));
    const all = await t.api.post(app('users/notifications/mark-all-read/')).set(bearer(bob)).send({});
    assert.deepEqual([all.status, all.body], [200, { message: 'Successful' }]);
    counts = (await t.api.get(app('users/notifications/unread/')).set(bearer(bob))).body;
    assert.equal(counts.total_unread_notifications_count, 0);
    assert.equal((await t.api.delete(app(`users/notifications/${n.id}/`)).set(bearer(bob))).status, 204);
    assertError(await t.api.get(app(`users/notifications/${n.id}/`)).set(bearer(bob)), 404, 'NOT_FOUND');
  });

  it('someone else’s notification, or one of another workspace, is a 404 and stays unchanged', async () => {
    const item = await createItem({ name: 'Private', assignees: [bob.userId] });
    const [n] = (await notes(bob)).filter((x) => x.entity_identifier === item.id);
    for (const [method, path] of [
      ['get', ''],
      ['patch', ''],
      ['delete', ''],
      ['post', 'read/'],
      ['delete', 'read/'],
      ['post', 'archive/'],
    ] as const) {
      const res = await t.api[method](app(`users/notifications/${n.id}/${path}`))
        .set(bearer(ada))
        .send({});
      assertError(res, 404, 'NOT_FOUND');
    }
    const otherWs = await createWorkspace(t, bob.token);
    assertError(
      await t.api.get(`/api/workspaces/${otherWs.slug}/users/notifications/${n.id}/`).set(bearer(bob)),
      404,
      'NOT_FOUND',
    );
    assert.ok(!(await t.api.get(`/api/workspaces/${otherWs.slug}/users/notifications/`).set(bearer(bob))).body.length);
    const still = await t.api.get(app(`users/notifications/${n.id}/`)).set(bearer(bob));
    assert.equal(still.status, 200);
    assert.equal(still.body.read_at, null);
    assert.equal(still.body.archived_at, null);
  });

  it('a Guest is notified only of work items they may read (Plane’s Guest rule); lists, counts and reads follow the rule now', async () => {
    const guestSeesAll = (on: boolean) =>
      t.sql('UPDATE projects SET guest_view_all_features = $2 WHERE id = $1', [project.id, on]);
    const mine = async (u: SignedUp, itemId: string, query: Record<string, string> = {}) =>
      (await notes(u, query)).filter((x) => x.entity_identifier === itemId);
    const unread = async (u: SignedUp) =>
      (await t.api.get(app('users/notifications/unread/')).set(bearer(u))).body as {
        total_unread_notifications_count: number;
        mention_unread_notifications_count: number;
      };
    const stored = async (u: SignedUp, itemId: string) =>
      Number(
        (
          await t.sql<{ n: string }>(
            'SELECT count(*) AS n FROM notifications WHERE receiver_id = $1 AND entity_identifier = $2',
            [u.userId, itemId],
          )
        )[0].n,
      );
    await guestSeesAll(false);
    // ada's work item: the Guest may not read it. Mentioned in the description and in a comment,
    // subscribed by the mention as in Plane: no notification is written for the Guest, dan gets his
    const item = await createItem({
      name: 'Not for guests',
      description_html: mention(cyd.userId) + mention(dan.userId),
    });
    await comment(item.id, mention(cyd.userId) + mention(dan.userId));
    await comment(item.id, '<p>news for subscribers</p>', bobKey);
    assert.equal(await stored(cyd, item.id), 0);
    assert.equal((await mine(dan, item.id, { mentioned: 'true' })).length, 2);
    assert.equal((await mine(dan, item.id)).length, 1);

    // the project lets Guests see every work item: the Guest is notified
    await guestSeesAll(true);
    await comment(item.id, mention(cyd.userId));
    const [seen] = await mine(cyd, item.id, { mentioned: 'true' });
    assert.ok(seen, 'the Guest is notified once they may read the work item');
    const counted = await unread(cyd);
    assert.ok(counted.mention_unread_notifications_count >= 1);
    assert.equal((await t.api.get(app(`users/notifications/${seen.id}/`)).set(bearer(cyd))).status, 200);

    // switched off again: the notification written meanwhile is neither listed, counted nor read
    await guestSeesAll(false);
    assert.equal((await mine(cyd, item.id, { mentioned: 'true' })).length, 0);
    assert.equal(
      (await unread(cyd)).mention_unread_notifications_count,
      counted.mention_unread_notifications_count - 1,
    );
    assertError(await t.api.get(app(`users/notifications/${seen.id}/`)).set(bearer(cyd)), 404, 'NOT_FOUND');
    assertError(await t.api.post(app(`users/notifications/${seen.id}/read/`)).set(bearer(cyd)), 404, 'NOT_FOUND');

    // the Guest's own work item stays theirs to read, and a Member's notifications are untouched
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [item.id, cyd.userId]);
    assert.equal((await mine(cyd, item.id, { mentioned: 'true' })).length, 1);
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [item.id, ada.userId]);
    assert.equal((await mine(dan, item.id, { mentioned: 'true' })).length, 2);

    // a Member who becomes a Guest no longer sees those about another's work item
    await t.sql('UPDATE project_members SET role = 5 WHERE project_id = $1 AND member_id = $2', [
      project.id,
      dan.userId,
    ]);
    try {
      assert.equal((await mine(dan, item.id, { mentioned: 'true' })).length, 0);
      assert.equal((await mine(dan, item.id)).length, 0);
    } finally {
      await t.sql('UPDATE project_members SET role = 15 WHERE project_id = $1 AND member_id = $2', [
        project.id,
        dan.userId,
      ]);
    }
  });

  it('the inbox page by page: each notification once in list order, every page’s total_count the filter’s size, back by prev_cursor; type sets and the Guest rule across projects', async () => {
    const fay = await signUp(t);
    await addMember(t, ws.id, fay.userId, 20);
    const fayKey = await createApiKey(t, fay.token, ws.slug); // an Admin makes a key; fay is a Member then
    await t.sql('UPDATE workspace_members SET role = 15 WHERE workspace_id = $1 AND member_id = $2', [
      ws.id,
      fay.userId,
    ]);
    await addProjectMember(t, ws.id, project.id, fay.userId, 15);
    const other = await createAppProject(t, ada.token, ws.slug, { identifier: 'PAGE', name: 'Paged' });
    await addProjectMember(t, ws.id, other.id, fay.userId, 15);
    await addProjectMember(t, ws.id, other.id, bob.userId, 15);
    await t.sql('UPDATE projects SET guest_view_all_features = false WHERE id = $1', [other.id]);
    const createIn = async (projectId: string, body: Record<string, unknown>, key: string) => {
      const res = await t.api
        .post(`/api/v1/workspaces/${ws.slug}/projects/${projectId}/issues/`)
        .set('X-API-Key', key)
        .send(body);
      assert.equal(res.status, 201, JSON.stringify(res.body));
      return res.body as { id: string };
    };
    const commentIn = async (projectId: string, issueId: string, key: string) => {
      const res = await t.api
        .post(`/api/v1/workspaces/${ws.slug}/projects/${projectId}/issues/${issueId}/comments/`)
        .set('X-API-Key', key)
        .send({ comment_html: '<p>news</p>' });
      assert.equal(res.status, 201, JSON.stringify(res.body));
    };
    // assigned (two), assigned and followed (two notifications), created by fay, followed only; in the
    // other project: assigned, and created by fay
    const assigned1 = await createIn(project.id, { name: 'A1', assignees: [fay.userId] }, adaKey);
    const assigned2 = await createIn(project.id, { name: 'A2', assignees: [fay.userId] }, adaKey);
    const assignedFollowed = await createIn(project.id, { name: 'AF', assignees: [fay.userId] }, adaKey);
    await commentIn(project.id, assignedFollowed.id, bobKey);
    const created = await createIn(project.id, { name: 'C' }, fayKey);
    await commentIn(project.id, created.id, adaKey);
    const followed = await createIn(project.id, { name: 'F', description_html: mention(fay.userId) }, adaKey);
    await commentIn(project.id, followed.id, bobKey);
    const otherAssigned = await createIn(other.id, { name: 'OA', assignees: [fay.userId] }, adaKey);
    const otherCreated = await createIn(other.id, { name: 'OC' }, fayKey);
    await commentIn(other.id, otherCreated.id, adaKey);

    type Envelope = {
      results: Note[];
      total_count: number;
      next_cursor: string | null;
      prev_cursor: string | null;
      next_page_results: boolean;
      prev_page_results: boolean;
    };
    const page = async (query: Record<string, string>, cursor: string) => {
      const res = await t.api
        .get(app('users/notifications/'))
        .query({ ...query, per_page: '2', cursor })
        .set(bearer(fay));
      assert.equal(res.status, 200, JSON.stringify(res.body));
      return res.body as Envelope;
    };
    /** The list by pages, forwards then back from the last page: both the bare array's order. */
    const paged = async (query: Record<string, string>) => {
      const whole = await notes(fay, query);
      const ids: string[] = [];
      let body = await page(query, '2:0:0');
      assert.equal(body.prev_page_results, false);
      for (;;) {
        assert.equal(body.total_count, whole.length, `total_count of ${JSON.stringify(query)}`);
        ids.push(...body.results.map((n) => n.id));
        if (!body.next_page_results) break;
        body = await page(query, body.next_cursor!);
      }
      assert.deepEqual(
        ids,
        whole.map((n) => n.id),
        `pages of ${JSON.stringify(query)}`,
      );
      const back: string[] = [...body.results.map((n) => n.id)].reverse();
      while (body.prev_page_results) {
        body = await page(query, body.prev_cursor!);
        back.push(...[...body.results.map((n) => n.id)].reverse());
      }
      assert.deepEqual(back.reverse(), ids, `pages of ${JSON.stringify(query)} read back`);
      return whole.map((n) => n.entity_identifier);
    };
    const items = (...xs: Array<{ id: string }>) => xs.map((x) => x.id).sort();
    const sorted = (ids: string[]) => [...ids].sort();
    const check = async () => {
      assert.deepEqual(
        sorted(await paged({ type: 'assigned' })),
        items(assigned1, assigned2, assignedFollowed, assignedFollowed, otherAssigned),
      );
      assert.deepEqual(sorted(await paged({ type: 'created' })), items(created, otherCreated));
      assert.deepEqual(sorted(await paged({ type: 'subscribed' })), items(followed));
      const every = items(assigned1, assigned2, assignedFollowed, assignedFollowed, created, followed);
      assert.deepEqual(
        sorted(await paged({ type: 'assigned,created,subscribed' })),
        sorted([...every, otherAssigned.id, otherCreated.id]),
      );
      assert.deepEqual(sorted(await paged({})), sorted([...every, otherAssigned.id, otherCreated.id]));
      assert.equal((await paged({ read: 'true' })).length, 0);
    };
    await check();

    // a Guest of the other project, a Member of the first: only the other project's work item of
    // someone else goes, from the pages, their total_count and the unread counts
    const unreadBefore = (await t.api.get(app('users/notifications/unread/')).set(bearer(fay))).body;
    await t.sql('UPDATE project_members SET role = 5 WHERE project_id = $1 AND member_id = $2', [other.id, fay.userId]);
    const every = items(assigned1, assigned2, assignedFollowed, assignedFollowed, created, followed, otherCreated);
    assert.deepEqual(sorted(await paged({})), every);
    assert.deepEqual(
      sorted(await paged({ type: 'assigned' })),
      items(assigned1, assigned2, assignedFollowed, assignedFollowed),
    );
    assert.deepEqual(sorted(await paged({ type: 'created' })), items(created, otherCreated));
    const unreadAfter = (await t.api.get(app('users/notifications/unread/')).set(bearer(fay))).body;
    assert.equal(unreadAfter.total_unread_notifications_count, unreadBefore.total_unread_notifications_count - 1);
    // a Member again: as before
    await t.sql('UPDATE project_members SET role = 15 WHERE project_id = $1 AND member_id = $2', [
      other.id,
      fay.userId,
    ]);
    await check();
  });

  it('subscribers: subscribe, status, unsubscribe; Admins and Members add members only; foreign work items 404', async () => {
    const item = await createItem({ name: 'Watched' });
    const base = `/api/workspaces/${ws.slug}/projects/${project.id}/issues/${item.id}`;
    // the Guest follows only work items they may see: another's is a 404, their own is fine
    assertError(await t.api.get(`${base}/subscribe/`).set(bearer(cyd)), 404, 'NOT_FOUND');
    assertError(await t.api.post(`${base}/subscribe/`).set(bearer(cyd)), 404, 'NOT_FOUND');
    await t.sql('UPDATE issues SET created_by_id = $2 WHERE id = $1', [item.id, cyd.userId]);
    assert.deepEqual((await t.api.get(`${base}/subscribe/`).set(bearer(cyd))).body, { subscribed: false });
    const s = await t.api.post(`${base}/subscribe/`).set(bearer(cyd));
    assert.equal(s.status, 201, JSON.stringify(s.body));
    assert.equal(s.body.subscriber, cyd.userId);
    assert.deepEqual((await t.api.get(`${base}/subscribe/`).set(bearer(cyd))).body, { subscribed: true });
    // a comment now reaches the Guest (as the work item's creator, Plane's sender is `created`)
    await comment(item.id, '<p>for watchers</p>', bobKey);
    assert.equal(
      (await notes(cyd)).filter(
        (x) => x.entity_identifier === item.id && x.sender === 'in_app:issue_activities:created',
      ).length,
      1,
    );
    assert.equal((await t.api.delete(`${base}/subscribe/`).set(bearer(cyd))).status, 204);
    assert.deepEqual((await t.api.get(`${base}/subscribe/`).set(bearer(cyd))).body, { subscribed: false });
    assertError(
      await t.api
        .post(`${base}/issue-subscribers/`)
        .set(bearer(bob))
        .send({ subscribers: [eve.userId] }),
      422,
      'VALIDATION_ERROR',
    );
    const added = await t.api
      .post(`${base}/issue-subscribers/`)
      .set(bearer(bob))
      .send({ subscribers: [cyd.userId] });
    assert.equal(added.status, 201);
    assert.ok(added.body.some((r: { subscriber: string }) => r.subscriber === cyd.userId));
    assert.equal((await t.api.delete(`${base}/issue-subscribers/${cyd.userId}/`).set(bearer(bob))).status, 204);
    assertError(await t.api.delete(`${base}/issue-subscribers/${cyd.userId}/`).set(bearer(bob)), 404, 'NOT_FOUND');
    // a work item of another project of another workspace is a 404 here
    const otherWs = await createWorkspace(t, eve.token);
    const eveKey = await createApiKey(t, eve.token, otherWs.slug);
    const otherProject = await t.api
      .post(`/api/v1/workspaces/${otherWs.slug}/projects/`)
      .set('X-API-Key', eveKey)
      .send({ name: 'X', identifier: 'XX' });
    const foreign = await t.api
      .post(`/api/v1/workspaces/${otherWs.slug}/projects/${otherProject.body.id}/issues/`)
      .set('X-API-Key', eveKey)
      .send({ name: 'f' });
    const fbase = `/api/workspaces/${ws.slug}/projects/${project.id}/issues/${foreign.body.id}`;
    assertError(await t.api.get(`${fbase}/subscribe/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assertError(await t.api.post(`${fbase}/subscribe/`).set(bearer(ada)), 404, 'NOT_FOUND');
    assertError(await t.api.get(`${fbase}/issue-subscribers/`).set(bearer(ada)), 404, 'NOT_FOUND');
  });

  it('a rolled-back change makes no notification', async () => {
    const item = await createItem({ name: 'Rollback' });
    const count = async () =>
      (
        await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM notifications WHERE entity_identifier = $1', [
          item.id,
        ])
      )[0].n;
    // a bad start/target pair fails the whole PATCH, assignment included
    const res = await t.api
      .patch(v1(`issues/${item.id}/`))
      .set('X-API-Key', adaKey)
      .send({ assignees: [bob.userId], start_date: '2030-01-10', target_date: '2030-01-01' });
    assert.ok(res.status >= 400 && res.status < 500, JSON.stringify(res.body));
    assert.equal(await count(), 0);
  });
});
