import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createApiKey, createAppProject, createWorkspace, signUp, SignedUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

interface CommentPage {
  total_count: number;
  count: number;
  results: Array<{ comment_html: string }>;
  next_page_results: boolean;
  next_cursor: string;
}

/**
 * One member cannot bring the server down (issue: "bounded reads"): every free-text field has a
 * size limit (docs/errors.md "Field size limits"), and a work item's comments and history, which
 * Plane answers whole, are read and written in chunks. Both engines.
 */
describe('memory per request: field size limits and lists answered in chunks', () => {
  let t: TestApp;
  let owner: SignedUp;
  let ws: { id: string; slug: string };
  let project: { id: string };
  let key: string;
  const app = () => `/api/workspaces/${ws.slug}/projects/${project.id}`;
  const v1 = () => `/api/v1/workspaces/${ws.slug}/projects/${project.id}`;
  const get = (path: string) => t.api.get(path).auth(owner.token, { type: 'bearer' });
  const post = (path: string, body: object) => t.api.post(path).auth(owner.token, { type: 'bearer' }).send(body);
  const newIssue = async (name = 'Talk') => {
    const res = await post(`${app()}/issues/`, { name });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  };

  before(async () => {
    // a body limit above the largest field, so that each field's own limit is what refuses it; an
    // answer budget of 400 KB, so that a page of work items holds at most 200 KB of descriptions
    t = await startTestApp({ BODY_LIMIT: '4mb', ANSWER_MEMORY_BUDGET: '400kb' });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    project = await createAppProject(t, owner.token, ws.slug, { identifier: 'MEM', name: 'Memory' });
    key = await createApiKey(t, owner.token, ws.slug);
  });
  after(() => t.close());

  describe('422 FIELD_TOO_LONG, and nothing written', () => {
    it("the outside finding's comment (900 KB: 450,000 × é) is refused on both APIs; the largest allowed one is kept", async () => {
      const issue = await newIssue();
      const huge = `<p>${'é'.repeat(450_000)}</p>`;
      const refused = await post(`${app()}/issues/${issue}/comments/`, { comment_html: huge });
      assertError(refused, 422, 'FIELD_TOO_LONG');
      assert.deepEqual(refused.body.errors, {
        comment_html: ['Ensure this field has no more than 262144 characters.'],
      });
      assert.match(refused.body.detail, /^comment_html: /);
      const viaKey = await t.api
        .post(`${v1()}/work-items/${issue}/comments/`)
        .set('X-API-Key', key)
        .send({ comment_html: huge });
      assertError(viaKey, 422, 'FIELD_TOO_LONG');
      const largest = `<p>${'é'.repeat(262_144 - 7)}</p>`;
      assert.equal(largest.length, 262_144);
      assert.equal((await post(`${app()}/issues/${issue}/comments/`, { comment_html: largest })).status, 201);
      assertError(
        await post(`${app()}/issues/${issue}/comments/`, { comment_html: `${largest}x` }),
        422,
        'FIELD_TOO_LONG',
      );
      const list = await get(`${app()}/issues/${issue}/comments/`);
      assert.equal(list.status, 200);
      assert.equal(list.body.length, 1, 'only the comment within the limit was written');
    });

    it('descriptions, links, names and settings; nested fields are named by their path', async () => {
      const issue = await newIssue('Kept');
      const desc = await t.api
        .patch(`${app()}/issues/${issue}/`)
        .auth(owner.token, { type: 'bearer' })
        .send({ description_html: `<p>${'a'.repeat(524_288)}</p>` });
      assertError(desc, 422, 'FIELD_TOO_LONG');
      assert.ok(desc.body.errors.description_html);
      const read = await get(`${app()}/issues/${issue}/`);
      assert.equal(read.body.name, 'Kept');
      assert.notEqual(read.body.description_html?.length, 524_295, 'the description was not written');
      const link = await post(`${app()}/issues/${issue}/issue-links/`, {
        url: `https://example.com/${'a'.repeat(8_200)}`,
      });
      assertError(link, 422, 'FIELD_TOO_LONG');
      assert.ok(link.body.errors.url);
      // a field with no limit of its own: 64 Ki characters, here inside a JSON setting
      const view = await post(`${app()}/views/`, { name: 'Wide', filters: { note: 'n'.repeat(65_537) } });
      assertError(view, 422, 'FIELD_TOO_LONG');
      assert.deepEqual(Object.keys(view.body.errors), ['filters.note']);
    });

    it('a rich-text document is measured as a whole: a long code block inside it is fine, a document over 1 Mi characters is not', async () => {
      const issue = await newIssue();
      const block = 'x'.repeat(100_000);
      const doc = (text: string) => ({
        type: 'doc',
        content: [{ type: 'codeBlock', content: [{ type: 'text', text }] }],
      });
      const ok = await post(`${app()}/issues/${issue}/comments/`, {
        comment_html: `<pre><code>${block}</code></pre>`,
        comment_json: doc(block),
      });
      assert.equal(ok.status, 201, JSON.stringify(ok.body).slice(0, 300));
      const tooBig = await post(`${app()}/issues/${issue}/comments/`, {
        comment_html: '<p>x</p>',
        comment_json: doc('y'.repeat(1_048_576)),
      });
      assertError(tooBig, 422, 'FIELD_TOO_LONG');
      assert.deepEqual(Object.keys(tooBig.body.errors), ['comment_json']);
    });
  });

  describe('a long history, read in chunks, answers every entry in order', () => {
    let issue: string;
    const texts: string[] = [];
    before(async () => {
      issue = await newIssue('Long');
      // about 800 KB each as the database measures a comment (its HTML and its stripped text):
      // the 4 MiB chunks hold five, so the answers below are made of several chunks
      for (let i = 0; i < 12; i++) {
        const text = `${i}${'é'.repeat(200_000)}`;
        texts.push(text);
        assert.equal(
          (await post(`${app()}/issues/${issue}/comments/`, { comment_html: `<p>${text}</p>` })).status,
          201,
        );
      }
    });

    it('history/ merges the history rows and every comment, oldest first and newest first', async () => {
      const asc = await get(`${app()}/issues/${issue}/history/`);
      assert.equal(asc.status, 200);
      assert.match(asc.headers['content-type'], /^application\/json/);
      const comments = (asc.body as Array<{ comment_html?: string; field?: string }>).filter((x) => x.comment_html);
      assert.deepEqual(
        comments.map((c) => c.comment_html),
        texts.map((x) => `<p>${x}</p>`),
      );
      assert.equal(asc.body[0].field === undefined || asc.body[0].comment_html === undefined, true);
      assert.ok(!asc.body[0].comment_html, 'the "created the work item" row comes first');
      const desc = await get(`${app()}/issues/${issue}/history/?order_by=-created_at`);
      assert.deepEqual(
        desc.body.map((x: { id: string }) => x.id),
        [...asc.body].reverse().map((x: { id: string }) => x.id),
      );
      const onlyComments = await get(`${app()}/issues/${issue}/history/?activity_type=issue-comment&fields=id`);
      assert.equal(onlyComments.body.length, 12);
      assert.deepEqual(Object.keys(onlyComments.body[0]), ['id']);
    });

    it("the App API's comment list (a bare array) and the External API's pages of comments", async () => {
      const list = await get(`${app()}/issues/${issue}/comments/`);
      assert.deepEqual(
        list.body.map((c: { comment_html: string }) => c.comment_html),
        [...texts].reverse().map((x) => `<p>${x}</p>`),
      );
      assert.ok(list.body[0].actor_detail, "the App API's shape");
      const seen: string[] = [];
      let cursor: string | null = null;
      do {
        const page: { status: number; body: CommentPage } = await t.api
          .get(`${v1()}/work-items/${issue}/comments/?per_page=5${cursor ? `&cursor=${cursor}` : ''}`)
          .set('X-API-Key', key);
        assert.equal(page.status, 200);
        assert.equal(page.body.total_count, 12);
        assert.equal(page.body.count, page.body.results.length);
        seen.push(...page.body.results.map((c: { comment_html: string }) => c.comment_html));
        cursor = page.body.next_page_results ? page.body.next_cursor : null;
      } while (cursor);
      assert.deepEqual(
        seen,
        [...texts].reverse().map((x) => `<p>${x}</p>`),
      );
    });

    it('a foreign or unknown work item is still a 404 before anything is sent', async () => {
      const other = await createAppProject(t, owner.token, ws.slug, { identifier: 'OTH', name: 'Other' });
      assertError(
        await get(`/api/workspaces/${ws.slug}/projects/${other.id}/issues/${issue}/history/`),
        404,
        'NOT_FOUND',
      );
      assertError(
        await t.api.get(`${v1()}/work-items/00000000-0000-4000-8000-000000000000/comments/`).set('X-API-Key', key),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('a page of work items holds at most half the answer budget of descriptions', () => {
    let other: { id: string };
    const made: string[] = [];
    before(async () => {
      other = await createAppProject(t, owner.token, ws.slug, { identifier: 'DSC', name: 'Descriptions' });
      // 120 KB each (the HTML and the stripped text): one fits in a 200 KB page, two do not
      for (let i = 0; i < 4; i++) {
        const res = await post(`/api/workspaces/${ws.slug}/projects/${other.id}/issues/`, {
          name: `D${i}`,
          description_html: `<p>${'a'.repeat(60_000)}</p>`,
        });
        assert.equal(res.status, 201, JSON.stringify(res.body).slice(0, 200));
        made.push(res.body.id);
      }
      const small = await post(`/api/workspaces/${ws.slug}/projects/${other.id}/issues/`, { name: 'small' });
      made.push(small.body.id);
    });

    it('the External API: a keyset page ends early with a next cursor, and the walk sees every work item once', async () => {
      const seen: string[] = [];
      const sizes: number[] = [];
      let cursor: string | null = null;
      do {
        const page: {
          status: number;
          body: {
            results: Array<{ id: string }>;
            next_cursor: string;
            next_page_results: boolean;
            total_count: number;
          };
        } = await t.api
          .get(
            `/api/v1/workspaces/${ws.slug}/projects/${other.id}/work-items/?per_page=100&order_by=created_at${cursor ? `&cursor=${cursor}` : ''}`,
          )
          .set('X-API-Key', key);
        assert.equal(page.status, 200, JSON.stringify(page.body).slice(0, 300));
        assert.equal(page.body.total_count, 5);
        sizes.push(page.body.results.length);
        seen.push(...page.body.results.map((x) => x.id));
        cursor = page.body.next_page_results ? page.body.next_cursor : null;
      } while (cursor);
      assert.deepEqual(seen, made);
      assert.deepEqual(sizes, [1, 1, 1, 2], 'one large work item a page; the last page takes the small one too');
    });

    it("the App API's page by number with descriptions is refused (400 ANSWER_TOO_LARGE); without them it is whole", async () => {
      const path = `/api/workspaces/${ws.slug}/projects/${other.id}/issues/?per_page=100&cursor=100:0:0`;
      assertError(await get(`${path}&fields=id,description_html`), 400, 'ANSWER_TOO_LARGE');
      const list = await get(path);
      assert.equal(list.status, 200);
      assert.equal(list.body.results.length, 5);
    });
  });

  it('a list answered whole is measured first: one over half the answer budget is 400 ANSWER_TOO_LARGE, not built', async () => {
    const labels = await createAppProject(t, owner.token, ws.slug, { identifier: 'LBL', name: 'Labels' });
    const path = `/api/workspaces/${ws.slug}/projects/${labels.id}/issue-labels/`;
    // 60 KB each: three fit in the 200 KB this test's budget allows a list, four do not
    for (let i = 0; i < 3; i++) {
      const made = await post(path, { name: `L${i}`, description: 'd'.repeat(60_000) });
      assert.equal(made.status, 201, JSON.stringify(made.body).slice(0, 200));
    }
    const whole = await get(path);
    assert.equal(whole.status, 200);
    assert.equal(whole.body.length, 3);
    assert.equal((await post(path, { name: 'L3', description: 'd'.repeat(60_000) })).status, 201);
    const refused = await get(path);
    assertError(refused, 400, 'ANSWER_TOO_LARGE');
    assert.match(refused.body.detail, /MiB/);
  });
});
