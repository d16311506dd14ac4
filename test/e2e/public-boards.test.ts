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
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Deploy boards (App API, Plane `plane/app/views/project/base.py` DeployBoardViewSet) and the Public
 * API (`plane/space/views/`): publish, read anonymously, comment, react and vote with a token where
 * the board allows it, unpublish. Every public response of the walk is kept and checked for leaks at
 * the end.
 */
describe('deploy boards and the Public API', () => {
  let t: TestApp;
  let admin: SignedUp;
  let member: SignedUp;
  let outsider: SignedUp;
  let key: string;
  let w: { id: string; slug: string };
  let project: { id: string; identifier: string };
  let unpublished: { id: string };
  let labelId: string;
  let issueA: string;
  let issueB: string;
  let internalCommentId: string;
  let boardId: string;
  let anchor: string;
  /** every body the Public API answered during the walk */
  const seen: unknown[] = [];

  const bearer = (u: SignedUp) => ['Authorization', `Bearer ${u.token}`] as const;
  const v1 = (path: string) => `/api/v1/workspaces/${w.slug}/projects/${project.id}${path}`;
  const app = (path = '') => `/api/workspaces/${w.slug}/projects/${project.id}/project-deploy-boards/${path}`;
  const pub = (path: string, a = anchor) => `/api/public/anchor/${a}/${path}`;

  async function get(path: string, user?: SignedUp) {
    const req = t.api.get(path);
    const res = user ? await req.set(...bearer(user)) : await req;
    if (path.startsWith('/api/public/')) seen.push(res.body);
    return res;
  }
  async function send(method: 'post' | 'patch' | 'delete', path: string, user: SignedUp | null, body?: object) {
    let req = t.api[method](path);
    if (user) req = req.set(...bearer(user));
    const res = body ? await req.send(body) : await req;
    if (path.startsWith('/api/public/')) seen.push(res.body);
    return res;
  }

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000', PUBLIC_RATE_LIMIT: '100000/minute' });
    [admin, member, outsider] = [await signUp(t), await signUp(t), await signUp(t)];
    w = await createWorkspace(t, admin.token);
    await addMember(t, w.id, member.userId, 15);
    key = await createApiKey(t, admin.token, w.slug);
    project = await createAppProject(t, admin.token, w.slug, { network: 2 });
    await addProjectMember(t, w.id, project.id, member.userId, 15);
    unpublished = await createAppProject(t, admin.token, w.slug);

    const label = await t.api.post(v1('/labels/')).set('X-API-Key', key).send({ name: 'bug', color: '#ff0000' });
    assert.equal(label.status, 201, JSON.stringify(label.body));
    labelId = label.body.id;
    const a = await t.api
      .post(v1('/issues/'))
      .set('X-API-Key', key)
      .send({ name: 'Public item A', priority: 'high', labels: [labelId], assignees: [admin.userId] });
    assert.equal(a.status, 201, JSON.stringify(a.body));
    issueA = a.body.id;
    const b = await t.api.post(v1('/issues/')).set('X-API-Key', key).send({ name: 'Public item B', priority: 'low' });
    assert.equal(b.status, 201, JSON.stringify(b.body));
    issueB = b.body.id;
    const draft = await t.api.post(v1('/issues/')).set('X-API-Key', key).send({ name: 'A draft', is_draft: true });
    assert.equal(draft.status, 201, JSON.stringify(draft.body));
    const c = await t.api
      .post(v1(`/issues/${issueA}/comments/`))
      .set('X-API-Key', key)
      .send({ comment_html: '<p>internal note</p>' });
    assert.equal(c.status, 201, JSON.stringify(c.body));
    internalCommentId = c.body.id;
  });
  after(() => t.close());

  it('only project Admins publish; the anchor is 32 hex characters; one board per project', async () => {
    assertError(await send('post', app(), member, {}), 403, 'PERMISSION_DENIED');
    assertError(await send('post', app(), null, {}), 401, 'AUTHENTICATION_REQUIRED');

    const before = await t.api.get(`/api/workspaces/${w.slug}/projects/${project.id}/`).set(...bearer(admin));
    assert.equal(before.body.is_deployed, false);
    assert.deepEqual((await t.api.get(app()).set(...bearer(member))).body, {});

    const res = await send('post', app(), admin, {});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    assert.match(res.body.anchor, /^[0-9a-f]{32}$/);
    assert.equal(res.body.project, project.id);
    assert.equal(res.body.workspace, w.id);
    assert.equal(res.body.entity_name, 'project');
    assert.equal(res.body.is_comments_enabled, false);
    assert.equal(res.body.is_reactions_enabled, false);
    assert.equal(res.body.is_votes_enabled, false);
    assert.equal(res.body.intake, null);
    assert.deepEqual(res.body.view_props, { list: true, kanban: true, calendar: true, gantt: true, spreadsheet: true });
    assert.equal(res.body.project_details.identifier, project.identifier);
    assert.equal(res.body.workspace_detail.slug, w.slug);
    boardId = res.body.id;
    anchor = res.body.anchor;

    // the board's intake must be the project's own intake
    assertError(
      await send('patch', app(`${boardId}/`), admin, { intake: '00000000-0000-4000-8000-000000000000' }),
      422,
      'VALIDATION_ERROR',
    );
    assert.equal((await t.api.patch(v1('/')).set('X-API-Key', key).send({ intake_view: true })).status, 200);
    const triaged = await t.api
      .post(v1('/intake-issues/'))
      .set('X-API-Key', key)
      .send({ issue: { name: 'From the board' } });
    assert.equal(triaged.status, 201, JSON.stringify(triaged.body));
    const [intake] = await t.sql<{ id: string }>('SELECT id FROM intakes WHERE project_id = $1', [project.id]);
    const withIntake = await send('patch', app(`${boardId}/`), admin, { intake: intake.id });
    assert.equal(withIntake.status, 200, JSON.stringify(withIntake.body));
    assert.equal(withIntake.body.intake, intake.id);
    assert.equal((await send('patch', app(`${boardId}/`), admin, { intake: null })).body.intake, null);

    // publishing again keeps the board and its anchor, applying the settings given
    const again = await send('post', app(), admin, { views: { list: true, kanban: false } });
    assert.equal(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body.id, boardId);
    assert.equal(again.body.anchor, anchor);
    assert.equal(again.body.view_props.kanban, false);
    assert.equal((await t.sql('SELECT id FROM deploy_boards WHERE project_id = $1', [project.id])).length, 1);

    const list = await t.api.get(app()).set(...bearer(member));
    assert.equal(list.status, 200);
    assert.equal(list.body.id, boardId);
    const one = await t.api.get(app(`${boardId}/`)).set(...bearer(member));
    assert.equal(one.status, 200);
    assert.equal(one.body.anchor, anchor);
    const after = await t.api.get(`/api/workspaces/${w.slug}/projects/${project.id}/`).set(...bearer(admin));
    assert.equal(after.body.is_deployed, true);

    // validation and foreign ids
    const bad = await send('patch', app(`${boardId}/`), admin, { view_props: { list: 'yes' }, is_votes_enabled: 'no' });
    assertError(bad, 422, 'VALIDATION_ERROR');
    assert.ok((bad.body as { errors: Record<string, unknown> }).errors.view_props);
    // the anchor is read-only: the App API ignores it, as Plane's view does
    const anchored = await send('patch', app(`${boardId}/`), admin, { anchor: 'mine' });
    assert.equal(anchored.status, 200, JSON.stringify(anchored.body));
    assert.equal(anchored.body.anchor, anchor);
    assertError(await send('patch', app(`${boardId}/`), member, { is_votes_enabled: true }), 403, 'PERMISSION_DENIED');
    const otherBoard = `/api/workspaces/${w.slug}/projects/${unpublished.id}/project-deploy-boards/${boardId}/`;
    assertError(await t.api.get(otherBoard).set(...bearer(admin)), 404, 'NOT_FOUND');
  });

  it('reads the board anonymously: meta, settings, work items, a work item, states, labels, members', async () => {
    const meta = await get(pub('meta/'));
    assert.equal(meta.status, 200, JSON.stringify(meta.body));
    assert.deepEqual(Object.keys(meta.body).sort(), [
      'cover_image',
      'description',
      'emoji',
      'icon_prop',
      'id',
      'identifier',
      'logo_props',
      'name',
    ]);
    assert.equal(meta.body.id, project.id);

    const settings = await get(pub('settings/'));
    assert.equal(settings.status, 200);
    assert.equal(settings.body.anchor, anchor);
    assert.equal(settings.body.is_comments_enabled, false);
    assert.equal(settings.body.created_by, undefined);

    const list = await get(pub('issues/'));
    assert.equal(list.status, 200, JSON.stringify(list.body));
    for (const k of [
      'next_cursor',
      'prev_cursor',
      'next_page_results',
      'prev_page_results',
      'count',
      'total_pages',
      'total_results',
      'results',
    ]) {
      assert.ok(k in list.body, `envelope has ${k}`);
    }
    assert.equal(list.body.total_results, 2, 'drafts are not public');
    assert.deepEqual(
      list.body.results.map((i: { id: string }) => i.id),
      [issueB, issueA],
      'newest first',
    );
    const a = list.body.results.find((i: { id: string }) => i.id === issueA);
    assert.deepEqual(a.label_ids, [labelId]);
    assert.deepEqual(a.assignee_ids, [admin.userId]);
    assert.equal(a.priority, 'high');
    assert.equal(a.state__group, 'backlog');
    assert.deepEqual(a.vote_items, []);
    assert.deepEqual(a.reaction_items, []);
    assert.equal(a.cycle_id, null);
    assert.deepEqual(a.module_ids, []);

    const paged = await get(`${pub('issues/')}?per_page=1`);
    assert.equal(paged.body.results.length, 1);
    assert.equal(paged.body.next_page_results, true);
    const next = await get(`${pub('issues/')}?per_page=1&cursor=${encodeURIComponent(paged.body.next_cursor)}`);
    assert.deepEqual(
      next.body.results.map((i: { id: string }) => i.id),
      [issueA],
    );

    assert.deepEqual(
      (await get(`${pub('issues/')}?priority=high`)).body.results.map((i: { id: string }) => i.id),
      [issueA],
    );
    assert.deepEqual(
      (await get(`${pub('issues/')}?labels=${labelId}`)).body.results.map((i: { id: string }) => i.id),
      [issueA],
    );
    assert.equal((await get(`${pub('issues/')}?state_group=completed`)).body.total_results, 0);
    assert.equal((await get(`${pub('issues/')}?state_group=backlog`)).body.total_results, 2);
    assert.deepEqual(
      (await get(`${pub('issues/')}?order_by=sequence_id`)).body.results.map((i: { id: string }) => i.id),
      [issueA, issueB],
    );
    // grouped by state, as the published boards' app asks (`group_by=state_id`): every state a group
    const grouped = await get(`${pub('issues/')}?cursor=50:0:0&per_page=50&group_by=state_id`);
    assert.equal(grouped.status, 200, JSON.stringify(grouped.body));
    assert.equal(grouped.body.grouped_by, 'state_id');
    assert.equal(grouped.body.total_count, 2);
    const boardStates = (await get(pub('states/'))).body as Array<{ id: string; group: string }>;
    assert.deepEqual(Object.keys(grouped.body.results).sort(), boardStates.map((st) => st.id).sort());
    const backlog = boardStates.find((st) => st.group === 'backlog')!.id;
    assert.deepEqual(
      grouped.body.results[backlog].results.map((i: { id: string }) => i.id),
      [issueB, issueA],
    );
    assert.equal(grouped.body.results[backlog].total_results, 2);
    const byPriority = await get(`${pub('issues/')}?group_by=priority&priority=high`);
    assert.deepEqual(Object.keys(byPriority.body.results), ['urgent', 'high', 'medium', 'low', 'none']);
    assert.deepEqual(
      byPriority.body.results.high.results.map((i: { id: string }) => i.id),
      [issueA],
    );
    assert.equal(
      byPriority.body.results.none.total_results,
      0,
      'a filter on the grouped field keeps other groups empty',
    );
    assertError(await get(`${pub('issues/')}?group_by=created_by`), 400, 'INVALID_QUERY_PARAMETER');
    assertError(await get(`${pub('issues/')}?order_by=password`), 400, 'INVALID_QUERY_PARAMETER');
    assertError(await get(`${pub('issues/')}?priority=extreme`), 400, 'INVALID_QUERY_PARAMETER');

    const one = await get(pub(`issues/${issueA}/`));
    assert.equal(one.status, 200);
    assert.equal(one.body.name, 'Public item A');
    assert.equal(typeof one.body.description_html, 'string');
    // a work item of another (unpublished) project is not reachable through this anchor
    const foreign = await t.api
      .post(`/api/v1/workspaces/${w.slug}/projects/${unpublished.id}/issues/`)
      .set('X-API-Key', key)
      .send({ name: 'secret' });
    assert.equal(foreign.status, 201);
    assertError(await get(pub(`issues/${foreign.body.id}/`)), 404, 'NOT_FOUND');
    assertError(await get(pub('issues/not-a-uuid/')), 404, 'NOT_FOUND');

    const states = await get(pub('states/'));
    const dbStates = await t.sql<{ id: string }>(
      `SELECT id FROM states WHERE project_id = $1 AND deleted_at IS NULL AND "group" <> 'triage' ORDER BY sequence`,
      [project.id],
    );
    assert.deepEqual(
      states.body.map((s: { id: string }) => s.id),
      dbStates.map((s) => s.id),
    );
    assert.deepEqual(Object.keys(states.body[0]).sort(), ['color', 'group', 'id', 'name', 'sequence']);

    const labels = await get(pub('labels/'));
    assert.deepEqual(labels.body, [{ id: labelId, name: 'bug', color: '#ff0000', parent: null }]);

    const members = await get(pub('members/'));
    assert.deepEqual(
      members.body.map((m: { member: string }) => m.member).sort(),
      [admin.userId, member.userId].sort(),
    );
    assert.ok(
      members.body.every((m: Record<string, unknown>) => typeof m.member__display_name === 'string' && !('email' in m)),
    );

    assert.deepEqual((await get(pub('cycles/'))).body, []);
    assert.deepEqual((await get(pub('modules/'))).body, []);
    // planning shows through: the project's cycles and modules, and each work item's links
    const cycle = await t.api
      .post(v1('/cycles/'))
      .set('X-API-Key', key)
      .send({ name: 'Sprint 1', project_id: project.id });
    assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
    const mod = await t.api.post(v1('/modules/')).set('X-API-Key', key).send({ name: 'Launch' });
    assert.equal(mod.status, 201, JSON.stringify(mod.body));
    assert.equal(
      (
        await t.api
          .post(v1(`/cycles/${cycle.body.id}/cycle-issues/`))
          .set('X-API-Key', key)
          .send({ issues: [issueA] })
      ).status,
      200,
    );
    assert.equal(
      (
        await t.api
          .post(v1(`/modules/${mod.body.id}/module-issues/`))
          .set('X-API-Key', key)
          .send({ issues: [issueA] })
      ).status,
      200,
    );
    assert.deepEqual((await get(pub('cycles/'))).body, [{ id: cycle.body.id, name: 'Sprint 1' }]);
    assert.deepEqual((await get(pub('modules/'))).body, [{ id: mod.body.id, name: 'Launch' }]);
    const linked = await get(pub(`issues/${issueA}/`));
    assert.equal(linked.body.cycle_id, cycle.body.id);
    assert.deepEqual(linked.body.module_ids, [mod.body.id]);

    const lookup = await get(`/api/public/workspaces/${w.slug}/projects/${project.id}/anchor/`);
    assert.equal(lookup.status, 200);
    assert.equal(lookup.body.anchor, anchor);
    assertError(
      await get(`/api/public/workspaces/${w.slug}/projects/${unpublished.id}/anchor/`),
      404,
      'BOARD_NOT_FOUND',
    );
  });

  it('with comments, reactions and votes off, writes are refused with a clear error_code', async () => {
    // internal comments never show; while comments are off the list is empty
    assert.deepEqual((await get(pub(`issues/${issueA}/comments/`))).body, []);
    assertError(
      await send('post', pub(`issues/${issueA}/comments/`), null, { comment_html: '<p>hi</p>' }),
      401,
      'AUTHENTICATION_REQUIRED',
    );
    assertError(
      await send('post', pub(`issues/${issueA}/comments/`), outsider, { comment_html: '<p>hi</p>' }),
      403,
      'BOARD_COMMENTS_DISABLED',
    );
    assertError(
      await send('post', pub(`issues/${issueA}/reactions/`), outsider, { reaction: '128077' }),
      403,
      'BOARD_REACTIONS_DISABLED',
    );
    assertError(await send('post', pub(`issues/${issueA}/votes/`), outsider, { vote: 1 }), 403, 'BOARD_VOTES_DISABLED');
    assertError(await send('delete', pub(`issues/${issueA}/votes/`), outsider), 403, 'BOARD_VOTES_DISABLED');
    assertError(
      await send('delete', pub(`issues/${issueA}/reactions/128077/`), outsider),
      403,
      'BOARD_REACTIONS_DISABLED',
    );
    const rows = await t.sql('SELECT id FROM issue_comments WHERE issue_id = $1', [issueA]);
    assert.equal(rows.length, 1, 'only the internal comment exists');
  });

  it('with the settings on, a signed-in user comments, reacts and votes', async () => {
    const on = await send('patch', app(`${boardId}/`), admin, {
      is_comments_enabled: true,
      is_reactions_enabled: true,
      is_votes_enabled: true,
    });
    assert.equal(on.status, 200, JSON.stringify(on.body));
    assert.equal(on.body.is_votes_enabled, true);

    // comments
    assertError(
      await send('post', pub(`issues/${issueA}/comments/`), outsider, { comment_html: '' }),
      422,
      'VALIDATION_ERROR',
    );
    assertError(
      await send('post', pub(`issues/${issueA}/comments/`), outsider, { comment_html: '<p>x</p>', access: 'INTERNAL' }),
      422,
      'VALIDATION_ERROR',
    );
    const created = await send('post', pub(`issues/${issueA}/comments/`), outsider, {
      comment_html: '<p>Great <b>idea</b></p>',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.access, 'EXTERNAL');
    assert.equal(created.body.comment_stripped, 'Great idea');
    assert.equal(created.body.actor, outsider.userId);
    assert.equal(created.body.is_member, false);
    assert.equal(created.body.actor_detail.id, outsider.userId);
    assert.equal(created.body.actor_detail.email, undefined);
    const commentId = created.body.id;

    const comments = await get(pub(`issues/${issueA}/comments/`));
    assert.deepEqual(
      comments.body.map((c: { id: string }) => c.id),
      [commentId],
      'the internal comment stays hidden',
    );
    assert.equal((await get(pub(`issues/${issueA}/comments/${commentId}/`))).body.id, commentId);
    assertError(await get(pub(`issues/${issueA}/comments/${internalCommentId}/`)), 404, 'NOT_FOUND');

    // only the author edits or deletes
    assertError(
      await send('patch', pub(`issues/${issueA}/comments/${commentId}/`), member, { comment_html: '<p>hijack</p>' }),
      404,
      'NOT_FOUND',
    );
    assertError(await send('delete', pub(`issues/${issueA}/comments/${commentId}/`), admin), 404, 'NOT_FOUND');
    assertError(
      await send('patch', pub(`issues/${issueA}/comments/${internalCommentId}/`), admin, { comment_html: '<p>x</p>' }),
      404,
      'NOT_FOUND',
    );
    const edited = await send('patch', pub(`issues/${issueA}/comments/${commentId}/`), outsider, {
      comment_html: '<p>Edited</p>',
    });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.comment_html, '<p>Edited</p>');
    assert.ok(edited.body.edited_at);
    // the history records it, as for any comment
    const activity = await t.sql<{ verb: string }>(
      `SELECT verb FROM issue_activities WHERE issue_comment_id = $1 ORDER BY created_at`,
      [commentId],
    );
    assert.deepEqual(
      activity.map((r) => r.verb),
      ['created', 'updated'],
    );

    // reactions, per emoji
    const r1 = await send('post', pub(`issues/${issueA}/reactions/`), outsider, { reaction: '128077' });
    assert.equal(r1.status, 201, JSON.stringify(r1.body));
    assert.equal(r1.body.reaction, '128077');
    assert.equal(r1.body.actor_detail.id, outsider.userId);
    const r1again = await send('post', pub(`issues/${issueA}/reactions/`), outsider, { reaction: '128077' });
    assert.equal(r1again.status, 200);
    assert.equal(r1again.body.id, r1.body.id);
    assert.equal(
      (await send('post', pub(`issues/${issueA}/reactions/`), outsider, { reaction: '128512' })).status,
      201,
    );
    assert.equal((await send('post', pub(`issues/${issueA}/reactions/`), member, { reaction: '128077' })).status, 201);
    assertError(
      await send('post', pub(`issues/${issueA}/reactions/`), member, { reaction: 'two words' }),
      422,
      'VALIDATION_ERROR',
    );
    const reactions = await get(pub(`issues/${issueA}/reactions/`));
    assert.deepEqual(
      reactions.body.map((r: { reaction: string; actor: string }) => `${r.actor}:${r.reaction}`),
      [`${outsider.userId}:128077`, `${outsider.userId}:128512`, `${member.userId}:128077`],
    );

    // votes: one per user, changed or removed
    const v1res = await send('post', pub(`issues/${issueA}/votes/`), outsider, { vote: 1 });
    assert.equal(v1res.status, 201, JSON.stringify(v1res.body));
    assert.equal(v1res.body.vote, 1);
    const v2 = await send('post', pub(`issues/${issueA}/votes/`), outsider, { vote: -1 });
    assert.equal(v2.status, 201);
    assert.equal(v2.body.id, v1res.body.id);
    assert.equal(v2.body.vote, -1);
    assert.equal((await send('post', pub(`issues/${issueA}/votes/`), member, { vote: 1 })).status, 201);
    assertError(await send('post', pub(`issues/${issueA}/votes/`), member, { vote: 2 }), 422, 'VALIDATION_ERROR');
    const votes = await get(pub(`issues/${issueA}/votes/`));
    assert.deepEqual(
      votes.body.map((v: { vote: number; actor: string }) => [v.actor, v.vote]).sort(),
      [
        [outsider.userId, -1],
        [member.userId, 1],
      ].sort(),
    );

    // the list shows them too
    const item = (await get(pub('issues/'))).body.results.find((i: { id: string }) => i.id === issueA);
    assert.equal(item.vote_items.length, 2);
    assert.equal(item.reaction_items.length, 3);
    assert.ok(
      item.vote_items.every(
        (v: { actor_details: Record<string, unknown> }) => typeof v.actor_details.display_name === 'string',
      ),
    );
    assert.deepEqual(
      (await get(pub('issues/'))).body.results.find((i: { id: string }) => i.id === issueB).vote_items,
      [],
    );

    // removals
    assert.equal((await send('delete', pub(`issues/${issueA}/votes/`), outsider)).status, 204);
    assertError(await send('delete', pub(`issues/${issueA}/votes/`), outsider), 404, 'NOT_FOUND');
    assert.deepEqual(
      (await get(pub(`issues/${issueA}/votes/`))).body.map((v: { actor: string }) => v.actor),
      [member.userId],
    );
    assert.equal((await send('delete', pub(`issues/${issueA}/reactions/128512/`), outsider)).status, 204);
    assertError(await send('delete', pub(`issues/${issueA}/reactions/128512/`), outsider), 404, 'NOT_FOUND');
    assert.equal((await get(pub(`issues/${issueA}/reactions/`))).body.length, 2);
    assert.equal((await send('delete', pub(`issues/${issueA}/comments/${commentId}/`), outsider)).status, 204);
    assert.deepEqual((await get(pub(`issues/${issueA}/comments/`))).body, []);

    // a new comment stays for the leak check below
    assert.equal(
      (await send('post', pub(`issues/${issueB}/comments/`), member, { comment_html: '<p>member says</p>' })).body
        .is_member,
      true,
    );

    // switched off again: refused again
    await send('patch', app(`${boardId}/`), admin, {
      is_comments_enabled: false,
      is_reactions_enabled: false,
      is_votes_enabled: false,
    });
    assertError(await send('post', pub(`issues/${issueA}/votes/`), outsider, { vote: 1 }), 403, 'BOARD_VOTES_DISABLED');
    assertError(
      await send('patch', pub(`issues/${issueA}/comments/${commentId}/`), outsider, { comment_html: '<p>x</p>' }),
      403,
      'BOARD_COMMENTS_DISABLED',
    );
    await send('patch', app(`${boardId}/`), admin, {
      is_comments_enabled: true,
      is_reactions_enabled: true,
      is_votes_enabled: true,
    });
  });

  it('no public response carries an email, a secret, or an id of another workspace or an unpublished project', async () => {
    // another workspace, with its own project, work item, label, member
    const stranger = await signUp(t);
    const w2 = await createWorkspace(t, stranger.token);
    const key2 = await createApiKey(t, stranger.token, w2.slug);
    const p2 = await createAppProject(t, stranger.token, w2.slug);
    const other = await t.api
      .post(`/api/v1/workspaces/${w2.slug}/projects/${p2.id}/issues/`)
      .set('X-API-Key', key2)
      .send({ name: 'other' });
    assert.equal(other.status, 201);
    const board2 = await t.api
      .post(`/api/workspaces/${w2.slug}/projects/${p2.id}/project-deploy-boards/`)
      .set(...bearer(stranger))
      .send({});
    assert.equal(board2.status, 201);

    // walk the whole board once more, as a signed-in user and anonymously
    for (const user of [undefined, outsider]) {
      for (const path of [
        'meta/',
        'settings/',
        'issues/',
        `issues/${issueA}/`,
        `issues/${issueB}/`,
        `issues/${issueA}/comments/`,
        `issues/${issueB}/comments/`,
        `issues/${issueA}/reactions/`,
        `issues/${issueA}/votes/`,
        'states/',
        'labels/',
        'members/',
        'cycles/',
        'modules/',
      ]) {
        const res = await get(pub(path), user);
        assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
      }
    }
    // asking for the other board's objects through this anchor gives nothing
    assertError(await get(pub(`issues/${other.body.id}/`)), 404, 'NOT_FOUND');

    const forbiddenIds = new Set<string>();
    const collect = async (text: string, params: unknown[]) => {
      for (const row of await t.sql<Record<string, string>>(text, params))
        for (const v of Object.values(row)) if (v) forbiddenIds.add(String(v));
    };
    await collect('SELECT id FROM workspaces WHERE id <> $1', [w.id]);
    await collect('SELECT id FROM projects WHERE id <> $1', [project.id]);
    await collect('SELECT id FROM issues WHERE project_id <> $1', [project.id]);
    await collect('SELECT id FROM issues WHERE project_id = $1 AND is_draft', [project.id]);
    await collect('SELECT id FROM states WHERE project_id <> $1', [project.id]);
    await collect('SELECT id FROM labels WHERE project_id <> $1', [project.id]);
    await collect('SELECT id, anchor FROM deploy_boards WHERE project_id <> $1', [project.id]);
    await collect('SELECT id FROM issue_comments WHERE access <> $1', ['EXTERNAL']);
    await collect('SELECT id, token_digest FROM api_tokens', []);
    forbiddenIds.add(stranger.userId);
    const secrets = [admin.token, member.token, outsider.token, stranger.token, key, key2, admin.password];
    const emails = [admin.email, member.email, outsider.email, stranger.email].map((e) => e.toLowerCase());

    assert.ok(seen.length > 50, `walked ${seen.length} responses`);
    let strings = 0;
    const walk = (value: unknown, path: string): void => {
      if (typeof value === 'string') {
        strings++;
        assert.doesNotMatch(
          value,
          /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/,
          `${path} looks like an email: ${value}`,
        );
        assert.ok(!emails.some((e) => value.toLowerCase().includes(e)), `${path} carries an email`);
        assert.ok(!secrets.some((s) => s && value.includes(s)), `${path} carries a secret`);
        assert.doesNotMatch(value, /plane_api_|^[A-Za-z0-9_-]{40,}$/, `${path} looks like a token: ${value}`);
        assert.ok(!forbiddenIds.has(value), `${path} is an id from elsewhere: ${value}`);
        return;
      }
      if (Array.isArray(value)) value.forEach((v, i) => walk(v, `${path}[${i}]`));
      else if (value && typeof value === 'object') {
        for (const [k, v] of Object.entries(value)) {
          assert.ok(!/email|token|password|secret|api_key/i.test(k), `${path}.${k} is a private field`);
          walk(v, `${path}.${k}`);
        }
      }
    };
    seen.forEach((body, i) => walk(body, `#${i}`));
    assert.ok(strings > 200, `checked ${strings} strings`);
  });

  it('unpublishing (a project Member may, as in Plane; a Guest may not) makes the anchor a 404; publishing again gives a new anchor', async () => {
    const guest = await signUp(t);
    await addMember(t, w.id, guest.userId, 5);
    await addProjectMember(t, w.id, project.id, guest.userId, 5);
    assertError(await send('delete', app(`${boardId}/`), guest), 403, 'PERMISSION_DENIED');
    assert.equal((await send('delete', app(`${boardId}/`), member)).status, 204);
    for (const path of [
      'meta/',
      'settings/',
      'issues/',
      `issues/${issueA}/`,
      `issues/${issueA}/comments/`,
      'states/',
      'labels/',
      'members/',
      'cycles/',
    ]) {
      assertError(await get(pub(path)), 404, 'BOARD_NOT_FOUND');
    }
    assertError(await send('post', pub(`issues/${issueA}/votes/`), outsider, { vote: 1 }), 404, 'BOARD_NOT_FOUND');
    assertError(await get(`/api/public/workspaces/${w.slug}/projects/${project.id}/anchor/`), 404, 'BOARD_NOT_FOUND');
    assertError(await t.api.get(app(`${boardId}/`)).set(...bearer(admin)), 404, 'NOT_FOUND');
    assert.deepEqual((await t.api.get(app()).set(...bearer(admin))).body, {});
    const project1 = await t.api.get(`/api/workspaces/${w.slug}/projects/${project.id}/`).set(...bearer(admin));
    assert.equal(project1.body.is_deployed, false);

    const again = await send('post', app(), admin, {});
    assert.equal(again.status, 201);
    assert.notEqual(again.body.anchor, anchor);
    assertError(await get(pub('meta/')), 404, 'BOARD_NOT_FOUND');
    assert.equal((await get(pub('meta/', again.body.anchor))).status, 200);

    // an archived project's board is not served either
    await t.api
      .post(`/api/workspaces/${w.slug}/projects/${project.id}/archive/`)
      .set(...bearer(admin))
      .expect(200);
    assertError(await get(pub('meta/', again.body.anchor)), 404, 'BOARD_NOT_FOUND');
    await t.api
      .delete(`/api/workspaces/${w.slug}/projects/${project.id}/archive/`)
      .set(...bearer(admin))
      .expect(204);
    assert.equal((await get(pub('meta/', again.body.anchor))).status, 200);
  });

  it('unknown and malformed anchors are 404s', async () => {
    assertError(await get(pub('meta/', '0123456789abcdef0123456789abcdef')), 404, 'BOARD_NOT_FOUND');
    assertError(await get(pub('meta/', 'nope')), 404, 'BOARD_NOT_FOUND');
    assertError(await get(pub('issues/', `${unique('x')}'--`)), 404, 'BOARD_NOT_FOUND');
  });
});

describe('Public API rate limit', () => {
  let t: TestApp;
  before(async () => (t = await startTestApp({ PUBLIC_RATE_LIMIT: '3/minute' })));
  after(() => t.close());

  it('counts every public route of an address together and answers 429 with the limit headers', async () => {
    const admin = await signUp(t);
    const w = await createWorkspace(t, admin.token);
    const p = await createAppProject(t, admin.token, w.slug);
    const board = await t.api
      .post(`/api/workspaces/${w.slug}/projects/${p.id}/project-deploy-boards/`)
      .set('Authorization', `Bearer ${admin.token}`)
      .send({});
    assert.equal(board.status, 201);
    const anchor = board.body.anchor as string;

    const first = await t.api.get(`/api/public/anchor/${anchor}/meta/`);
    assert.equal(first.status, 200);
    assert.equal(first.headers['x-ratelimit-limit'], '3');
    assert.equal(first.headers['x-ratelimit-remaining'], '2');
    assert.ok(Number(first.headers['x-ratelimit-reset']) > Date.now() / 1000);
    assert.equal((await t.api.get(`/api/public/anchor/${anchor}/states/`)).headers['x-ratelimit-remaining'], '1');
    assert.equal((await t.api.get(`/api/public/anchor/${anchor}/labels/`)).status, 200);
    const limited = await t.api.get(`/api/public/anchor/${anchor}/issues/`);
    assertError(limited, 429, 'RATE_LIMIT_EXCEEDED');
    assert.ok(Number(limited.headers['retry-after']) >= 1);
    assert.equal(limited.headers['x-ratelimit-remaining'], '0');
    // the App API is not counted against it
    assert.equal(
      (await t.api.get(`/api/workspaces/${w.slug}/projects/${p.id}/`).set('Authorization', `Bearer ${admin.token}`))
        .status,
      200,
    );
  });
});
