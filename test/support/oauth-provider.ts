import * as http from 'node:http';
import { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';

/** What the mock provider answers for the next sign-in (GitHub, Google or GitLab shapes are derived from it). */
export interface MockIdentity {
  id: string | number;
  email: string;
  verified?: boolean;
  name?: string;
}

export interface MockOAuthProvider {
  url: string;
  /** the identity the next authorization code stands for */
  next: MockIdentity;
  /** make the token endpoint fail */
  failToken: boolean;
  /** requests to the token endpoint, as parsed form bodies */
  tokenRequests: Record<string, string>[];
  /** the query of each request to an authorize endpoint, with `provider` */
  authorizeRequests: Record<string, string>[];
  /** env vars that point the three providers at this mock */
  env: Record<string, string>;
  /** issues an authorization code for `next` (what the provider's login page would do) */
  authorize(): string;
  close(): Promise<void>;
}

/**
 * A minimal OAuth2 provider on loopback speaking GitHub's, Google's and GitLab's protocols, each
 * under its own prefix: the authorize pages (`/github/login/oauth/authorize`, `/google/authorize`,
 * `/gitlab/oauth/authorize`: as if the user approved at once, 302 to `redirect_uri` with `code` and
 * `state`, or `error=access_denied` for a wrong client or response type), the token endpoints
 * (`/github/login/oauth/access_token`, which answers form-encoded unless asked for JSON, as GitHub
 * does; `/google/token`; `/gitlab/oauth/token`: authorization_code grant, client credentials,
 * single-use code) and the user info (`/github/user`, `/github/user/emails`, `/google/userinfo`,
 * `/gitlab/api/v4/user`).
 */
export async function startMockOAuthProvider(
  clientId = 'test-client',
  clientSecret = 'test-secret',
): Promise<MockOAuthProvider> {
  const codes = new Map<string, MockIdentity>();
  const tokens = new Map<string, MockIdentity>();
  const state = { next: { id: 1, email: 'someone@example.com' } as MockIdentity, failToken: false };
  const tokenRequests: Record<string, string>[] = [];
  const authorizeRequests: Record<string, string>[] = [];
  const issue = (identity: MockIdentity) => {
    const code = randomBytes(8).toString('hex');
    codes.set(code, { ...identity });
    return code;
  };
  const AUTHORIZE: Record<string, string> = {
    '/github/login/oauth/authorize': 'github',
    '/google/authorize': 'google',
    '/gitlab/oauth/authorize': 'gitlab',
  };

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'GET' && AUTHORIZE[url.pathname]) {
        const query = Object.fromEntries(url.searchParams);
        authorizeRequests.push({ ...query, provider: AUTHORIZE[url.pathname] });
        if (!query.redirect_uri) return json(400, { error: 'invalid_request' });
        const back = new URL(query.redirect_uri);
        if (query.client_id !== clientId || query.response_type !== 'code') {
          back.searchParams.set('error', 'access_denied');
        } else {
          back.searchParams.set('code', issue(state.next));
        }
        if (query.state !== undefined) back.searchParams.set('state', query.state);
        res.writeHead(302, { Location: back.toString() });
        return res.end();
      }
      if (req.method === 'POST' && /\/(token|access_token)$/.test(url.pathname)) {
        const form = Object.fromEntries(new URLSearchParams(body));
        tokenRequests.push(form);
        const identity = codes.get(form.code);
        if (
          state.failToken ||
          !identity ||
          form.client_id !== clientId ||
          form.client_secret !== clientSecret ||
          form.grant_type !== 'authorization_code'
        ) {
          return json(400, { error: 'invalid_grant' });
        }
        codes.delete(form.code);
        const token = randomBytes(12).toString('hex');
        tokens.set(token, identity);
        if (url.pathname.startsWith('/github/') && !(req.headers.accept ?? '').includes('application/json')) {
          res.writeHead(200, { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' });
          return res.end(
            new URLSearchParams({
              access_token: token,
              scope: 'read:user,user:email',
              token_type: 'bearer',
            }).toString(),
          );
        }
        return json(200, { access_token: token, token_type: 'bearer', scope: 'read', expires_in: 3599 });
      }
      const bearer =
        /^Bearer (.+)$/i.exec(req.headers.authorization ?? '')?.[1] ?? url.searchParams.get('access_token') ?? '';
      const who = tokens.get(bearer);
      if (!who) return json(401, { message: 'Bad credentials' });
      const verified = who.verified ?? true;
      switch (url.pathname) {
        case '/github/user':
          return json(200, {
            id: who.id,
            login: `gh${who.id}`,
            name: who.name ?? null,
            email: null,
            avatar_url: 'https://avatars.example/1',
          });
        case '/github/user/emails':
          return json(200, [
            { email: `other-${who.id}@example.net`, primary: false, verified: false, visibility: null },
            { email: who.email, primary: true, verified, visibility: 'public' },
          ]);
        case '/google/userinfo':
          return json(200, {
            sub: String(who.id),
            email: who.email,
            email_verified: verified,
            name: who.name ?? 'G User',
            picture: 'https://g.example/p.png',
          });
        case '/gitlab/api/v4/user':
          return json(200, {
            id: who.id,
            username: `gl${who.id}`,
            name: who.name ?? 'GL User',
            email: who.email,
            avatar_url: null,
            web_url: 'https://gitlab.example/u',
          });
        default:
          return json(404, { message: 'Not Found' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider: MockOAuthProvider = {
    url,
    get next() {
      return state.next;
    },
    set next(v: MockIdentity) {
      state.next = v;
    },
    get failToken() {
      return state.failToken;
    },
    set failToken(v: boolean) {
      state.failToken = v;
    },
    tokenRequests,
    authorizeRequests,
    env: {
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
      GITHUB_AUTHORIZE_URL: `${url}/github/login/oauth/authorize`,
      GITHUB_TOKEN_URL: `${url}/github/login/oauth/access_token`,
      GITHUB_USERINFO_URL: `${url}/github/user`,
      GITHUB_EMAILS_URL: `${url}/github/user/emails`,
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTHORIZE_URL: `${url}/google/authorize`,
      GOOGLE_TOKEN_URL: `${url}/google/token`,
      GOOGLE_USERINFO_URL: `${url}/google/userinfo`,
      GITLAB_CLIENT_ID: clientId,
      GITLAB_CLIENT_SECRET: clientSecret,
      GITLAB_HOST: `${url}/gitlab`,
    },
    authorize() {
      return issue(state.next);
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return provider;
}
