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
  /** env vars that point the three providers at this mock */
  env: Record<string, string>;
  /** issues an authorization code for `next` (what the provider's login page would do) */
  authorize(): string;
  close(): Promise<void>;
}

/**
 * A minimal OAuth2 provider on loopback with GitHub's, Google's and GitLab's token and profile
 * endpoints: `/token` (authorization_code grant, client credentials checked), `/github/user`,
 * `/github/user/emails`, `/google/userinfo`, `/gitlab/api/v4/user`.
 */
export async function startMockOAuthProvider(
  clientId = 'test-client',
  clientSecret = 'test-secret',
): Promise<MockOAuthProvider> {
  const codes = new Map<string, MockIdentity>();
  const tokens = new Map<string, MockIdentity>();
  const state = { next: { id: 1, email: 'someone@example.com' } as MockIdentity, failToken: false };
  const tokenRequests: Record<string, string>[] = [];

  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (req.method === 'POST' && url.pathname.endsWith('/token')) {
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
        return json(200, { access_token: token, token_type: 'bearer', scope: 'read' });
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
    env: {
      GITHUB_CLIENT_ID: clientId,
      GITHUB_CLIENT_SECRET: clientSecret,
      GITHUB_AUTHORIZE_URL: `${url}/github/authorize`,
      GITHUB_TOKEN_URL: `${url}/token`,
      GITHUB_USERINFO_URL: `${url}/github/user`,
      GITHUB_EMAILS_URL: `${url}/github/user/emails`,
      GOOGLE_CLIENT_ID: clientId,
      GOOGLE_CLIENT_SECRET: clientSecret,
      GOOGLE_AUTHORIZE_URL: `${url}/google/authorize`,
      GOOGLE_TOKEN_URL: `${url}/token`,
      GOOGLE_USERINFO_URL: `${url}/google/userinfo`,
      GITLAB_CLIENT_ID: clientId,
      GITLAB_CLIENT_SECRET: clientSecret,
      GITLAB_HOST: `${url}/gitlab`,
    },
    authorize() {
      const code = randomBytes(8).toString('hex');
      codes.set(code, { ...state.next });
      return code;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  return provider;
}
