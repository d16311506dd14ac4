import { generateKeyPairSync } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A real OpenID Connect provider for tests: `oidc-provider` (a certified OP implementation) on
 * loopback, with discovery, JWKS-signed ID tokens, PKCE, userinfo and RP-initiated logout. Its
 * login and consent screens are replaced by an interaction that signs in `next` at once, as a user
 * who typed their password would. Clients are looked up live in `clients`, so a test can register
 * the redirect URI of a server started after the provider.
 */
export interface OidcIdentity {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
  groups?: string[];
}

export interface OidcClientRegistration {
  client_id: string;
  client_secret: string;
  redirect_uris: string[];
  post_logout_redirect_uris?: string[];
}

export interface TestOidcProvider {
  /** the issuer, e.g. http://127.0.0.1:41234 */
  url: string;
  /** who the next authorization signs in */
  next: OidcIdentity | undefined;
  clients: Map<string, OidcClientRegistration>;
  /** the authorization requests' parameters, in order */
  authorizations: URLSearchParams[];
  close(): Promise<void>;
}

interface OidcProviderModule {
  default: new (issuer: string, configuration: Record<string, unknown>) => OidcProviderInstance;
}
interface OidcProviderInstance {
  callback(): (req: http.IncomingMessage, res: http.ServerResponse) => void;
  interactionDetails(
    req: http.IncomingMessage,
    res: http.ServerResponse,
  ): Promise<{
    prompt: { name: string; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string };
  }>;
  interactionFinished(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    result: Record<string, unknown>,
    options?: Record<string, unknown>,
  ): Promise<void>;
  Grant: new (init: { accountId: string; clientId: string }) => {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    save(): Promise<string>;
  };
}

/** An in-memory storage adapter (oidc-provider's interface); `Client` reads the live registry. */
function memoryAdapter(clients: Map<string, OidcClientRegistration>) {
  const store = new Map<string, Record<string, unknown>>();
  const key = (model: string, id: string) => `${model}:${id}`;
  return class MemoryAdapter {
    constructor(private readonly model: string) {}
    async upsert(id: string, payload: Record<string, unknown>) {
      store.set(key(this.model, id), payload);
    }
    async find(id: string) {
      if (this.model === 'Client') {
        const c = clients.get(id);
        return c
          ? {
              ...c,
              grant_types: ['authorization_code'],
              response_types: ['code'],
              token_endpoint_auth_method: 'client_secret_post',
            }
          : undefined;
      }
      return store.get(key(this.model, id));
    }
    async findByUid(uid: string) {
      for (const [k, v] of store) if (k.startsWith(`${this.model}:`) && v.uid === uid) return v;
      return undefined;
    }
    async findByUserCode() {
      return undefined;
    }
    async consume(id: string) {
      const v = store.get(key(this.model, id));
      if (v) v.consumed = Math.floor(Date.now() / 1000);
    }
    async destroy(id: string) {
      store.delete(key(this.model, id));
    }
    async revokeByGrantId(grantId: string) {
      for (const [k, v] of store) if (v.grantId === grantId) store.delete(k);
    }
  };
}

/** How the provider's login screen behaves. */
export interface TestOidcProviderOptions {
  /**
   * false (default): the login interaction signs in `next` at once (HTTP tests without a browser).
   * true: it shows a sign-in form (`Email`, `Password`, a *Sign in* button), as a real provider does
   * for a browser test; posting it with `next`'s email and any non-empty password signs `next` in, any
   * other email shows the form again with "Unknown user".
   */
  loginForm?: boolean;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

function loginPage(uid: string, hint: string, error?: string): string {
  return (
    `<!DOCTYPE html><html><head><title>Test identity provider: sign in</title></head><body>` +
    `<h1>Test identity provider</h1>${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}` +
    `<form method="post" action="/interaction/${escapeHtml(uid)}">` +
    `<label>Email <input name="login" type="email" value="${escapeHtml(hint)}" autocomplete="username"></label>` +
    `<label>Password <input name="password" type="password" autocomplete="current-password"></label>` +
    `<button type="submit">Sign in</button></form></body></html>`
  );
}

function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  return new Promise((resolve, reject) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => resolve(new URLSearchParams(body)));
    req.on('error', reject);
  });
}

export async function startTestOidcProvider(options: TestOidcProviderOptions = {}): Promise<TestOidcProvider> {
  const { default: Provider } = require('oidc-provider') as OidcProviderModule;
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const identities = new Map<string, OidcIdentity>();
  const clients = new Map<string, OidcClientRegistration>();
  const idp: TestOidcProvider = {
    url,
    next: undefined,
    clients,
    authorizations: [],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  const signingKey = {
    ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }),
    kid: 'test-key',
    use: 'sig',
    alg: 'RS256',
  };
  const provider = new Provider(url, {
    adapter: memoryAdapter(clients),
    jwks: { keys: [signingKey] },
    ttl: { Interaction: 600, Session: 3600, Grant: 3600, AccessToken: 600, IdToken: 600, AuthorizationCode: 60 },
    claims: {
      openid: ['sub'],
      email: ['email', 'email_verified'],
      profile: ['name'],
      groups: ['groups'],
    },
    scopes: ['openid', 'email', 'profile', 'groups'],
    conformIdTokenClaims: false,
    pkce: { required: () => true },
    cookies: { keys: ['meridian-test-oidc-provider'] },
    features: {
      devInteractions: { enabled: false },
      rpInitiatedLogout: {
        enabled: true,
        logoutSource: (ctx: { body: string }, form: string) => {
          ctx.body = `<!DOCTYPE html><title>Sign out</title>${form}<button form="op.logoutForm" name="logout" value="yes">Sign out</button>`;
        },
      },
    },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    findAccount: async (_ctx: unknown, id: string) => {
      const who = identities.get(id);
      if (!who) return undefined;
      return { accountId: id, claims: async () => ({ ...who }) };
    },
  });
  const handle = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '').split('?')[0];
    if (path === '/auth') idp.authorizations.push(new URL(req.url!, url).searchParams);
    if (!path.startsWith('/interaction/')) return handle(req, res);
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      if (details.prompt.name === 'login') {
        const who = idp.next;
        if (!who) throw new Error('the test provider has no identity to sign in (set `next`)');
        if (options.loginForm) {
          const uid = path.slice('/interaction/'.length);
          const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
          const form = req.method === 'POST' ? await readForm(req) : undefined;
          const known = form?.get('login')?.toLowerCase() === who.email?.toLowerCase() && !!form?.get('password');
          if (!known) {
            res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
            res.end(loginPage(uid, form?.get('login') ?? hint, form ? 'Unknown user or empty password' : undefined));
            return;
          }
        }
        identities.set(who.sub, who);
        await provider.interactionFinished(
          req,
          res,
          { login: { accountId: who.sub } },
          { mergeWithLastSubmission: false },
        );
        return;
      }
      const grant = new provider.Grant({
        accountId: details.session!.accountId!,
        clientId: details.params.client_id as string,
      });
      const missingScope = details.prompt.details.missingOIDCScope as string[] | undefined;
      const missingClaims = details.prompt.details.missingOIDCClaims as string[] | undefined;
      if (missingScope) grant.addOIDCScope(missingScope.join(' '));
      if (missingClaims) grant.addOIDCClaims(missingClaims);
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
    })().catch((err: Error) => {
      res.statusCode = 500;
      res.end(err.message);
    });
  });
  return idp;
}
