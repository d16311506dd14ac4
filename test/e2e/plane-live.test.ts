import Redis from 'ioredis';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  addMember,
  addProjectMember,
  assertError,
  createAppProject,
  createWorkspace,
  signUp,
} from '../support/fixtures';
import {
  eventually,
  freePort,
  LiveClient,
  openLiveClient,
  PlaneLive,
  planeLiveDir,
  planeLiveScript,
  RecordedCall,
  startPlaneLive,
  startRecordingProxy,
  textOfBinary,
} from '../support/plane-live';
import { startTestApp, TestApp } from '../support/test-app';

// Plane's own live server (unmodified) against Meridian (issue 37): it authenticates each
// WebSocket with the user's session cookie through GET /api/users/me/ and loads and stores pages
// through GET/PATCH …/pages/{id}/description/ from Node, with only the cookie (no CSRF token, no
// Origin). The CSRF rule that lets it write while a browser on another origin cannot is tested over
// HTTP first (no live server needed), then the live protocol with two Y.js clients.

const WEB = 'http://web.meridian.test';
/** The shared Redis of the test machine, for two live servers. */
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisReachable(): Promise<boolean> {
  const client = new Redis(REDIS_URL, {
    lazyConnect: true,
    connectTimeout: 1000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}
const bearer = { type: 'bearer' } as const;

/** The browser's cookies after the sign-in form: `session-id=…; csrftoken=…`, and the CSRF token. */
async function webSignIn(t: TestApp, email: string, password: string): Promise<{ cookie: string; csrf: string }> {
  const token = await t.api.get('/auth/get-csrf-token/');
  const csrf = token.body.csrf_token as string;
  const res = await t.api
    .post('/auth/sign-in/')
    .type('form')
    .set('Origin', WEB)
    .set('Cookie', `csrftoken=${csrf}`)
    .send(new URLSearchParams({ email, password, csrfmiddlewaretoken: csrf }).toString());
  assert.equal(res.status, 302, JSON.stringify(res.body));
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = setCookie.map((line) => /^session-id=([^;]+)/.exec(line)?.[1]).find(Boolean);
  assert.ok(session, 'a session cookie');
  return { cookie: `session-id=${session}; csrftoken=${csrf}`, csrf };
}

interface Person {
  id: string;
  name: string;
  token: string;
  cookie: string;
  csrf: string;
}

async function person(t: TestApp, name: string): Promise<Person> {
  const user = await signUp(t);
  const web = await webSignIn(t, user.email, user.password);
  return { id: user.userId, name, token: user.token, ...web };
}

/** A workspace and project of `owner` with `others` as project Members, and a page of `owner`. */
async function projectWithPage(t: TestApp, owner: Person, others: Person[]) {
  const ws = await createWorkspace(t, owner.token);
  const project = await createAppProject(t, owner.token, ws.slug);
  for (const p of others) {
    await addMember(t, ws.id, p.id, 15);
    await addProjectMember(t, ws.id, project.id, p.id, 15);
  }
  const base = `/api/workspaces/${ws.slug}/projects/${project.id}`;
  const page = await t.api.post(`${base}/pages/`).auth(owner.token, bearer).send({ name: 'Plan' });
  assert.equal(page.status, 201, JSON.stringify(page.body));
  return { slug: ws.slug, projectId: project.id, pageId: page.body.id as string, base };
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
const binaryParser = (res: any, cb: (err: Error | null, body: Buffer) => void) => {
  const chunks: Buffer[] = [];
  res.on('data', (c: Buffer) => chunks.push(c));
  res.on('end', () => cb(null, Buffer.concat(chunks)));
};

describe("CSRF: Plane's live server may write with the session cookie, a browser on another origin may not", () => {
  let t: TestApp;
  let ana: Person;
  let page: Awaited<ReturnType<typeof projectWithPage>>;
  before(async () => {
    t = await startTestApp({ WEB_URL: WEB });
    ana = await person(t, 'Ana');
    page = await projectWithPage(t, ana, []);
  });
  after(() => t.close());

  const description = { description_binary: Buffer.from([0]).toString('base64'), description_html: '<p>x</p>' };
  const patch = (headers: Record<string, string>) => {
    const req = t.api.patch(`${page.base}/pages/${page.pageId}/description/`);
    for (const [k, v] of Object.entries(headers)) req.set(k, v);
    return req.send(description);
  };

  it("accepts the live server's PATCH: the session cookie alone, JSON, no Origin, Referer or Sec-Fetch-*", async () => {
    // what axios sends from Node (Plane's PageService.updateDescription)
    const res = await patch({
      Cookie: ana.cookie,
      Accept: 'application/json, text/plain, */*',
      'User-Agent': 'axios/1.8.3',
    });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    assert.deepEqual(res.body, { message: 'Updated successfully' });
  });

  it('refuses a browser on another origin, with or without the token: 403 CSRF_FAILED', async () => {
    const refused: Record<string, string>[] = [
      { Origin: 'https://evil.example' },
      { Origin: 'https://evil.example', 'Sec-Fetch-Site': 'cross-site', 'X-CSRFToken': ana.csrf },
      { 'Sec-Fetch-Site': 'cross-site' },
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'cors' },
      { Referer: 'https://evil.example/page' },
      { Origin: 'null' },
    ];
    for (const headers of refused) {
      assertError(await patch({ Cookie: ana.cookie, ...headers }), 403, 'CSRF_FAILED');
    }
  });

  it("a same-origin browser request still needs the token; the app's own request passes", async () => {
    assertError(await patch({ Cookie: ana.cookie, Origin: WEB }), 403, 'CSRF_FAILED');
    assertError(await patch({ Cookie: ana.cookie, 'Sec-Fetch-Site': 'same-origin' }), 403, 'CSRF_FAILED');
    const ok = await patch({
      Cookie: ana.cookie,
      Origin: WEB,
      'Sec-Fetch-Site': 'same-origin',
      'X-CSRFToken': ana.csrf,
    });
    assert.equal(ok.status, 200, JSON.stringify(ok.body));
  });

  it('a POST a page could send without a preflight (a form, text/plain, no type) still needs the token', async () => {
    const post = (type: string | null, body: string) => {
      const req = t.api.post(`${page.base}/pages/`).set('Cookie', ana.cookie);
      if (type) req.set('Content-Type', type);
      return req.send(body);
    };
    assertError(await post('text/plain', '{"name":"Forged"}'), 403, 'CSRF_FAILED');
    assertError(await post('application/x-www-form-urlencoded', 'name=Forged'), 403, 'CSRF_FAILED');
    assertError(await post('multipart/form-data; boundary=x', '--x--'), 403, 'CSRF_FAILED');
    assertError(await t.api.post(`${page.base}/pages/`).set('Cookie', ana.cookie), 403, 'CSRF_FAILED');
    const names = await t.sql<{ name: string }>('SELECT name FROM pages WHERE name = $1', ['Forged']);
    assert.equal(names.length, 0, 'nothing written');
    // the same create as JSON from a server passes
    const json = await t.api
      .post(`${page.base}/pages/`)
      .set('Cookie', ana.cookie)
      .set('Content-Type', 'application/json')
      .send('{"name":"From a server"}');
    assert.equal(json.status, 201, JSON.stringify(json.body));
  });
});

const script = planeLiveScript();
const skip = script
  ? false
  : `Plane's live server is not built (no ${planeLiveDir()}/dist/server.js): run test/plane-web/build-frontend.sh, or set PLANE_LIVE_DIR`;
if (skip) console.warn(`\n*** SKIPPED: ${skip} ***\n`);

describe("Plane's own live server (unmodified) on Meridian: two Y.js clients", { skip }, () => {
  let t: TestApp;
  let proxy: Awaited<ReturnType<typeof startRecordingProxy>>;
  let ana: Person;
  let ben: Person;
  let page: Awaited<ReturnType<typeof projectWithPage>>;
  let live: PlaneLive | undefined;
  let livePort: number;
  const clients: LiveClient[] = [];

  const client = (who: Person, cookieVia: 'header' | 'token', target = page) => {
    const c = openLiveClient({
      collaboration: live!.collaboration,
      pageId: target.pageId,
      workspaceSlug: target.slug,
      projectId: target.projectId,
      user: { id: who.id, name: who.name },
      cookie: who.cookie,
      cookieVia,
    });
    clients.push(c);
    return c;
  };
  const closeAll = () => {
    for (const c of clients.splice(0)) c.close();
  };
  const calls = (method: string, path: RegExp, status?: number): RecordedCall[] =>
    proxy.calls.filter((c) => c.method === method && path.test(c.url) && (status === undefined || c.status === status));
  const descriptionPath = (p = page) => new RegExp(`/pages/${p.pageId}/description/$`);
  const stored = async (p = page) => {
    const res = await t.api
      .get(`${p.base}/pages/${p.pageId}/description/`)
      .auth(ana.token, bearer)
      .buffer(true)
      .parse(binaryParser);
    assert.equal(res.status, 200);
    return textOfBinary(new Uint8Array(res.body as Buffer));
  };
  const restartLive = async () => {
    closeAll();
    await live?.stop();
    live = await startPlaneLive(script!, proxy.url, livePort);
  };

  before(async () => {
    t = await startTestApp({ WEB_URL: WEB });
    proxy = await startRecordingProxy(t.url);
    ana = await person(t, 'Ana');
    ben = await person(t, 'Ben');
    page = await projectWithPage(t, ana, [ben]);
    livePort = await freePort();
    live = await startPlaneLive(script!, proxy.url, livePort);
  });
  after(async () => {
    closeAll();
    await live?.stop();
    await proxy?.close();
    await t?.close();
  });

  it('authenticates both ways (cookie on the upgrade, cookie in the token) through GET /api/users/me/, and two clients converge', async () => {
    const a = client(ana, 'header');
    const b = client(ben, 'token');
    await eventually(() => a.synced() && b.synced(), 'both clients synced');
    // both type at once
    a.type('Ana writes the plan');
    b.type('Ben adds the budget');
    await eventually(
      () => a.text() === b.text() && a.text().includes('Ana writes') && a.text().includes('Ben adds'),
      'the two documents to converge',
    );
    const me = calls('GET', /^\/api\/users\/me\/$/);
    assert.ok(me.length >= 2, 'one users/me per connection');
    for (const call of me) assert.equal(call.status, 200);
    // the first load read the (empty) binary, then the page for its HTML (Plane's fallback)
    const load = calls('GET', descriptionPath());
    assert.ok(load.length >= 1);
    assert.equal(load[0].status, 200);
    assert.equal(calls('GET', new RegExp(`/pages/${page.pageId}/$`))[0]?.status, 200);
  });

  it('stores the merged document in Meridian: binary, HTML and JSON agree, for the API and for search', async () => {
    closeAll(); // the last client leaving stores at once (no 10 s debounce)
    await eventually(() => calls('PATCH', descriptionPath()).length > 0, 'the live server to store');
    for (const call of calls('PATCH', descriptionPath())) {
      assert.equal(call.status, 200, JSON.stringify(call.body));
      assert.equal(call.headers.origin, undefined, 'no Origin');
      assert.equal(call.headers['x-csrftoken'], undefined, 'no CSRF token');
      assert.match(String(call.headers.cookie), /session-id=/);
    }
    const text = await stored();
    assert.ok(text.includes('Ana writes the plan') && text.includes('Ben adds the budget'), text);
    const detail = await t.api.get(`${page.base}/pages/${page.pageId}/`).auth(ana.token, bearer);
    assert.match(detail.body.description_html, /<p[^>]*>Ana writes the plan<\/p>/);
    assert.match(detail.body.description_html, /<p[^>]*>Ben adds the budget<\/p>/);
    const [row] = await t.sql<{
      description: { content: { content?: { text: string }[] }[] };
      description_stripped: string;
    }>('SELECT description, description_stripped FROM pages WHERE id = $1', [page.pageId]);
    const jsonText = row.description.content.map((p) => (p.content ?? []).map((n) => n.text).join('')).join('\n');
    assert.equal(jsonText, text, 'the JSON holds the same paragraphs');
    assert.match(row.description_stripped, /Ana writes the plan/);
    assert.match(row.description_stripped, /Ben adds the budget/);
  });

  it('survives a restart of the live server: a new client loads the merged text from Meridian', async () => {
    await restartLive();
    const c = client(ben, 'header');
    await eventually(() => c.synced(), 'synced after the restart');
    await eventually(
      () => c.text().includes('Ana writes the plan') && c.text().includes('Ben adds the budget'),
      'the text',
    );
    // an edit after the restart lands too
    c.type('Ben again');
    closeAll();
    await eventually(async () => (await stored()).includes('Ben again'), 'the new edit stored');
  });

  it('edits not yet stored when the live server dies come back from the clients when it returns', async () => {
    await restartLive();
    const a = client(ana, 'header');
    const b = client(ben, 'token');
    await eventually(() => a.synced() && b.synced(), 'both synced');
    a.type('Typed just before the crash');
    await eventually(() => b.text().includes('Typed just before the crash'), 'the edit reached the server and Ben');
    // killed (no store on SIGTERM), most likely within its 10 s debounce: the clients still hold the edit
    await live!.stop();
    live = await startPlaneLive(script!, proxy.url, livePort);
    // they reconnect by themselves and hand it to the new server, which a new client then loads
    const c = client(ben, 'header');
    await eventually(() => c.text().includes('Typed just before the crash'), 'the edit back on the new server');
    closeAll();
    await eventually(
      async () => (await stored()).includes('Typed just before the crash'),
      'the edit stored after the restart',
    );
  });

  it('two live servers sharing a Redis (REDIS_URL) serve one page: a client on each converges, the store lands', async (ctx) => {
    if (!(await redisReachable())) {
      ctx.skip(`no Redis at ${REDIS_URL} (TEST_REDIS_URL)`);
      return;
    }
    await restartLive();
    await live!.stop();
    const redis = { REDIS_URL };
    live = await startPlaneLive(script!, proxy.url, livePort, redis);
    const second = await startPlaneLive(script!, proxy.url, undefined, redis);
    try {
      const p = await projectWithPage(t, ana, [ben]);
      const a = client(ana, 'header', p);
      const b = openLiveClient({
        collaboration: second.collaboration,
        pageId: p.pageId,
        workspaceSlug: p.slug,
        projectId: p.projectId,
        user: { id: ben.id, name: ben.name },
        cookie: ben.cookie,
        cookieVia: 'header',
      });
      clients.push(b);
      await eventually(() => a.synced() && b.synced(), 'both synced, each on its own server');
      a.type('Ana on the first server');
      b.type('Ben on the second server');
      await eventually(
        () => a.text() === b.text() && a.text().includes('Ana on the first') && a.text().includes('Ben on the second'),
        'the two documents to converge across the servers',
      );
      closeAll();
      await eventually(async () => {
        const text = await stored(p);
        return text.includes('Ana on the first') && text.includes('Ben on the second');
      }, 'the merged text stored');
    } finally {
      closeAll();
      await second.stop();
      await live!.stop();
      live = await startPlaneLive(script!, proxy.url, livePort);
    }
  });

  it('a user who can no longer see the page cannot load it, and their edits are never stored', async () => {
    await restartLive();
    // Ana makes the page private: Ben (a project Member) no longer sees it
    const access = await t.api
      .post(`${page.base}/pages/${page.pageId}/access/`)
      .auth(ana.token, bearer)
      .send({ access: 1 });
    assert.equal(access.status, 204, JSON.stringify(access.body));
    const before = await stored();
    const seen = proxy.calls.length;
    const b = client(ben, 'header');
    await eventually(
      () => proxy.calls.slice(seen).some((c) => c.method === 'GET' && descriptionPath().test(c.url)),
      'the load',
    );
    const refused = proxy.calls.slice(seen).find((c) => c.method === 'GET' && descriptionPath().test(c.url))!;
    assert.equal(refused.status, 404, 'Meridian does not show him the page');
    assert.equal(b.synced(), false, 'never synced');
    b.type('Ben sneaks in');
    closeAll();
    // the store the live server would send for him is refused the same way
    assertError(
      await t.api
        .patch(`${page.base}/pages/${page.pageId}/description/`)
        .set('Cookie', ben.cookie)
        .send({ description_binary: Buffer.from([0]).toString('base64'), description_html: '<p>x</p>' }),
      404,
      'NOT_FOUND',
    );
    assert.equal(await stored(), before, 'nothing of his stored');
  });

  it('a locked or an archived page is read-only: the store is refused 400 PAGE_LOCKED / PAGE_ARCHIVED', async () => {
    for (const [action, code] of [
      ['lock', 'PAGE_LOCKED'],
      ['archive', 'PAGE_ARCHIVED'],
    ] as const) {
      await restartLive();
      const p = await projectWithPage(t, ana, []);
      const a = client(ana, 'header', p);
      await eventually(() => a.synced(), 'synced');
      a.type('Kept');
      closeAll();
      await eventually(async () => (await stored(p)).includes('Kept'), 'the first text stored');
      const kept = await stored(p);
      const done = await t.api.post(`${p.base}/pages/${p.pageId}/${action}/`).auth(ana.token, bearer);
      assert.equal(done.status, action === 'lock' ? 204 : 200, JSON.stringify(done.body));

      await restartLive();
      const seen = proxy.calls.length;
      const again = client(ana, 'token', p);
      await eventually(() => again.synced(), 'synced (reading is allowed)');
      assert.equal(again.text(), kept);
      again.type('Changed');
      closeAll();
      await eventually(
        () => proxy.calls.slice(seen).some((c) => c.method === 'PATCH' && descriptionPath(p).test(c.url)),
        'the store',
      );
      const store = proxy.calls.slice(seen).find((c) => c.method === 'PATCH' && descriptionPath(p).test(c.url))!;
      assert.equal(store.status, 400);
      assert.equal((store.body as { error_code: string }).error_code, code);
      assert.equal(await stored(p), kept, `${action}: unchanged`);
    }
  });
});
