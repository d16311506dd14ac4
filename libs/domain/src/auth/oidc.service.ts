import { APP_CONFIG, AppConfig, MeridianError, randomToken } from '#common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';
import { SecretBox } from '../instance-config';
import { User, userMeView } from '../user';
import type { SignInResult } from './account.service';
import { discoverOidc, openid } from './oidc-client';
import { type ClientInfo, SessionService } from './session.service';
import { recordSignInFailure } from './sign-in-audit';
import { ResolvedSsoConnection, SsoConnectionService } from './sso-connection.service';
import { SsoSignInService } from './sso-sign-in.service';

/** Which app a sign-in is for: the web app or the published boards' app. */
export type SsoSite = 'app' | 'space';

/** The cookie binding an OIDC sign-in in progress to the browser (sealed; 10 minutes, path /auth/). */
export const OIDC_FLOW_COOKIE = 'meridian_oidc_flow';
/** The cookie keeping the ID token of an OIDC web session, for the provider's sign-out (sealed, path /auth/). */
export const OIDC_SESSION_COOKIE = 'meridian_oidc_session';
export const OIDC_FLOW_TTL_SECONDS = 600;

interface FlowState {
  /** connection id */
  c: string;
  state: string;
  nonce: string;
  verifier: string;
  site: SsoSite;
  next: string | null;
  /** expiry, epoch ms */
  exp: number;
}

/** A finished sign-in: the session (as password sign-in's), where it was going, and the provider-logout cookie value. */
export interface OidcSignIn {
  result: SignInResult;
  site: SsoSite;
  next: string | null;
  sessionCookie: string;
}

function same(a: string, b: string): boolean {
  return a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
}

/** The groups in a claim: a list of strings, or one string. */
function groupsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((g): g is string => typeof g === 'string');
  return [];
}

/**
 * OpenID Connect sign-in through an SSO connection (docs/sso-oidc.md), with `openid-client` (a
 * certified relying party library): authorization code flow with PKCE (S256), `state` and `nonce`
 * bound to the browser by a sealed cookie, the ID token's signature (the provider's JWKS), issuer,
 * audience, expiry and nonce verified by the library. The user is matched by the provider's
 * subject (linked account `oidc`, `<connection id>:<sub>`), else by email (which must be of one of
 * the connection's domains), else created (just-in-time) or refused (invitation only). The
 * connection's group → workspace role mappings are applied at each sign-in.
 */
@Injectable()
export class OidcService {
  private readonly logger = new Logger('OIDC');
  private readonly box: SecretBox;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: SsoConnectionService,
    private readonly sessions: SessionService,
    private readonly ssoSignIn: SsoSignInService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {
    this.box = new SecretBox(config.secret.key, 'meridian:oidc-flow:v1');
  }

  /**
   * The provider's authorization URL for a new sign-in and the flow cookie's value to set with it.
   * `loginHint` (the email typed in the app) is passed as `login_hint`. 404 `SSO_NOT_CONFIGURED`
   * for an unknown or disabled connection; 422 `SSO_DISCOVERY_FAILED` when the provider cannot be read.
   */
  async begin(
    connection: ResolvedSsoConnection,
    site: SsoSite,
    next: string | undefined,
    loginHint?: string,
  ): Promise<{ url: string; cookie: string }> {
    if (connection.kind !== 'oidc' || !connection.oidc.clientSecret) throw new MeridianError('SSO_NOT_CONFIGURED');
    const client = openid();
    const config = await discoverOidc(connection.oidc);
    const verifier = client.randomPKCECodeVerifier();
    const flow: FlowState = {
      c: connection.id,
      state: randomToken(24),
      nonce: randomToken(24),
      verifier,
      site,
      next: next ?? null,
      exp: Date.now() + OIDC_FLOW_TTL_SECONDS * 1000,
    };
    const params: Record<string, string> = {
      redirect_uri: this.connections.redirectUri(),
      response_type: 'code',
      scope: connection.oidc.scopes,
      state: flow.state,
      nonce: flow.nonce,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
    };
    if (loginHint) params.login_hint = loginHint;
    const url = client.buildAuthorizationUrl(config, params);
    return { url: url.href, cookie: this.box.seal(JSON.stringify(flow)) };
  }

  /** The site and `next_path` of the flow cookie (for the failure redirect), when it reads. */
  flowOf(cookie: string | null): { site: SsoSite; next: string | null } | null {
    const flow = this.openFlow(cookie);
    return flow ? { site: flow.site, next: flow.next } : null;
  }

  /**
   * The callback (`GET /auth/oidc/callback/?code&state…`): checks the state against the flow
   * cookie (400 `OIDC_STATE_MISMATCH`, also for a missing or expired cookie), exchanges the code
   * with the PKCE verifier and verifies the ID token (400 `OIDC_NONCE_MISMATCH`; 502
   * `OIDC_PROVIDER_ERROR` for a provider's error answer, a bad signature, a wrong issuer or audience,
   * an expired token), then signs the user in: 422 `INVALID_EMAIL` (no email, one the provider says
   * is unverified, or one outside the connection's domains), 403 `SSO_INVITATION_REQUIRED`,
   * `USER_ACCOUNT_DEACTIVATED`. Opens a web session (`client.cookie`).
   */
  async finish(callbackQuery: string, flowCookie: string | null, client: ClientInfo): Promise<OidcSignIn> {
    const flow = this.openFlow(flowCookie);
    try {
      return await this.finishFlow(callbackQuery, flow, client);
    } catch (err) {
      // the audit log's `auth.sign_in.failed`: method `oidc`, the flow's connection, the code
      const medium = flow ? `oidc:${flow.c}` : 'oidc';
      if (err instanceof MeridianError) await recordSignInFailure(this.dataSource, medium, client, null, err.code);
      throw err;
    }
  }

  private async finishFlow(callbackQuery: string, flow: FlowState | null, client: ClientInfo): Promise<OidcSignIn> {
    const params = new URLSearchParams(callbackQuery);
    const state = params.get('state') ?? '';
    if (!flow || !state || !same(state, flow.state)) throw new MeridianError('OIDC_STATE_MISMATCH');
    const connection = await this.connections.byId(flow.c);
    if (!connection?.oidc.clientSecret) throw new MeridianError('SSO_NOT_CONFIGURED');
    const lib = openid();
    const config = await discoverOidc(connection.oidc);
    let claims: Record<string, unknown>;
    let idToken: string;
    try {
      const tokens = await lib.authorizationCodeGrant(
        config,
        new URL(`${this.connections.redirectUri()}?${params.toString()}`),
        {
          pkceCodeVerifier: flow.verifier,
          expectedState: flow.state,
          expectedNonce: flow.nonce,
          idTokenExpected: true,
        },
      );
      const idClaims = tokens.claims();
      if (!idClaims || !tokens.id_token) throw new Error('no ID token');
      idToken = tokens.id_token;
      claims = { ...idClaims };
      if (config.serverMetadata().userinfo_endpoint && tokens.access_token) {
        const info = await lib.fetchUserInfo(config, tokens.access_token, idClaims.sub);
        claims = { ...info, ...idClaims };
      }
    } catch (err) {
      const cause = (err as { cause?: { message?: unknown } })?.cause;
      const message = [(err as Error)?.message ?? String(err), typeof cause?.message === 'string' ? cause.message : '']
        .filter(Boolean)
        .join(': ');
      this.logger.warn({ connection: connection.id, err: message }, 'OIDC callback refused');
      if (/"nonce"/.test(message)) throw new MeridianError('OIDC_NONCE_MISMATCH');
      throw new MeridianError('OIDC_PROVIDER_ERROR');
    }
    const user = await this.signIn(connection, claims, client);
    const tokens = await this.sessions.open(user, 'oidc', { ...client, cookie: true, connection: connection.id });
    return {
      result: { ...tokens, user: userMeView(user) },
      site: flow.site,
      next: flow.next,
      sessionCookie: this.box.seal(JSON.stringify({ c: connection.id, t: idToken })),
    };
  }

  /**
   * Where sign-out sends the browser to end the provider's session too: the provider's
   * `end_session_endpoint` with `id_token_hint`, `client_id` and `post_logout_redirect_uri`
   * (`returnTo`), or null when the cookie does not read or the provider has none (or cannot be read).
   */
  async endSessionUrl(sessionCookie: string | null, returnTo: string): Promise<string | null> {
    if (!sessionCookie) return null;
    const raw = this.box.open(sessionCookie);
    if (!raw) return null;
    try {
      const { c, t } = JSON.parse(raw) as { c: string; t: string };
      const connection = await this.connections.byId(c);
      if (!connection) return null;
      const config = await discoverOidc(connection.oidc);
      if (!config.serverMetadata().end_session_endpoint) return null;
      return openid().buildEndSessionUrl(config, {
        id_token_hint: t,
        client_id: connection.oidc.clientId,
        post_logout_redirect_uri: returnTo,
      }).href;
    } catch (err) {
      this.logger.warn({ err: (err as Error)?.message }, 'OIDC provider sign-out skipped');
      return null;
    }
  }

  private openFlow(cookie: string | null): FlowState | null {
    if (!cookie) return null;
    const raw = this.box.open(cookie);
    if (!raw) return null;
    try {
      const flow = JSON.parse(raw) as FlowState;
      return flow.exp > Date.now() ? flow : null;
    } catch {
      return null;
    }
  }

  /**
   * The user behind the verified claims, created or refused as the connection says, roles applied
   * (each membership created or role changed is a `member.role_changed` audit row, `via: 'sso_groups'`,
   * in the transaction that changes it).
   */
  private async signIn(
    connection: ResolvedSsoConnection,
    claims: Record<string, unknown>,
    client: ClientInfo,
  ): Promise<User> {
    const sub = typeof claims.sub === 'string' ? claims.sub : '';
    if (!sub) throw new MeridianError('OIDC_PROVIDER_ERROR');
    const email = [claims.email, claims.preferred_username, claims.upn].find(
      (v): v is string => typeof v === 'string' && v.includes('@'),
    );
    return this.ssoSignIn.signIn(connection, client, {
      link: { provider: 'oidc', accountId: `${connection.id}:${sub}` },
      email: email ?? null,
      emailVerified: claims.email_verified !== false,
      displayName: typeof claims.name === 'string' ? claims.name : null,
      groups: groupsOf(claims[connection.oidc.groupsClaim]),
    });
  }
}
