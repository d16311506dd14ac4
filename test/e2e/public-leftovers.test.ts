import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

const NIL = '00000000-0000-4000-8000-000000000000';

/**
 * The Public API's comment reactions, intake and workspace boards (Plane `plane/space/views/issue.py`
 * CommentReactionPublicViewSet, `intake.py` IntakeIssuePublicViewSet, `project.py`
 * WorkspaceProjectDeployBoardEndpoint).
 */
describe('Public API: comment reactions, intake, workspace boards', () => {
  let t: TestApp;
  let admin: SignedUp;
  let visitor: SignedUp;
  let other: SignedUp;
  let key: string;
  let w: { id: string; slug: string };
  let project: { id: string; identifier: string };
  let boardId: string;
  let anchor: string;
  let issueId: string;
  let externalComment: string;
  let internalComment: string;
  let intakeId: string;

  const bearer = (u: SignedUp) => ['Authorization', `Bearer ${u.token}`] as const;
  const v1 = (path: string) => `/api/v1/workspaces/${w.slug}/projects/${project.id}${path}`;
  const board = (path = '') => `/api/workspaces/${w.slug}/projects/${project.id}/project-deploy-boards/${path}`;
  const pub = (path: string, a = anchor) => `/api/public/anchor/${a}/${path}`;

  before(async () => {
    t = await startTestApp({
      API_KEY_RATE_LIMIT: '100000',
      PUBLIC_RATE_LIMIT: '100000/minute',
      UPLOADS_DIR: mkdtempSync(path.join(tmpdir(), 'meridian-public-assets-')),
      FILE_SIZE_LIMIT: '100000',
    });
    [admin, visitor, other] = [await signUp(t), await signUp(t), await signUp(t)];
    w = await createWorkspace(t, admin.token);
    key = await createApiKey(t, admin.token, w.slug);
    project = await createAppProject(t, admin.token, w.slug, { network: 2 });
    const res = await t.api
      .post(board())
      .set(...bearer(admin))
      .send({});
    assert.equal(res.status, 201, JSON.stringify(res.body));
    boardId = res.body.id;
    anchor = res.body.anchor;
    const issue = await t.api.post(v1('/issues/')).set('X-API-Key', key).send({ name: 'Shown' });
    issueId = issue.body.id;
    const internal = await t.api
      .post(v1(`/issues/${issueId}/comments/`))
      .set('X-API-Key', key)
      .send({ comment_html: '<p>internal</p>' });
    internalComment = internal.body.id;
    await t.api
      .patch(board(`${boardId}/`))
      .set(...bearer(admin))
      .send({ is_comments_enabled: true });
    const ext = await t.api
      .post(pub(`issues/${issueId}/comments/`))
      .set(...bearer(visitor))
      .send({ comment_html: '<p>hello</p>' });
    assert.equal(ext.status, 201, JSON.stringify(ext.body));
    externalComment = ext.body.id;
  });
  after(() => t.close());

  it('comment reactions: off → GET [] and writes 403; on → 201, 200 again, listed newest first, DELETE 204 then 404', async () => {
    const list0 = await t.api.get(pub(`comments/${externalComment}/reactions/`)).set(...bearer(visitor));
    assert.equal(list0.status, 200, JSON.stringify(list0.body));
    assert.deepEqual(list0.body, []);
    assertError(
      await t.api
        .post(pub(`comments/${externalComment}/reactions/`))
        .set(...bearer(visitor))
        .send({ reaction: '128077' }),
      403,
      'BOARD_REACTIONS_DISABLED',
    );
    await t.api
      .patch(board(`${boardId}/`))
      .set(...bearer(admin))
      .send({ is_reactions_enabled: true });

    const first = await t.api
      .post(pub(`comments/${externalComment}/reactions/`))
      .set(...bearer(visitor))
      .send({ reaction: '128077' });
    assert.equal(first.status, 201, JSON.stringify(first.body));
    assert.equal(first.body.reaction, '128077');
    assert.equal(first.body.comment, externalComment);
    assert.equal(first.body.actor, visitor.userId);
    assert.ok(first.body.actor_detail);
    assert.ok(!('email' in first.body.actor_detail), 'no email leaves the public API');
    const again = await t.api
      .post(pub(`comments/${externalComment}/reactions/`))
      .set(...bearer(visitor))
      .send({ reaction: '128077' });
    assert.equal(again.status, 200);
    assert.equal(again.body.id, first.body.id);
    const second = await t.api
      .post(pub(`comments/${externalComment}/reactions/`))
      .set(...bearer(other))
      .send({ reaction: '10084' });
    assert.equal(second.status, 201);

    const list = await t.api.get(pub(`comments/${externalComment}/reactions/`)).set(...bearer(other));
    assert.deepEqual(
      list.body.map((r: { reaction: string }) => r.reaction),
      ['10084', '128077'],
    );
    assert.ok(list.body.every((r: { actor_detail: object }) => !('email' in r.actor_detail)));

    // another's reaction is not the caller's to remove
    assertError(
      await t.api.delete(pub(`comments/${externalComment}/reactions/10084/`)).set(...bearer(visitor)),
      404,
      'NOT_FOUND',
    );
    const del = await t.api.delete(pub(`comments/${externalComment}/reactions/128077/`)).set(...bearer(visitor));
    assert.equal(del.status, 204);
    assertError(
      await t.api.delete(pub(`comments/${externalComment}/reactions/128077/`)).set(...bearer(visitor)),
      404,
      'NOT_FOUND',
    );
  });

  it('comment reactions: validation, internal or foreign comments 404, sign-in required', async () => {
    for (const body of [{}, { reaction: '' }, { reaction: 'a b' }, { reaction: 5 }, { reaction: 'x'.repeat(21) }]) {
      assertError(
        await t.api
          .post(pub(`comments/${externalComment}/reactions/`))
          .set(...bearer(visitor))
          .send(body),
        422,
        'VALIDATION_ERROR',
      );
    }
    for (const id of [internalComment, NIL]) {
      assertError(await t.api.get(pub(`comments/${id}/reactions/`)).set(...bearer(visitor)), 404, 'NOT_FOUND');
      assertError(
        await t.api
          .post(pub(`comments/${id}/reactions/`))
          .set(...bearer(visitor))
          .send({ reaction: '1' }),
        404,
        'NOT_FOUND',
      );
    }
    assertError(await t.api.get(pub(`comments/not-a-uuid/reactions/`)).set(...bearer(visitor)), 404, 'NOT_FOUND');
    assertError(
      await t.api.get(pub(`comments/${externalComment}/reactions/`, 'f'.repeat(32))).set(...bearer(visitor)),
      404,
      'BOARD_NOT_FOUND',
    );
    assertError(await t.api.get(pub(`comments/${externalComment}/reactions/`)), 401, 'AUTHENTICATION_REQUIRED');
    assertError(
      await t.api.post(pub(`comments/${externalComment}/reactions/`)).send({ reaction: '1' }),
      401,
      'AUTHENTICATION_REQUIRED',
    );
    assertError(await t.api.delete(pub(`comments/${externalComment}/reactions/1/`)), 401, 'AUTHENTICATION_REQUIRED');
  });

  it('intake: 403 BOARD_INTAKE_DISABLED until the board shows one; another intake id is 404', async () => {
    const url = pub(`intakes/${NIL}/intake-issues/`);
    assertError(await t.api.get(url).set(...bearer(visitor)), 403, 'BOARD_INTAKE_DISABLED');
    assertError(
      await t.api
        .post(url)
        .set(...bearer(visitor))
        .send({ issue: { name: 'x' } }),
      403,
      'BOARD_INTAKE_DISABLED',
    );
    assert.equal((await t.api.patch(v1('/')).set('X-API-Key', key).send({ intake_view: true })).status, 200);
    const seed = await t.api
      .post(v1('/intake-issues/'))
      .set('X-API-Key', key)
      .send({ issue: { name: 'Seeded by a member' } });
    assert.equal(seed.status, 201, JSON.stringify(seed.body));
    intakeId = seed.body.intake;
    const patched = await t.api
      .patch(board(`${boardId}/`))
      .set(...bearer(admin))
      .send({ intake: intakeId });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    assertError(await t.api.get(url).set(...bearer(visitor)), 404, 'NOT_FOUND');
    assertError(await t.api.get(pub(`intakes/not-a-uuid/intake-issues/`)).set(...bearer(visitor)), 404, 'NOT_FOUND');
  });

  it('intake: a visitor submits (201, pending), sees only their own items, edits name and description, withdraws', async () => {
    const url = (rest = '') => pub(`intakes/${intakeId}/intake-issues/${rest}`);
    const created = await t.api
      .post(url())
      .set(...bearer(visitor))
      .send({ issue: { name: 'Feature idea', description_html: '<p>please</p>', priority: 'high' }, source: 'X' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    assert.equal(created.body.status, -2);
    assert.equal(created.body.source, 'IN_APP');
    assert.equal(created.body.intake, intakeId);
    assert.equal(created.body.issue_detail.name, 'Feature idea');
    assert.equal(created.body.issue_detail.priority, 'high');
    assert.equal(created.body.created_by, visitor.userId);
    const alias = await t.api
      .post(pub(`intakes/${intakeId}/inbox-issues/`))
      .set(...bearer(visitor))
      .send({ issue: { name: 'Second idea' } });
    assert.equal(alias.status, 201, JSON.stringify(alias.body));

    // the pending work item is not on the board
    assertError(await t.api.get(pub(`issues/${created.body.issue}/`)), 404, 'NOT_FOUND');

    const mine = await t.api.get(url()).set(...bearer(visitor));
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    assert.deepEqual(mine.body.results.map((r: { issue_detail: { name: string } }) => r.issue_detail.name).sort(), [
      'Feature idea',
      'Second idea',
    ]);
    const theirs = await t.api.get(pub(`intakes/${intakeId}/inbox-issues/`)).set(...bearer(other));
    assert.equal(theirs.body.results.length, 0, 'another visitor sees none of them');

    // retrieve by the intake item's id or the work item's id; another's is a 404
    for (const id of [created.body.id, created.body.issue]) {
      const one = await t.api.get(url(`${id}/`)).set(...bearer(visitor));
      assert.equal(one.status, 200, JSON.stringify(one.body));
      assert.equal(one.body.id, created.body.id);
    }
    assertError(await t.api.get(url(`${created.body.id}/`)).set(...bearer(other)), 404, 'NOT_FOUND');
    assertError(await t.api.get(url(`${NIL}/`)).set(...bearer(visitor)), 404, 'NOT_FOUND');

    // edit: name and description only; the priority in the body is ignored (Plane reads only these)
    const edited = await t.api
      .patch(url(`${created.body.id}/`))
      .set(...bearer(visitor))
      .send({ issue: { name: 'Better idea', description_html: '<p>pretty please</p>', priority: 'urgent' } });
    assert.equal(edited.status, 200, JSON.stringify(edited.body));
    assert.equal(edited.body.issue_detail.name, 'Better idea');
    assert.equal(edited.body.issue_detail.priority, 'high');
    assertError(
      await t.api
        .patch(url(`${created.body.id}/`))
        .set(...bearer(other))
        .send({ issue: { name: 'Hijack' } }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api
        .patch(url(`${created.body.id}/`))
        .set(...bearer(visitor))
        .send({ issue: { name: '' } }),
      422,
      'VALIDATION_ERROR',
    );

    // the member's seeded item is not a visitor's to read, edit or delete
    const [seed] = await t.sql<{ id: string }>(
      `SELECT ii.id FROM intake_issues ii JOIN issues i ON i.id = ii.issue_id WHERE i.name = 'Seeded by a member'`,
    );
    assertError(await t.api.delete(url(`${seed.id}/`)).set(...bearer(visitor)), 404, 'NOT_FOUND');

    assertError(await t.api.delete(url(`${created.body.id}/`)).set(...bearer(other)), 404, 'NOT_FOUND');
    assert.equal((await t.api.delete(url(`${created.body.id}/`)).set(...bearer(visitor))).status, 204);
    assertError(await t.api.get(url(`${created.body.id}/`)).set(...bearer(visitor)), 404, 'NOT_FOUND');
    const [gone] = await t.sql<{ deleted: boolean }>(
      'SELECT deleted_at IS NOT NULL AS deleted FROM issues WHERE id = $1',
      [created.body.issue],
    );
    assert.equal(gone.deleted, true);
  });

  it('intake: validation, sign-in required, the project intake switch', async () => {
    const url = pub(`intakes/${intakeId}/intake-issues/`);
    for (const body of [
      {},
      { issue: {} },
      { issue: { name: '' } },
      { issue: { name: 'x', priority: 'huge' } },
      { issue: 5 },
    ]) {
      const res = await t.api
        .post(url)
        .set(...bearer(visitor))
        .send(body);
      assert.ok([422].includes(res.status), `${JSON.stringify(body)} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    assertError(await t.api.get(url), 401, 'AUTHENTICATION_REQUIRED');
    assertError(await t.api.post(url).send({ issue: { name: 'anon' } }), 401, 'AUTHENTICATION_REQUIRED');
    assertError(await t.api.get(`${url}${NIL}/`), 401, 'AUTHENTICATION_REQUIRED');
    assert.equal((await t.api.patch(v1('/')).set('X-API-Key', key).send({ intake_view: false })).status, 200);
    assertError(
      await t.api
        .post(url)
        .set(...bearer(visitor))
        .send({ issue: { name: 'late' } }),
      400,
      'INTAKE_NOT_ENABLED',
    );
    assert.equal((await t.api.patch(v1('/')).set('X-API-Key', key).send({ intake_view: true })).status, 200);
  });

  it('assets: a visitor uploads a comment image (presigned flow), links it, reads it publicly; others cannot touch it', async () => {
    const base = (rest = '') => `/api/public/assets/v2/anchor/${anchor}/${rest}`;
    const local = (url: string) => {
      const u = new URL(url);
      return u.pathname + u.search;
    };
    const created = await t.api
      .post(base())
      .set(...bearer(visitor))
      .send({
        name: 'shot.png',
        type: 'image/png',
        size: 4,
        entity_type: 'COMMENT_DESCRIPTION',
        entity_identifier: '',
      });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    assert.deepEqual(Object.keys(created.body).sort(), ['asset_id', 'asset_url', 'upload_data']);
    const id = created.body.asset_id as string;
    assert.equal(created.body.asset_url, `/api/public/assets/v2/anchor/${anchor}/${id}/`);
    // not uploaded yet: completing is refused, reading is a 404
    assertError(
      await t.api
        .patch(base(`${id}/`))
        .set(...bearer(visitor))
        .send({}),
      400,
      'ATTACHMENT_NOT_UPLOADED',
    );
    assertError(await t.api.get(base(`${id}/`)), 404, 'NOT_FOUND');
    let up = t.api.post(local(created.body.upload_data.url));
    for (const [k, v] of Object.entries(created.body.upload_data.fields as Record<string, string>)) up = up.field(k, v);
    assert.equal(
      (await up.attach('file', Buffer.from('PNG!'), { filename: 'shot.png', contentType: 'image/png' })).status,
      204,
    );
    // another visitor cannot complete, delete or restore it
    assertError(
      await t.api
        .patch(base(`${id}/`))
        .set(...bearer(other))
        .send({}),
      404,
      'NOT_FOUND',
    );
    assertError(await t.api.delete(base(`${id}/`)).set(...bearer(other)), 404, 'NOT_FOUND');
    assert.equal(
      (
        await t.api
          .patch(base(`${id}/`))
          .set(...bearer(visitor))
          .send({ attributes: { name: 'a.png' } })
      ).status,
      204,
    );
    // public read: 302 to a signed URL that serves the file
    const read = await t.api.get(base(`${id}/`));
    assert.equal(read.status, 302);
    const file = await t.api.get(local(new URL(read.headers.location, t.url).toString())).buffer(true);
    assert.equal(file.status, 200);
    assert.equal(Buffer.from(file.body).toString(), 'PNG!');
    // bulk link to the visitor's comment
    assertError(
      await t.api
        .post(base(`${externalComment}/bulk/`))
        .set(...bearer(other))
        .send({ asset_ids: [id] }),
      404,
      'NOT_FOUND',
    );
    assert.equal(
      (
        await t.api
          .post(base(`${externalComment}/bulk/`))
          .set(...bearer(visitor))
          .send({ asset_ids: [id] })
      ).status,
      204,
    );
    const [row] = await t.sql<{ comment_id: string }>('SELECT comment_id FROM file_assets WHERE id = $1', [id]);
    assert.equal(row.comment_id, externalComment);
    assertError(
      await t.api
        .post(base(`${NIL}/bulk/`))
        .set(...bearer(visitor))
        .send({ asset_ids: [id] }),
      404,
      'NOT_FOUND',
    );
    // delete and restore
    assert.equal((await t.api.delete(base(`${id}/`)).set(...bearer(visitor))).status, 204);
    assertError(await t.api.get(base(`${id}/`)), 404, 'NOT_FOUND');
    assertError(await t.api.post(base(`restore/${id}/`)).set(...bearer(other)), 404, 'NOT_FOUND');
    assert.equal((await t.api.post(base(`restore/${id}/`)).set(...bearer(visitor))).status, 204);
    assert.equal((await t.api.get(base(`${id}/`))).status, 302);
  });

  it('assets: validation, entity checks, sign-in for writes, foreign anchors and ids', async () => {
    const base = (rest = '', a = anchor) => `/api/public/assets/v2/anchor/${a}/${rest}`;
    const img = { name: 'x.png', type: 'image/png', size: 3 };
    assertError(
      await t.api
        .post(base())
        .set(...bearer(visitor))
        .send({ ...img, entity_type: 'PROJECT_COVER' }),
      400,
      'INVALID_ENTITY_TYPE',
    );
    assertError(
      await t.api
        .post(base())
        .set(...bearer(visitor))
        .send({ ...img, type: 'text/html', entity_type: 'COMMENT_DESCRIPTION' }),
      400,
      'ATTACHMENT_TYPE_NOT_ALLOWED',
    );
    assertError(
      await t.api
        .post(base())
        .set(...bearer(visitor))
        .send({ ...img, size: 10_000_000, entity_type: 'COMMENT_DESCRIPTION' }),
      413,
      'ATTACHMENT_TOO_LARGE',
    );
    for (const body of [
      {},
      { ...img },
      { ...img, size: 0, entity_type: 'COMMENT_DESCRIPTION' },
      { ...img, name: '', entity_type: 'COMMENT_DESCRIPTION' },
    ]) {
      assertError(
        await t.api
          .post(base())
          .set(...bearer(visitor))
          .send(body),
        422,
        'VALIDATION_ERROR',
      );
    }
    // a work item the visitor did not make, or an unknown comment: 404
    assertError(
      await t.api
        .post(base())
        .set(...bearer(visitor))
        .send({ ...img, entity_type: 'ISSUE_DESCRIPTION', entity_identifier: issueId }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api
        .post(base())
        .set(...bearer(visitor))
        .send({ ...img, entity_type: 'COMMENT_DESCRIPTION', entity_identifier: NIL }),
      404,
      'NOT_FOUND',
    );
    assertError(
      await t.api.post(base()).send({ ...img, entity_type: 'COMMENT_DESCRIPTION' }),
      401,
      'AUTHENTICATION_REQUIRED',
    );
    assertError(await t.api.patch(base(`${NIL}/`)).send({}), 401, 'AUTHENTICATION_REQUIRED');
    assertError(await t.api.get(base(`${NIL}/`)), 404, 'NOT_FOUND');
    assertError(await t.api.get(base('not-a-uuid/')), 404, 'NOT_FOUND');
    assertError(await t.api.get(base(`${NIL}/`, 'f'.repeat(32))), 404, 'BOARD_NOT_FOUND');
    assertError(
      await t.api
        .post(base('', 'f'.repeat(32)))
        .set(...bearer(visitor))
        .send({ ...img, entity_type: 'COMMENT_DESCRIPTION' }),
      404,
      'BOARD_NOT_FOUND',
    );
    assertError(
      await t.api
        .post(base(`${externalComment}/bulk/`))
        .set(...bearer(visitor))
        .send({ asset_ids: [] }),
      422,
      'VALIDATION_ERROR',
    );
    // an image of the App's own project assets is readable only when it is a description image of this project
    const appAsset = await t.api
      .post(`/api/assets/v2/workspaces/${w.slug}/projects/${project.id}/`)
      .set(...bearer(admin))
      .send({ ...img, entity_type: 'PROJECT_COVER' });
    assert.equal(appAsset.status, 200, JSON.stringify(appAsset.body));
    assertError(await t.api.get(base(`${appAsset.body.asset_id}/`)), 404, 'NOT_FOUND');
  });

  it('GET workspaces/{slug}/project-boards/: the published projects, anonymously; [] for an unknown workspace', async () => {
    const hidden = await createAppProject(t, admin.token, w.slug);
    const res = await t.api.get(`/api/public/workspaces/${w.slug}/project-boards/`);
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(
      res.body.map((p: { id: string }) => p.id),
      [project.id],
    );
    assert.deepEqual(Object.keys(res.body[0]).sort(), [
      'cover_image',
      'description',
      'emoji',
      'icon_prop',
      'id',
      'identifier',
      'name',
    ]);
    assert.ok(!res.body.some((p: { id: string }) => p.id === hidden.id));
    assert.deepEqual((await t.api.get('/api/public/workspaces/no-such-ws/project-boards/')).body, []);
    // unpublished: gone from the list
    assert.equal((await t.api.delete(board(`${boardId}/`)).set(...bearer(admin))).status, 204);
    assert.deepEqual((await t.api.get(`/api/public/workspaces/${w.slug}/project-boards/`)).body, []);
    assertError(
      await t.api.get(pub(`comments/${externalComment}/reactions/`)).set(...bearer(visitor)),
      404,
      'BOARD_NOT_FOUND',
    );
  });
});
