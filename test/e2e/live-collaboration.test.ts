import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { INestApplication } from '@nestjs/common';
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { after, before, describe, it } from 'node:test';
import { AppConfig } from '#common';
import { ReadyDatabase } from '#database';
import { WebSocket } from 'ws';
import * as Y from 'yjs';
import { createApp } from '../../apps/server/src/bootstrap';
import {
  addMember,
  addProjectMember,
  createAppProject,
  createWorkspace,
  membershipId,
  signUp,
  SignedUp,
  unique,
} from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Meridian's own live endpoint (docs/live.md): Plane's collaboration websocket under
 * `LIVE_BASE_PATH`, driven by the provider Plane's web app ships (`@hocuspocus/provider` 2.x) with
 * the browser's session cookie, as the web app's editor connects (`editor-body.tsx`,
 * `use-collaborative-editor.ts`).
 */
const WEB = 'http://web.meridian.test';
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const LIVE_ENV = { WEB_URL: WEB, LIVE_STORE_DEBOUNCE_MS: '100', LIVE_STORE_MAX_DEBOUNCE_MS: '500' };
const bearer = { type: 'bearer' } as const;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `check()` is true (polls; fails after `ms`). */
async function until(what: string, check: () => boolean | Promise<boolean>, ms = 15_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) assert.fail(`timed out waiting for: ${what}`);
    await sleep(25);
  }
}

interface Browser extends SignedUp {
  /** the Cookie header of the user's signed-in browser */
  cookie: string;
}

/** Signs up (Bearer, for set-up) and signs in through Plane's form (the web session cookie). */
async function browser(t: TestApp): Promise<Browser> {
  const user = await signUp(t);
  const csrfRes = await t.api.get('/auth/get-csrf-token/');
  const csrf = csrfRes.body.csrf_token as string;
  const res = await t.api
    .post('/auth/sign-in/')
    .set('Content-Type', 'application/x-www-form-urlencoded')
    .set('Origin', WEB)
    .set('Cookie', `csrftoken=${csrf}`)
    .send(new URLSearchParams({ email: user.email, password: user.password, csrfmiddlewaretoken: csrf }).toString());
  assert.equal(res.status, 302, JSON.stringify(res.body));
  const setCookie = ([] as string[]).concat(res.headers['set-cookie'] ?? []);
  const session = setCookie.map((c) => /^session-id=([^;]+)/.exec(c)?.[1]).find(Boolean);
  assert.ok(session, 'a session cookie');
  return { ...user, cookie: `session-id=${session}; csrftoken=${csrf}` };
}

/** One editor: Plane's provider with the browser's cookie on the websocket's upgrade request. */
class Editor {
  readonly provider: HocuspocusProvider;
  readonly socket: HocuspocusProviderWebsocket;
  synced = false;
  failed: string | null = null;
  closed: number | null = null;
  readonly stateless: string[] = [];

  constructor(
    baseUrl: string,
    pageId: string,
    params: { workspaceSlug: string; projectId: string },
    user: { id: string; cookie?: string },
    options: { origin?: string; token?: string } = {},
  ) {
    const cookie = user.cookie;
    const origin = options.origin;
    class BrowserSocket extends WebSocket {
      constructor(url: string, protocols?: string | string[]) {
        super(url, protocols, {
          headers: { ...(cookie ? { Cookie: cookie } : {}), ...(origin ? { Origin: origin } : {}) },
        });
        // a browser's socket reports a failed connection as an event: closing one still connecting
        // (a reconnect to a stopped server) is no error of the test
        this.on('error', () => undefined);
      }
    }
    const url = new URL(baseUrl);
    url.protocol = 'ws:';
    url.pathname = '/live/collaboration';
    // the web app passes `url` and `parameters` to the provider, which opens this websocket with
    // them; here it is opened explicitly to give it the browser's headers
    this.socket = new HocuspocusProviderWebsocket({
      url: url.toString(),
      parameters: { documentType: 'project_page', ...params },
      WebSocketPolyfill: BrowserSocket,
      onClose: ({ event }: { event: { code: number } }) => (this.closed = event.code),
    } as unknown as ConstructorParameters<typeof HocuspocusProviderWebsocket>[0]);
    this.provider = new HocuspocusProvider({
      websocketProvider: this.socket,
      name: pageId,
      // the web app's token: the user as JSON (`use-collaborative-editor.ts`)
      token: options.token ?? JSON.stringify({ id: user.id, name: 'someone', color: '#123456' }),
      onSynced: () => (this.synced = true),
      onAuthenticationFailed: ({ reason }) => (this.failed = reason),
      onStateless: ({ payload }) => this.stateless.push(payload),
    });
  }

  get fragment(): Y.XmlFragment {
    return this.provider.document.getXmlFragment('default');
  }

  /** The text of the document's first paragraph. */
  get text(): string {
    const first = this.fragment.get(0);
    return first instanceof Y.XmlElement
      ? first
          .toArray()
          .map((t) => (t as Y.XmlText).toString())
          .join('')
      : '';
  }

  /** Types `text` at `index` of the first paragraph (its first text node), as the editor does. */
  type(index: number, text: string): void {
    const paragraph = this.fragment.get(0) as Y.XmlElement;
    (paragraph.get(0) as Y.XmlText).insert(index, text);
  }

  async ready(): Promise<this> {
    await until('the editor synced', () => this.synced || this.failed !== null);
    assert.equal(this.failed, null, 'authenticated');
    return this;
  }

  /** Sends a stateless event and waits for the server's broadcast of its answer (all before it is handled). */
  async roundTrip(event: 'lock' | 'unlock', answer: string): Promise<void> {
    const seen = this.stateless.filter((s) => s === answer).length;
    this.provider.sendStateless(event);
    await until(`the server answered ${event}`, () => this.stateless.filter((s) => s === answer).length > seen);
  }

  destroy(): void {
    this.provider.destroy();
    this.socket.destroy();
  }
}

/** A second application on the same database (another replica, or the server after a restart). */
async function secondApp(t: TestApp, config: AppConfig): Promise<{ app: INestApplication; url: string }> {
  // the first application owns the database and closes it; this one leaves it open
  // (TypeORM's Nest module destroys the data source at shutdown: this one's stays open too)
  const dataSource = Object.create(t.database.dataSource, { destroy: { value: async () => undefined } }) as object;
  const database = Object.create(t.database, {
    close: { value: async () => undefined },
    dataSource: { value: dataSource },
  }) as ReadyDatabase;
  const app = await createApp(config, database);
  await app.listen(0, '127.0.0.1');
  return { app, url: `http://127.0.0.1:${(app.getHttpServer().address() as net.AddressInfo).port}` };
}

function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  return new Promise((resolve) => {
    const s = net.connect(Number(u.port || 6379), u.hostname);
    s.setTimeout(1000);
    s.once('connect', () => (s.destroy(), resolve(true)));
    s.once('error', () => resolve(false));
    s.once('timeout', () => (s.destroy(), resolve(false)));
  });
}

describe("Meridian's own live endpoint (LIVE_BASE_PATH, Hocuspocus)", () => {
  let t: TestApp;
  let ada: Browser; // workspace Admin, project Admin, owns the pages
  let mia: Browser; // workspace Member, project Member
  let ws: { id: string; slug: string };
  let project: { id: string };
  const editors: Editor[] = [];
  const params = () => ({ workspaceSlug: ws.slug, projectId: project.id });
  const pagesUrl = () => `/api/workspaces/${ws.slug}/projects/${project.id}/pages`;
  const open = (user: Browser, pageId: string, url = t.url) => {
    const editor = new Editor(url, pageId, params(), { id: user.userId, cookie: user.cookie });
    editors.push(editor);
    return editor;
  };

  async function newPage(html = '<p>Start</p>', access = 0): Promise<string> {
    const res = await t.api
      .post(`${pagesUrl()}/`)
      .auth(ada.token, bearer)
      .send({ name: unique('Page '), description_html: html, access });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    return res.body.id as string;
  }

  const pageHtml = async (id: string): Promise<string> => {
    const res = await t.api.get(`${pagesUrl()}/${id}/`).auth(ada.token, bearer);
    assert.equal(res.status, 200);
    return res.body.description_html as string;
  };

  before(async () => {
    t = await startTestApp(LIVE_ENV);
    ada = await browser(t);
    mia = await browser(t);
    ws = await createWorkspace(t, ada.token);
    await addMember(t, ws.id, mia.userId, 15);
    project = await createAppProject(t, ada.token, ws.slug);
    await addProjectMember(t, ws.id, project.id, mia.userId, 15);
  });

  after(async () => {
    for (const e of editors) e.destroy();
    await t?.close();
  });

  it('two editors typing at once converge; the text is stored as binary, HTML, JSON (a version) and is searchable', async () => {
    const id = await newPage('<p>Start</p>');
    const [a, b] = [open(ada, id), open(mia, id)];
    await Promise.all([a.ready(), b.ready()]);
    // the page had HTML only: the server made the document from it
    assert.equal(a.text, 'Start');
    assert.equal(b.text, 'Start');
    // both type at the same moment, at both ends
    a.type(0, 'Alpha ');
    b.type(5, ' beta');
    await until(
      'both editors converge',
      () => a.text === b.text && a.text.includes('Alpha') && b.text.includes('beta'),
    );
    assert.equal(a.text, 'Alpha Start beta');

    // stored: description_html (GET page), description_binary (GET description), JSON (the version)
    await until('the HTML is stored', async () => (await pageHtml(id)).includes('Alpha Start beta'));
    assert.equal(await pageHtml(id), '<p class="editor-paragraph-block">Alpha Start beta</p>');
    const bin = await t.api
      .get(`${pagesUrl()}/${id}/description/`)
      .auth(ada.token, bearer)
      .buffer(true)
      .parse((res, cb) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => cb(null, Buffer.concat(chunks)));
      });
    assert.equal(bin.status, 200);
    const doc = new Y.Doc();
    Y.applyUpdate(doc, new Uint8Array(bin.body as Buffer));
    assert.match(doc.getXmlFragment('default').toString(), /Alpha Start beta/);
    const versions = await t.api.get(`${pagesUrl()}/${id}/versions/`).auth(ada.token, bearer);
    assert.equal(versions.status, 200);
    const latest = await t.api.get(`${pagesUrl()}/${id}/versions/${versions.body[0].id}/`).auth(ada.token, bearer);
    assert.deepEqual(latest.body.description_json, {
      type: 'doc',
      content: [{ type: 'paragraph', content: [{ type: 'text', text: 'Alpha Start beta' }] }],
    });
    assert.equal(latest.body.description_html, '<p class="editor-paragraph-block">Alpha Start beta</p>');
    // the stripped text the search reads
    const [row] = await t.sql<{ description_stripped: string }>(
      'SELECT description_stripped FROM pages WHERE id = $1',
      [id],
    );
    assert.equal(row.description_stripped, 'Alpha Start beta');
    // and the workspace search finds the page by what was typed
    const found = await t.api.get(`/api/workspaces/${ws.slug}/search/?search=start%20beta`).auth(mia.token, bearer);
    assert.equal(found.status, 200);
    assert.deepEqual(
      found.body.results.page.map((p: { id: string }) => p.id),
      [id],
    );
    assert.deepEqual(found.body.results.page[0].project_ids, [project.id]);
  });

  it('the merged text survives the server: a stop stores it, a new server on the database serves it', async () => {
    const id = await newPage('<p>Before</p>');
    const other = await secondApp(t, {
      ...t.config,
      live: { ...t.config.live, storeDebounceMs: 60_000, storeMaxDebounceMs: 60_000 },
    });
    const [a, b] = [open(ada, id, other.url), open(mia, id, other.url)];
    await Promise.all([a.ready(), b.ready()]);
    a.type(6, ' one');
    b.type(0, 'Two ');
    await until('converged', () => a.text === b.text && a.text === 'Two Before one');
    // stopped with both still connected, long before its debounce: the stop stores the document
    await other.app.close();
    a.destroy();
    b.destroy();
    assert.equal(await pageHtml(id), '<p class="editor-paragraph-block">Two Before one</p>');
    // "reload": a new editor on the other server (which never had the page loaded)
    const c = await open(ada, id).ready();
    assert.equal(c.text, 'Two Before one');
  });

  it('refuses a missing or bad session cookie, a token of another user, and a foreign origin', async () => {
    const id = await newPage();
    const none = new Editor(t.url, id, params(), { id: ada.userId });
    const bad = new Editor(t.url, id, params(), { id: ada.userId, cookie: 'session-id=not-a-session' });
    const impostor = new Editor(t.url, id, params(), { id: ada.userId, cookie: mia.cookie });
    editors.push(none, bad, impostor);
    for (const e of [none, bad, impostor]) {
      await until('refused', () => e.failed !== null);
      assert.equal(e.failed, 'permission-denied');
      assert.equal(e.synced, false);
    }
    // the upgrade itself is refused for a page of another site
    const status = await new Promise<number>((resolve) => {
      const socket = new WebSocket(`${t.url.replace('http', 'ws')}/live/collaboration`, {
        headers: { Origin: 'http://evil.example', Cookie: ada.cookie },
      });
      socket.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      socket.on('open', () => resolve(101));
    });
    assert.equal(status, 403);
    // a page the user cannot see (another user's private page) is refused too
    const secret = await newPage('<p>mine</p>', 1);
    const peek = open(mia, secret);
    await until('refused', () => peek.failed !== null);
    assert.equal(peek.text, '');
  });

  it('a locked page is read-only: a new editor and the editors already open cannot change it', async () => {
    const id = await newPage('<p>Fixed</p>');
    const a = await open(mia, id).ready();
    const lock = await t.api.post(`${pagesUrl()}/${id}/lock/`).auth(ada.token, bearer);
    assert.equal(lock.status, 204);
    // the web app announces the lock; the server answers once the open editors are read-only
    await a.roundTrip('lock', 'locked');
    a.type(0, 'Intruder ');
    await a.roundTrip('lock', 'locked'); // the change above was handled (refused) before this
    const b = await open(ada, id).ready();
    b.type(0, 'Owner ');
    await b.roundTrip('lock', 'locked');
    // a fresh editor sees neither change, and neither does the page
    const c = await open(ada, id).ready();
    assert.equal(c.text, 'Fixed');
    assert.equal(await pageHtml(id), '<p>Fixed</p>');
    // unlocked: editing works again
    assert.equal((await t.api.delete(`${pagesUrl()}/${id}/lock/`).auth(ada.token, bearer)).status, 204);
    await c.roundTrip('unlock', 'unlocked');
    c.type(5, ' again');
    await until('stored', async () => (await pageHtml(id)).includes('Fixed again'));
  });

  it('a project Guest reads a page live but cannot change it', async () => {
    const gus = await browser(t);
    await addMember(t, ws.id, gus.userId, 5);
    await addProjectMember(t, ws.id, project.id, gus.userId, 5);
    await t.sql('UPDATE projects SET guest_view_all_features = true WHERE id = $1', [project.id]);
    const id = await newPage('<p>Look</p>');
    const g = await open(gus, id).ready();
    assert.equal(g.text, 'Look');
    g.type(0, 'Touch ');
    await g.roundTrip('unlock', 'unlocked'); // handled after the change above
    const fresh = await open(ada, id).ready();
    assert.equal(fresh.text, 'Look');
  });

  it('disconnects a user who loses access: the page made private, the member removed', async () => {
    const id = await newPage('<p>Shared</p>');
    const watcher = await open(mia, id).ready();
    const res = await t.api.post(`${pagesUrl()}/${id}/access/`).auth(ada.token, bearer).send({ access: 1 });
    assert.equal(res.status, 204);
    await until('disconnected', () => watcher.closed !== null);
    assert.equal(watcher.closed, 4403);
    // and refused when the editor opens the page again
    const again = open(mia, id);
    await until('refused', () => again.failed !== null);
    assert.equal(again.failed, 'permission-denied');

    const id2 = await newPage('<p>Team</p>');
    const member = await open(mia, id2).ready();
    const owner = await open(ada, id2).ready();
    const gone = await t.api
      .delete(`/api/workspaces/${ws.slug}/members/${await membershipId(t, ws.id, mia.userId)}/`)
      .auth(ada.token, bearer);
    assert.equal(gone.status, 204, JSON.stringify(gone.body));
    await until('the removed member is disconnected', () => member.closed !== null);
    assert.equal(member.closed, 4403);
    // the owner stays
    owner.type(4, ' still here');
    await until('stored', async () => (await pageHtml(id2)).includes('Team still here'));
    assert.equal(owner.failed, null);
  });

  it('with REDIS_URL two servers share one document', async (ctx) => {
    if (!(await reachable(REDIS_URL))) return ctx.skip(`no Redis at ${REDIS_URL}`);
    const redis = { url: REDIS_URL, keyPrefix: `${unique('meridian-live-test-')}:` };
    const one = await secondApp(t, { ...t.config, redis });
    const two = await secondApp(t, { ...t.config, redis });
    try {
      const id = await newPage('<p>Across</p>');
      const a = await open(ada, id, one.url).ready();
      const b = await open(ada, id, two.url).ready(); // (mia was removed above)
      a.type(0, 'One ');
      b.type(6, ' two');
      await until('the replicas converge', () => a.text === b.text && a.text === 'One Across two');
      await until('stored', async () => (await pageHtml(id)).includes('One Across two'));
      a.destroy();
      b.destroy();
    } finally {
      await one.app.close();
      await two.app.close();
    }
  });
});
