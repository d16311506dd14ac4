import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import * as net from 'node:net';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import {
  adminToken,
  assertError,
  createApiKey,
  createProject,
  createWorkspace,
  signUp,
  SignedUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

interface RawAnswer {
  status: number;
  headers: Record<string, string>;
  body: { detail?: unknown; error_code?: unknown };
  /** the server closed the connection after answering */
  closed: boolean;
  /** everything the server sent */
  text: string;
}

/** Sends `bytes` on a new TCP connection and reads the one answer (and whether the server then closes). */
function rawRequest(url: string, bytes: string | Buffer): Promise<RawAnswer> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.end(bytes));
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => finish(false), 5000);
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', () => undefined); // a reset after the answer: what was read is the answer
    socket.on('close', () => finish(true));
    function finish(closed: boolean) {
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`no HTTP answer: ${JSON.stringify(text)}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines)
        headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      let body: RawAnswer['body'] = {};
      try {
        body = JSON.parse(text.slice(split + 4));
      } catch {
        // asserted by the caller
      }
      resolve({ status: Number(statusLine.split(' ')[1]), headers, body, closed, text });
    }
  });
}

/** A JSON text nesting `levels` objects, `{"a":{"a":…{}…}}`, or arrays. */
const nested = (levels: number, kind: 'object' | 'array' = 'object') =>
  kind === 'object'
    ? '{"a":'.repeat(levels - 1) + '{}' + '}'.repeat(levels - 1)
    : '['.repeat(levels) + ']'.repeat(levels);

/** How many levels of arrays and objects `value` nests. */
function depthOf(value: unknown): number {
  if (typeof value !== 'object' || value === null) return 0;
  return 1 + Math.max(0, ...Object.values(value).map(depthOf));
}

/** A rich-text document of `depth` JSON levels in all (bullet lists inside bullet lists). */
function deepDocument(depth: number): Record<string, unknown> {
  // doc (1) → content (2) → paragraph (3) → content (4) → text (5)
  let node: Record<string, unknown> = { type: 'paragraph', content: [{ type: 'text', text: 'deep' }] };
  let levels = 5;
  while (levels + 2 <= depth) {
    node = { type: 'bulletList', content: [node] };
    levels += 2;
  }
  return { type: 'doc', content: [node] };
}

describe('hostile input at the HTTP edge: 4xx in the error shape, never a 500', () => {
  let t: TestApp;
  let uploads: string;
  let owner: SignedUp;
  let ws: { id: string; slug: string };
  let key: string;
  let project: { id: string };
  let item: { id: string };
  const V = (rest: string) => `/api/v1/workspaces/${ws.slug}/projects/${project.id}/${rest}`;
  const bearer = { type: 'bearer' } as const;

  before(async () => {
    uploads = mkdtempSync(path.join(tmpdir(), 'meridian-uploads-'));
    t = await startTestApp({
      BODY_LIMIT: '64kb',
      API_KEY_RATE_LIMIT: '100000',
      UPLOADS_DIR: uploads,
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    });
    owner = await signUp(t);
    ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    project = await createProject(t, key, ws.slug);
    const res = await t.api.post(V('issues/')).set('X-API-Key', key).send({ name: 'target' });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    item = res.body;
  });
  after(async () => {
    await t.close();
    rmSync(uploads, { recursive: true, force: true });
  });

  describe('NUL (U+0000) → 400 INVALID_CHARACTERS', () => {
    it('in a string body field, on routes of every API, and nothing is written', async () => {
      const labelsBefore = await t.sql('SELECT id FROM labels WHERE project_id = $1', [project.id]);
      const cases = [
        t.api.post(V('labels/')).set('X-API-Key', key).send({ name: 'bug\0' }),
        t.api.post(V('states/')).set('X-API-Key', key).send({ name: 'state\0', color: '#000000' }),
        t.api.post(V('issues/')).set('X-API-Key', key).send({ name: 'item\0' }),
        t.api
          .patch(V(`issues/${item.id}/`))
          .set('X-API-Key', key)
          .send({ description_html: '<p>\0</p>' }),
        t.api
          .post(V(`issues/${item.id}/links/`))
          .set('X-API-Key', key)
          .send({ url: 'https://example.com/\0' }),
        t.api
          .post(`/api/v1/workspaces/${ws.slug}/projects/`)
          .set('X-API-Key', key)
          .send({ name: 'P\0', identifier: 'NUL' }),
        t.api
          .post('/api/workspaces/')
          .auth(owner.token, bearer)
          .send({ name: 'W\0', slug: unique('ws-') }),
        t.api.patch('/api/users/me/').auth(owner.token, bearer).send({ first_name: 'A\0' }),
        t.api.post('/auth/sign-up/').send({ email: `${unique('nul')}@example.com`, password: 'pass\0word long' }),
        t.api.post('/auth/sign-in/').send({ email: owner.email, password: `${owner.password}\0` }),
      ];
      for (const res of await Promise.all(cases)) assertError(res, 400, 'INVALID_CHARACTERS');
      assert.deepEqual(await t.sql('SELECT id FROM labels WHERE project_id = $1', [project.id]), labelsBefore);
    });

    it('inside JSON columns (comment_json, description_json) and in a body key', async () => {
      const doc = { type: 'doc', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'a\0b' }] }] };
      assertError(
        await t.api
          .post(V(`issues/${item.id}/comments/`))
          .set('X-API-Key', key)
          .send({ comment_html: '<p>x</p>', comment_json: doc }),
        400,
        'INVALID_CHARACTERS',
      );
      assertError(
        await t.api
          .patch(V(`issues/${item.id}/`))
          .set('X-API-Key', key)
          .send({ description_json: doc }),
        400,
        'INVALID_CHARACTERS',
      );
      const keyed = { type: 'doc', attrs: { 'x\0': 1 } };
      assertError(
        await t.api
          .post(V(`issues/${item.id}/comments/`))
          .set('X-API-Key', key)
          .send({ comment_html: '<p>x</p>', comment_json: keyed }),
        400,
        'INVALID_CHARACTERS',
      );
      const comments = await t.sql('SELECT id FROM issue_comments WHERE issue_id = $1', [item.id]);
      assert.equal(comments.length, 0);
    });

    it('in a path parameter (every workspace route) and in a query parameter', async () => {
      assertError(await t.api.get('/api/v1/workspaces/%00/projects/').set('X-API-Key', key), 400, 'INVALID_CHARACTERS');
      assertError(
        await t.api.get(`/api/v1/workspaces/${ws.slug}/projects/%00/`).set('X-API-Key', key),
        400,
        'INVALID_CHARACTERS',
      );
      assertError(await t.api.get('/api/workspaces/%00/members/').auth(owner.token, bearer), 400, 'INVALID_CHARACTERS');
      assertError(
        await t.api.get(`${V('issues/')}?external_id=%00&external_source=jira`).set('X-API-Key', key),
        400,
        'INVALID_CHARACTERS',
      );
      assertError(
        await t.api.get(`/api/workspaces/${ws.slug}/members/?search=%00`).auth(owner.token, bearer),
        400,
        'INVALID_CHARACTERS',
      );
      assertError(
        await t.api.get(`/api/workspaces/${ws.slug}/search/?search=a%00b`).auth(owner.token, bearer),
        400,
        'INVALID_CHARACTERS',
      );
    });

    it('a path that is not percent-encoded UTF-8 (a lone surrogate, a cut escape) is refused the same way', async () => {
      assertError(
        await t.api.get('/api/v1/workspaces/%ED%A0%80/projects/').set('X-API-Key', key),
        400,
        'INVALID_CHARACTERS',
      );
      assertError(
        await t.api.get('/api/v1/workspaces/%E0%A4%A/projects/').set('X-API-Key', key),
        400,
        'INVALID_CHARACTERS',
      );
      // a query string is decoded leniently (U+FFFD): no refusal
      assert.equal(
        (await t.api.get(`/api/workspaces/${ws.slug}/members/?search=%ED%A0%80`).auth(owner.token, bearer)).status,
        200,
      );
    });
  });

  describe('lone UTF-16 surrogates → 400 INVALID_CHARACTERS', () => {
    it('on sign-in, sign-up, email-check, password, magic-code, instance-admin and invitation routes', async () => {
      const lone = '\ud800';
      const admin = await adminToken(t);
      const cases = [
        t.api.post('/auth/sign-in/').send({ email: lone, password: 'x' }),
        t.api.post('/auth/sign-up/').send({ email: lone, password: 'long enough password' }),
        t.api.post('/auth/email-check/').send({ email: lone }),
        t.api.post('/auth/magic-generate/').send({ email: lone }),
        t.api.post('/auth/magic-sign-in/').send({ email: lone, code: 'abcd-efgh-ijkl' }),
        t.api.post('/auth/forgot-password/').send({ email: lone }),
        t.api.post('/auth/reset-password/').send({ token: 'x', password: `new password ${lone}` }),
        t.api
          .post('/auth/change-password/')
          .auth(owner.token, bearer)
          .send({ old_password: owner.password, new_password: `new password ${lone}` }),
        t.api
          .post('/auth/set-password/')
          .auth(owner.token, bearer)
          .send({ password: `new password ${lone}` }),
        t.api.post('/api/instances/admins/sign-in/').send({ email: lone, password: 'x' }),
        t.api.post('/api/instances/admins/').auth(admin, bearer).send({ email: lone }),
        t.api
          .post(`/api/workspaces/${ws.slug}/invitations/`)
          .auth(owner.token, bearer)
          .send({ emails: [{ email: `${lone}@example.com`, role: 15 }] }),
      ];
      for (const res of await Promise.all(cases)) assertError(res, 400, 'INVALID_CHARACTERS');
    });

    it('a lone low surrogate, a reversed pair and a surrogate in a key too; a proper pair is text', async () => {
      assertError(
        await t.api.post('/auth/email-check/').send({ email: 'a\udc00@example.com' }),
        400,
        'INVALID_CHARACTERS',
      );
      assertError(
        await t.api.post('/auth/email-check/').send({ email: '\udc00\ud800@example.com' }),
        400,
        'INVALID_CHARACTERS',
      );
      assertError(
        await t.api
          .post(V('labels/'))
          .set('X-API-Key', key)
          .send({ name: 'ok', ['\ud800']: 1 }),
        400,
        'INVALID_CHARACTERS',
      );
      const emoji = await t.api.post(V('labels/')).set('X-API-Key', key).send({ name: 'fire \ud83d\udd25' });
      assert.equal(emoji.status, 201, JSON.stringify(emoji.body));
      assert.equal(emoji.body.name, 'fire 🔥');
    });
  });

  describe('deep nesting → 400 NESTING_TOO_DEEP', () => {
    it('a body nested 10,000 levels, objects or arrays', async () => {
      for (const kind of ['object', 'array'] as const) {
        const res = await t.api
          .post(V('labels/'))
          .set('X-API-Key', key)
          .set('Content-Type', 'application/json')
          .send(nested(10_000, kind));
        assertError(res, 400, 'NESTING_TOO_DEEP');
      }
    });

    it('a field value nested 10,000 levels (comment_json, description_json, a plain field)', async () => {
      const deep = nested(10_000);
      const send = (p: string, json: string) =>
        t.api.post(p).set('X-API-Key', key).set('Content-Type', 'application/json').send(json);
      assertError(
        await send(V(`issues/${item.id}/comments/`), `{"comment_html":"<p>x</p>","comment_json":${deep}}`),
        400,
        'NESTING_TOO_DEEP',
      );
      assertError(
        await t.api
          .patch(V(`issues/${item.id}/`))
          .set('X-API-Key', key)
          .set('Content-Type', 'application/json')
          .send(`{"description_json":${deep}}`),
        400,
        'NESTING_TOO_DEEP',
      );
      assertError(await send(V('labels/'), `{"name":${nested(10_000, 'array')}}`), 400, 'NESTING_TOO_DEEP');
    });

    it('just past the bound is refused; a deep real document at the bound is stored', async () => {
      const atBound = deepDocument(127); // 127 levels in the field, 128 with the body
      assert.equal(depthOf(atBound), 127);
      const ok = await t.api
        .post(V(`issues/${item.id}/comments/`))
        .set('X-API-Key', key)
        .send({ comment_html: '<p>deep</p>', comment_json: atBound });
      assert.equal(ok.status, 201, JSON.stringify(ok.body));
      const [stored] = await t.sql<{ comment_json: unknown }>('SELECT comment_json FROM issue_comments WHERE id = $1', [
        ok.body.id,
      ]);
      assert.deepEqual(stored.comment_json, atBound);
      const past = { comment_html: '<p>x</p>', comment_json: { wrap: deepDocument(127) } };
      assertError(
        await t.api
          .post(V(`issues/${item.id}/comments/`))
          .set('X-API-Key', key)
          .send(past),
        400,
        'NESTING_TOO_DEEP',
      );
    });
  });

  describe('arrays where a list of objects is expected → 422 VALIDATION_ERROR', () => {
    it('invitations and project members nested one level too deep, and an intake item given as a list', async () => {
      const auth = { Authorization: `Bearer ${owner.token}` };
      const invite = await t.api
        .post(`/api/workspaces/${ws.slug}/invitations/`)
        .set(auth)
        .send({ emails: [[{ email: 'x@example.com', role: 15 }]] });
      assertError(invite, 422, 'VALIDATION_ERROR');
      const members = await t.api
        .post(`/api/workspaces/${ws.slug}/projects/${project.id}/members/`)
        .set(auth)
        .send({ members: [[{ member_id: owner.userId, role: 20 }]] });
      assertError(members, 422, 'VALIDATION_ERROR');
      const intake = await t.api
        .post(V('intake-issues/'))
        .set('X-API-Key', key)
        .send({ issue: [{ name: 'listed' }] });
      assertError(intake, 422, 'VALIDATION_ERROR');
      const [{ n }] = await t.sql<{ n: number }>("SELECT count(*)::int AS n FROM issues WHERE name = 'listed'");
      assert.equal(n, 0);
    });
  });

  describe('dates that match the pattern but not the calendar → 422 VALIDATION_ERROR', () => {
    it('cycles and modules in both APIs, and work items', async () => {
      const auth = { Authorization: `Bearer ${owner.token}` };
      const A = (rest: string) => `/api/workspaces/${ws.slug}/projects/${project.id}/${rest}`;
      const cycle = await t.api.post(V('cycles/')).set('X-API-Key', key).send({ name: 'dated cycle' });
      assert.equal(cycle.status, 201, JSON.stringify(cycle.body));
      const module = await t.api.post(V('modules/')).set('X-API-Key', key).send({ name: 'dated module' });
      assert.equal(module.status, 201, JSON.stringify(module.body));
      // a module keeps the date of a datetime (its time is dropped before the check)
      assertError(
        await t.api
          .patch(V(`cycles/${cycle.body.id}/`))
          .set('X-API-Key', key)
          .send({ end_date: '2026-01-01T25:00:00Z' }),
        422,
        'VALIDATION_ERROR',
      );
      for (const bad of ['2026-13-01', '2026-02-30', '2026-04-31T10:00:00Z']) {
        assertError(
          await t.api
            .patch(V(`cycles/${cycle.body.id}/`))
            .set('X-API-Key', key)
            .send({ start_date: bad }),
          422,
          'VALIDATION_ERROR',
        );
        assertError(
          await t.api
            .patch(A(`cycles/${cycle.body.id}/`))
            .set(auth)
            .send({ end_date: bad }),
          422,
          'VALIDATION_ERROR',
        );
        assertError(
          await t.api
            .patch(V(`modules/${module.body.id}/`))
            .set('X-API-Key', key)
            .send({ target_date: bad }),
          422,
          'VALIDATION_ERROR',
        );
        assertError(
          await t.api
            .patch(A(`modules/${module.body.id}/`))
            .set(auth)
            .send({ start_date: bad }),
          422,
          'VALIDATION_ERROR',
        );
      }
      assertError(
        await t.api
          .patch(V(`issues/${item.id}/`))
          .set('X-API-Key', key)
          .send({ target_date: '2026-02-30' }),
        422,
        'VALIDATION_ERROR',
      );
      const good = await t.api
        .patch(V(`modules/${module.body.id}/`))
        .set('X-API-Key', key)
        .send({ start_date: '2026-02-28', target_date: '2026-03-01' });
      assert.equal(good.status, 200, JSON.stringify(good.body));
    });

    it('a module refuses a 13th month or a 30th of February in its dates, and keeps its own', async () => {
      const created = await t.api
        .post(V('modules/'))
        .set('X-API-Key', key)
        .send({ name: 'dated', target_date: '2026-06-01' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const app = `/api/workspaces/${ws.slug}/projects/${project.id}/modules/${created.body.id}/`;
      assertError(
        await t.api.patch(app).auth(owner.token, bearer).send({ target_date: '2026-13-01' }),
        422,
        'VALIDATION_ERROR',
      );
      assertError(
        await t.api.patch(app).auth(owner.token, bearer).send({ start_date: '2026-02-30' }),
        422,
        'VALIDATION_ERROR',
      );
      assertError(
        await t.api
          .post(V('modules/'))
          .set('X-API-Key', key)
          .send({ name: 'undated', start_date: '2026-02-30T10:00:00Z' }),
        422,
        'VALIDATION_ERROR',
      );
      const [row] = await t.sql<{ start: string | null; target: string }>(
        'SELECT start_date::text AS start, target_date::text AS target FROM modules WHERE id = $1',
        [created.body.id],
      );
      assert.deepEqual(row, { start: null, target: '2026-06-01' });
      const [{ n }] = await t.sql<{ n: number }>("SELECT count(*)::int AS n FROM modules WHERE name = 'undated'");
      assert.equal(n, 0);
    });
  });

  describe('bodies over BODY_LIMIT → 413 PAYLOAD_TOO_LARGE in the error shape, with the hardening headers', () => {
    const big = 'x'.repeat(70 * 1024);
    const check = (res: { status: number; body: unknown; headers: Record<string, string> }) => {
      assertError(res, 413, 'PAYLOAD_TOO_LARGE');
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'no-store');
    };

    it('JSON, form-encoded and chunked JSON', async () => {
      check(await t.api.post('/auth/sign-in/').send({ email: big, password: 'x' }));
      check(await t.api.post('/auth/sign-in/').type('form').send(`email=${big}&password=x`));
      const json = JSON.stringify({ email: big });
      const chunked = await rawRequest(
        t.url,
        'POST /auth/sign-in/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
          `${json.length.toString(16)}\r\n${json}\r\n0\r\n\r\n`,
      );
      check({ status: chunked.status, body: chunked.body, headers: chunked.headers });
    });
  });

  describe("requests Node's HTTP parser rejects → the error shape, then the connection closes", () => {
    const cases: [string, string, number, string][] = [
      ['a bad request line', 'GARBAGE\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      ['a bad HTTP version', 'GET /health HTTP/9.9\r\nHost: x\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      [
        'two Content-Lengths',
        'POST /auth/sign-in/ HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nContent-Length: 3\r\n\r\n{}',
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'Content-Length with Transfer-Encoding',
        'POST /auth/sign-in/ HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'a bad chunk size',
        'POST /auth/sign-in/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n',
        400,
        'MALFORMED_REQUEST',
      ],
      ['a header without a colon', 'GET /health HTTP/1.1\r\nHost: x\r\nnot a header\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      [
        'headers over 16 KiB',
        `GET /health HTTP/1.1\r\nHost: x\r\nX-Filler: ${'a'.repeat(17 * 1024)}\r\n\r\n`,
        431,
        'HEADERS_TOO_LARGE',
      ],
      [
        'chunk extensions over 16 KiB',
        `POST /auth/sign-in/ HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;x=${'a'.repeat(20 * 1024)}\r\n{}\r\n0\r\n\r\n`,
        413,
        'PAYLOAD_TOO_LARGE',
      ],
      ['an HTTP/1.1 request without Host', 'GET /health HTTP/1.1\r\n\r\n', 400, 'MALFORMED_REQUEST'],
      [
        'an HTTP/1.1 POST without Host',
        'POST /auth/sign-in/ HTTP/1.1\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
        400,
        'MALFORMED_REQUEST',
      ],
      [
        'an unknown Expect',
        'POST /auth/sign-in/ HTTP/1.1\r\nHost: x\r\nExpect: 200-ok\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}',
        417,
        'EXPECTATION_FAILED',
      ],
    ];
    for (const [name, bytes, status, code] of cases) {
      it(`${name} → ${status} ${code}`, async () => {
        const res = await rawRequest(t.url, bytes);
        assert.equal(res.status, status, JSON.stringify(res));
        assert.equal(res.body.error_code, code, JSON.stringify(res));
        assert.equal(typeof res.body.detail, 'string');
        assert.match(res.headers['content-type'], /^application\/json/);
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers.connection, 'close');
        assert.ok(res.closed, 'the server closes the connection');
      });
    }

    it('HTTP/1.0 needs no Host, as in Node: the route answers', async () => {
      // written without half-closing (Node drops a request whose client half-closes before the answer)
      const { hostname, port } = new URL(t.url);
      const text = await new Promise<string>((resolve, reject) => {
        const socket = net.connect(Number(port), hostname, () => socket.write('GET /health HTTP/1.0\r\n\r\n'));
        const chunks: Buffer[] = [];
        socket.setTimeout(5000, () => socket.destroy(new Error('no answer')));
        socket.on('data', (c: Buffer) => chunks.push(c));
        socket.on('error', reject);
        socket.on('close', () => resolve(Buffer.concat(chunks).toString('utf8')));
      });
      assert.match(text, /^HTTP\/1\.1 200 /, text);
      assert.match(text, /"status":"ok"/);
    });

    it('Expect: 100-continue still works, and the server keeps answering', async () => {
      const res = await rawRequest(
        t.url,
        'POST /auth/email-check/ HTTP/1.1\r\nHost: x\r\nExpect: 100-continue\r\nContent-Type: application/json\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}',
      );
      // `100 Continue` first, then the route's answer: 422 for the missing email
      assert.equal(res.status, 100);
      assert.match(res.text, /\r\n\r\nHTTP\/1\.1 422 [^]*"error_code":"VALIDATION_ERROR"/);
      assert.equal((await t.api.get('/health')).status, 200);
    });
  });

  describe('hardening headers (helmet) and Cache-Control: no-store', () => {
    const tokenAnswers = async () => {
      const email = `${unique('hdr')}@example.com`;
      const signUpRes = await t.api.post('/auth/sign-up/').send({ email, password: 'correct horse 1' });
      const signInRes = await t.api.post('/auth/sign-in/').send({ email, password: 'correct horse 1' });
      const refresh = await t.api.post('/auth/token/refresh/').send({ refresh_token: signInRes.body.refresh_token });
      const adminSignIn = await t.api
        .post('/api/instances/admins/sign-in/')
        .send({ email: t.admin!.email, password: t.admin!.password });
      const adminRefresh = await t.api
        .post('/api/instances/admins/token/refresh/')
        .send({ refresh_token: adminSignIn.body.refresh_token });
      const apiToken = await t.api
        .post(`/api/workspaces/${ws.slug}/api-tokens/`)
        .auth(owner.token, bearer)
        .send({ label: 'headers' });
      const apiTokens = await t.api.get(`/api/workspaces/${ws.slug}/api-tokens/`).auth(owner.token, bearer);
      const webhook = await t.api
        .post(`/api/workspaces/${ws.slug}/webhooks/`)
        .auth(owner.token, bearer)
        .send({ url: `http://127.0.0.1:9/${unique('h')}` });
      const regenerated = await t.api
        .post(`/api/workspaces/${ws.slug}/webhooks/${webhook.body.id}/regenerate/`)
        .auth(owner.token, bearer);
      const content = Buffer.from('attachment bytes');
      const upload = await t.api
        .post(V(`work-items/${item.id}/attachments/`))
        .set('X-API-Key', key)
        .send({ name: 'a.txt', type: 'text/plain', size: content.length });
      const target = new URL(upload.body.upload_data.url);
      const put = await t.api
        .put(target.pathname + target.search)
        .set('Content-Type', 'text/plain')
        .send(content);
      assert.equal(put.status, 204);
      await t.api
        .patch(V(`work-items/${item.id}/attachments/${upload.body.asset_id}/`))
        .set('X-API-Key', key)
        .send({ is_uploaded: true });
      const redirect = await t.api
        .get(V(`work-items/${item.id}/attachments/${upload.body.asset_id}/`))
        .set('X-API-Key', key);
      const location = new URL(redirect.headers.location);
      const download = await t.api.get(location.pathname + location.search);
      return {
        'sign-up': [signUpRes, 201],
        'sign-in': [signInRes, 200],
        'token refresh': [refresh, 200],
        'instance admin sign-in': [adminSignIn, 200],
        'instance admin token refresh': [adminRefresh, 200],
        'API token creation': [apiToken, 201],
        'API token list': [apiTokens, 200],
        'webhook creation (secret)': [webhook, 201],
        'webhook secret regeneration': [regenerated, 200],
        'attachment upload URL': [upload, 200],
        'attachment download redirect': [redirect, 302],
        'signed download': [download, 200],
      } as const;
    };

    it('every answer that carries a token, key, secret or signed URL has Cache-Control: no-store and nosniff', async () => {
      for (const [name, [res, status]] of Object.entries(await tokenAnswers())) {
        assert.equal(res.status, status, `${name}: ${JSON.stringify(res.body)}`);
        assert.match(res.headers['cache-control'] ?? '', /\bno-store\b/, name);
        assert.equal(res.headers['x-content-type-options'], 'nosniff', name);
      }
    });

    it("helmet's headers for a JSON API, CORS exposure unchanged, no HSTS", async () => {
      for (const res of [
        await t.api.get('/health'),
        await t.api.get('/nope'),
        await t.api.get('/api/workspaces/').auth(owner.token, bearer),
      ]) {
        assert.equal(res.headers['x-content-type-options'], 'nosniff');
        assert.equal(res.headers['cache-control'], 'no-store');
        assert.equal(res.headers['x-frame-options'], 'SAMEORIGIN');
        assert.equal(res.headers['referrer-policy'], 'no-referrer');
        assert.equal(res.headers['cross-origin-resource-policy'], 'cross-origin');
        assert.match(res.headers['content-security-policy'], /default-src 'self'/);
        assert.doesNotMatch(res.headers['content-security-policy'], /upgrade-insecure-requests/);
        assert.equal(res.headers['strict-transport-security'], undefined);
        assert.equal(res.headers['access-control-allow-origin'], '*');
        assert.equal(
          res.headers['access-control-expose-headers'],
          'X-RateLimit-Limit,X-RateLimit-Remaining,X-RateLimit-Reset,Retry-After,X-Request-Id',
        );
      }
    });

    it('Swagger UI at /api/docs/ loads only same-origin scripts and styles, which its CSP allows', async () => {
      const page = await t.api.get('/api/docs/');
      assert.equal(page.status, 200);
      const csp = page.headers['content-security-policy'];
      assert.match(csp, /script-src 'self'/);
      const srcs = [...page.text.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
      assert.ok(srcs.length >= 3);
      for (const src of srcs) {
        assert.doesNotMatch(src, /^(https?:)?\/\//, `${src} is same-origin`);
        const asset = await t.api.get(`/api/docs/${src}`);
        assert.equal(asset.status, 200, src);
        assert.equal(asset.headers['x-content-type-options'], 'nosniff');
      }
      assert.doesNotMatch(page.text, /<script>[^<]/, 'no inline script');
    });
  });
});
