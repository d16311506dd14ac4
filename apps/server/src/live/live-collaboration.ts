import {
  AccessCache,
  APP_CONFIG,
  AppConfig,
  CREDENTIAL_VERIFIER,
  CredentialVerifier,
  isUuid,
  sizeInBytes,
  MeridianError,
  PROJECT_ACCESS_RESOLVER,
  ProjectAccessResolver,
  WORKSPACE_ACCESS_RESOLVER,
  WorkspaceAccessResolver,
} from '#common';
import { PageScope, PageService } from '#domain';
import { Connection, Document, Extension, Hocuspocus } from '@hocuspocus/server';
import { BeforeApplicationShutdown, Inject, Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { parseCookie } from 'cookie';
import type { IncomingMessage, Server as HttpServer } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocket, WebSocketServer } from 'ws';
import * as Y from 'yjs';

/** Who a live connection is and where: set by `onAuthenticate`, checked again by `recheck`. */
export interface LiveContext {
  /** the web session cookie's value */
  session: string;
  userId: string;
  slug: string;
  workspaceId: string;
  projectId: string;
  role: number | null;
  pageId: string;
}

/** Plane's stateless events (`@plane/editor` `DocumentCollaborativeEvents`): server event → client event. */
const STATELESS_EVENTS: Record<string, string> = {
  lock: 'locked',
  unlock: 'unlocked',
  archive: 'archived',
  unarchive: 'unarchived',
  'make-public': 'made-public',
  'make-private': 'made-private',
};

/** Close code and reason for a connection whose access went (`@hocuspocus/common` `Forbidden`). */
const FORBIDDEN = { code: 4403, reason: 'Forbidden' };

const scopeOf = (c: LiveContext): PageScope => ({
  workspaceId: c.workspaceId,
  projectId: c.projectId,
  userId: c.userId,
  role: c.role,
});

/**
 * Meridian's own live editing server: Plane's collaboration websocket (Plane 0.25.3 `live/`:
 * `src/core/hocuspocus-server.ts`, `src/core/extensions/index.ts`) in this process, at
 * `<LIVE_BASE_PATH>/collaboration` on the HTTP server's port, with a Hocuspocus server
 * (`@hocuspocus/server`; the web app's `@hocuspocus/provider` 2.x speaks to it, docs/decisions.md).
 *
 * - **Connect**: the web app opens `ws(s)://<origin><LIVE_BASE_PATH>/collaboration` with the
 *   document name = the page id and the parameters `documentType=project_page`, `workspaceSlug`,
 *   `projectId`; its token is the user as JSON (`{id, name, color}`). The upgrade is refused (403)
 *   when its `Origin` is neither this server's nor a trusted web origin (`webSession.trustedOrigins`).
 * - **Authenticate** in-process: the session cookie (header, else the token's `cookie`, as Plane)
 *   must be a live web session of the token's user; the user must be a member of the workspace and
 *   see the project (any role) and the page (`PageService.liveAccess`, the rules of `GET` page).
 *   Otherwise the provider is told `permission-denied` and the socket closes.
 * - **Read-only**: locked or archived pages, archived projects, and callers who may not edit the
 *   description (not owner, below Member): the server refuses their changes.
 * - **Load / store** through `PageService` (`liveDocument`, `saveLiveDocument`): the page's Y.js
 *   document (made from its HTML when it has none), stored `LIVE_STORE_DEBOUNCE_MS` after the last
 *   change (at most `LIVE_STORE_MAX_DEBOUNCE_MS`), when the last editor leaves, and at shutdown,
 *   with `description_html` and `description` derived from it and a page version as the API's
 *   `PATCH …/description/`.
 * - **Access changes**: every connection is checked again when access may have changed (the
 *   `AccessCache` is emptied, here or in another replica; a page's lock, access or archive changed
 *   here; a client announced one with Plane's stateless events) and every `LIVE_ACCESS_RECHECK_MS`:
 *   a connection that lost access is closed (4403), one whose page became locked turns read-only.
 * - **Replicas**: with `REDIS_URL`, documents are shared through Redis
 *   (`@hocuspocus/extension-redis`, keys `<REDIS_KEY_PREFIX>live…`), and one replica stores at a time.
 */
@Injectable()
export class LiveCollaboration implements OnApplicationBootstrap, BeforeApplicationShutdown {
  private readonly logger = new Logger('LiveCollaboration');
  private hocuspocus: Hocuspocus<LiveContext> | null = null;
  private readonly wss: WebSocketServer;
  /** open document connections (after authentication) */
  private readonly connections = new Set<Connection<LiveContext>>();
  /** the last authenticated context per loaded document: whose rights a store uses */
  private readonly lastContext = new Map<string, LiveContext>();
  private readonly cleanups: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;
  private recheckQueued: Promise<void> | null = null;
  private closing = false;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
    private readonly pages: PageService,
    private readonly accessCache: AccessCache,
    @Inject(CREDENTIAL_VERIFIER) private readonly credentials: CredentialVerifier,
    @Inject(WORKSPACE_ACCESS_RESOLVER) private readonly workspaces: WorkspaceAccessResolver,
    @Inject(PROJECT_ACCESS_RESOLVER) private readonly projects: ProjectAccessResolver,
  ) {
    // one message at most as large as a request body (`BODY_LIMIT`)
    this.wss = new WebSocketServer({ noServer: true, maxPayload: sizeInBytes(config.http.bodyLimit) });
  }

  /** The websocket's path (`<LIVE_BASE_PATH>/collaboration`). */
  get path(): string {
    return `${this.config.live.basePath}/collaboration`;
  }

  onApplicationBootstrap(): void {
    if (!this.config.live.enabled) return;
    const extensions: Extension[] = [this.extension()];
    if (this.config.redis) {
      // loaded with REDIS_URL only (ioredis stays out of the bundle: scripts/bundle.js)
      const { Redis: RedisExtension } =
        require('@hocuspocus/extension-redis') as typeof import('@hocuspocus/extension-redis');
      const { default: IORedis } = require('ioredis') as typeof import('ioredis');
      const url = this.config.redis.url;
      extensions.push(
        new RedisExtension({
          prefix: `${this.config.redis.keyPrefix}live`,
          createClient: () => {
            const client = new IORedis(url, { maxRetriesPerRequest: 2 });
            client.on('error', (err: Error) => this.logger.warn(`Redis: ${err.message}`));
            return client;
          },
        }),
      );
    }
    this.hocuspocus = new Hocuspocus<LiveContext>({
      name: `meridian-${process.pid}`,
      quiet: true,
      debounce: this.config.live.storeDebounceMs,
      maxDebounce: this.config.live.storeMaxDebounceMs,
      unloadImmediately: true,
      extensions,
    });
    const server = this.adapterHost.httpAdapter.getHttpServer() as HttpServer;
    const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => this.upgrade(server, req, socket, head);
    server.on('upgrade', onUpgrade);
    this.cleanups.push(() => server.off('upgrade', onUpgrade));
    this.cleanups.push(this.accessCache.onClear(() => void this.queueRecheck()));
    this.cleanups.push(this.pages.onManaged((pageId) => void this.queueRecheck(pageId)));
    this.timer = setInterval(() => void this.queueRecheck(), this.config.live.accessRecheckMs);
    this.timer.unref();
  }

  /** Stores every loaded document, then closes the connections (before the database closes). */
  async beforeApplicationShutdown(): Promise<void> {
    const hocuspocus = this.hocuspocus;
    if (!hocuspocus || this.closing) return;
    this.closing = true;
    if (this.timer) clearInterval(this.timer);
    for (const cleanup of this.cleanups) cleanup();
    await Promise.all([...hocuspocus.documents.values()].map((doc) => this.store(doc)));
    hocuspocus.flushPendingStores(); // the debounced stores: nothing left to do (closing)
    for (const ws of this.wss.clients) ws.terminate();
    // the documents unload as their sockets close (Redis unsubscribes then): wait for that, briefly
    for (let i = 0; i < 100 && hocuspocus.documents.size > 0; i++) await new Promise((r) => setTimeout(r, 20));
    await hocuspocus.hooks('onDestroy', { instance: hocuspocus });
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  /** The number of open document connections (tests, metrics). */
  get connectionCount(): number {
    return this.connections.size;
  }

  // -------------------------------------------------------------------------------------------
  // upgrade

  private upgrade(server: HttpServer, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const pathname = (req.url ?? '/').split('?')[0].replace(/\/+$/, '');
    if (pathname !== this.path) {
      // not ours: answer 404 unless another listener takes it
      if (server.listenerCount('upgrade') <= 1) refuse(socket, 404, 'Not Found');
      return;
    }
    if (this.closing || !this.hocuspocus) return refuse(socket, 503, 'Service Unavailable');
    if (!this.trustedOrigin(req)) return refuse(socket, 403, 'Forbidden');
    this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, req));
  }

  /** A browser's `Origin` must be this server's own or a trusted web origin (no cross-site sockets). */
  private trustedOrigin(req: IncomingMessage): boolean {
    const origin = req.headers.origin;
    if (origin === undefined) return true; // not a browser's cross-site request
    let parsed: URL;
    try {
      parsed = new URL(origin);
    } catch {
      return false;
    }
    return (
      this.config.webSession.trustedOrigins.includes(parsed.origin) ||
      parsed.origin === new URL(this.config.apiBaseUrl).origin ||
      parsed.host === req.headers.host
    );
  }

  private accept(ws: WebSocket, req: IncomingMessage): void {
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined) continue;
      headers.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
    const request = new Request(`http://${req.headers.host ?? 'localhost'}${req.url ?? '/'}`, { headers });
    const client = this.hocuspocus!.handleConnection(ws, request);
    ws.on('message', (data: Buffer | ArrayBuffer | Buffer[]) => {
      const bytes = Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data as ArrayBuffer);
      client.handleMessage(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    });
    ws.on('close', (code: number, reason: Buffer) => client.handleClose({ code, reason: reason.toString() }));
    ws.on('error', (err: Error) => this.logger.debug(`live socket: ${err.message}`));
  }

  // -------------------------------------------------------------------------------------------
  // hooks

  private extension(): Extension {
    return {
      extensionName: 'meridian-pages',
      onAuthenticate: async ({ token, requestHeaders, requestParameters, documentName, connectionConfig }) => {
        const context = await this.authenticate(token, requestHeaders, requestParameters, documentName);
        const { readOnly } = await this.pages.liveAccess(scopeOf(context), context.pageId);
        connectionConfig.readOnly = readOnly;
        return context;
      },
      connected: async ({ connection, context, documentName }) => {
        this.connections.add(connection);
        // a store needs an editor's rights: a read-only viewer's would be refused
        if (!connection.readOnly && !this.lastContext.has(documentName)) this.lastContext.set(documentName, context);
        connection.onClose(() => this.connections.delete(connection));
      },
      onLoadDocument: async ({ context, document, documentName }) => {
        const binary = await this.pages.liveDocument(scopeOf(context), documentName);
        if (binary.byteLength > 0) Y.applyUpdate(document, binary, { source: 'local', skipStoreHooks: true });
        return document;
      },
      onChange: async ({ context, documentName, connection }) => {
        if (context?.userId && connection && !connection.readOnly) this.lastContext.set(documentName, context);
      },
      onStoreDocument: async ({ document }) => {
        if (!this.closing) await this.store(document);
      },
      afterUnloadDocument: async ({ documentName }) => {
        this.lastContext.delete(documentName);
      },
      onStateless: async ({ payload, document, documentName }) => {
        // Plane's live server: a client that changed the page tells the others (lock, archive, access)
        // (answered once the open editors of the page were checked again: locked → read-only)
        const event = STATELESS_EVENTS[payload];
        if (!event) return;
        await this.queueRecheck(documentName);
        document.broadcastStateless(event);
      },
    };
  }

  /**
   * The connection's context, or an error (the provider is told `permission-denied`): Plane's
   * `onAuthenticate` (token `{id[, cookie]}`, the cookie's user must be that id) with Meridian's
   * session, workspace, project and page rules in place of `GET /api/users/me/`.
   */
  private async authenticate(
    token: string,
    headers: Headers,
    params: URLSearchParams,
    documentName: string,
  ): Promise<LiveContext> {
    if (params.get('documentType') !== 'project_page') throw new Error('Unknown document type');
    const slug = params.get('workspaceSlug') ?? '';
    const projectId = (params.get('projectId') ?? '').toLowerCase();
    const pageId = documentName.toLowerCase();
    if (!slug || !isUuid(projectId) || !isUuid(pageId)) throw new Error('Unknown document');
    let user: { id?: unknown; cookie?: unknown } = {};
    try {
      user = (JSON.parse(token) as typeof user) ?? {};
    } catch {
      // Plane falls back to the request's cookie; the user id is still required
    }
    const cookieName = this.config.webSession.cookieName;
    const fromHeader = parseCookie(headers.get('cookie') ?? '')[cookieName];
    const fromToken = typeof user.cookie === 'string' ? parseCookie(user.cookie)[cookieName] : undefined;
    const session = fromHeader || fromToken;
    if (!session || typeof user.id !== 'string') throw new Error('Credentials not provided');
    const principal = await this.credentials.verifyWebSessionToken(session);
    if (!principal || principal.userId !== user.id) throw new Error('Authentication unsuccessful');
    const access = await this.access(principal.userId, slug, projectId);
    if (!access) throw new Error('Forbidden');
    return { session, userId: principal.userId, slug, projectId, pageId, ...access };
  }

  /** The user's standing in the workspace and project, or null when they may not see the project. */
  private async access(
    userId: string,
    slug: string,
    projectId: string,
  ): Promise<{ workspaceId: string; role: number | null } | null> {
    const ws = await this.workspaces.resolve(slug, userId);
    if (!ws.workspaceId || ws.role === null) return null;
    const project = await this.projects.resolve(ws.workspaceId, projectId, userId);
    if (!project.visible || project.role === null) return null;
    return { workspaceId: ws.workspaceId, role: project.role };
  }

  /** Stores a document with the rights of its last editor; a refusal is logged (the page keeps its stored text). */
  private async store(document: Document): Promise<void> {
    const context = this.lastContext.get(document.name);
    if (!context) return;
    try {
      await this.pages.saveLiveDocument(scopeOf(context), document.name, Y.encodeStateAsUpdate(document));
    } catch (err) {
      const code = err instanceof MeridianError ? err.code : (err as Error).message;
      this.logger.warn(`page ${document.name} not stored: ${code}`);
      if (err instanceof MeridianError) void this.queueRecheck(document.name);
    }
  }

  // -------------------------------------------------------------------------------------------
  // access changes

  /** Checks the connections again (of one page, or all), one run at a time; resolves when done. */
  private queueRecheck(pageId?: string): Promise<void> {
    if (this.closing) return Promise.resolve();
    const run = async () => {
      try {
        await this.recheck(pageId);
      } catch (err) {
        this.logger.warn(`live access check failed: ${(err as Error).message}`);
      }
    };
    this.recheckQueued = (this.recheckQueued ?? Promise.resolve()).then(run);
    return this.recheckQueued;
  }

  /**
   * Each open connection (of `pageId`, or all) is checked as at connect time, one check per
   * (session, page): a connection that lost access is closed with 4403; `readOnly` follows the
   * page's lock and archive and the caller's role.
   */
  private async recheck(pageId?: string): Promise<void> {
    const groups = new Map<string, Connection<LiveContext>[]>();
    for (const connection of this.connections) {
      const context = connection.context;
      if (pageId && context.pageId !== pageId) continue;
      const key = `${context.session}\u0000${context.pageId}\u0000${context.projectId}`;
      groups.set(key, [...(groups.get(key) ?? []), connection]);
    }
    for (const group of groups.values()) {
      if (this.closing) return;
      const context = group[0].context;
      const verdict = await this.verdict(context);
      for (const connection of group) {
        if (verdict === null) {
          this.connections.delete(connection);
          connection.webSocket.close(FORBIDDEN.code, FORBIDDEN.reason);
        } else {
          connection.readOnly = verdict.readOnly;
          connection.context.role = verdict.role;
        }
      }
    }
  }

  private async verdict(context: LiveContext): Promise<{ readOnly: boolean; role: number | null } | null> {
    const principal = await this.credentials.verifyWebSessionToken(context.session);
    if (!principal || principal.userId !== context.userId) return null;
    const access = await this.access(context.userId, context.slug, context.projectId);
    if (!access || access.workspaceId !== context.workspaceId) return null;
    try {
      const { readOnly } = await this.pages.liveAccess({ ...scopeOf(context), role: access.role }, context.pageId);
      return { readOnly, role: access.role };
    } catch (err) {
      if (err instanceof MeridianError) return null;
      throw err;
    }
  }
}

/** Answers an upgrade request with a bare HTTP status and closes the socket. */
function refuse(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
