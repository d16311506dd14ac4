import { APP_CONFIG, AppConfig, AuditActor, ErrorCode, MeridianError, sha256 } from '#common';
import type { CacheProvider, Profile, SAML } from '@node-saml/node-saml';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { userMeView } from '../user';
import type { SignInResult } from './account.service';
import type { SsoSite } from './oidc.service';
import { SamlRepository } from './saml.repository';
import {
  decodeLogoutParameter,
  LogoutMessage,
  logoutMessageProblem,
  logoutRequestRememberedUntil,
  parseXmlRoot,
  readLogoutMessage,
} from './saml-logout';
import { SamlSettings, samlUrls } from './saml-settings';
import { type ClientInfo, SessionService } from './session.service';
import { recordSignInFailure } from './sign-in-audit';
import { ResolvedSsoConnection, SsoConnectionService } from './sso-connection.service';
import { SsoSignInService } from './sso-sign-in.service';

/** How long an AuthnRequest waits for its answer. */
export const SAML_REQUEST_TTL_SECONDS = 600;
/** The clock skew allowed on NotBefore / NotOnOrAfter, in ms. */
export const SAML_CLOCK_SKEW_MS = 60_000;

type SamlLibrary = typeof import('@node-saml/node-saml');
let samlLibrary: SamlLibrary | undefined;
/**
 * node-saml and its XML stack (xml-crypto, xml-encryption, xmldom, xpath: about 4 MiB of heap),
 * loaded with the first SAML sign-in or logout, not at every start (docs/decisions.md "The server
 * runs as one bundled file": what is loaded only when configured stays outside the bundle).
 */
function samlLibraryLoaded(): SamlLibrary {
  return (samlLibrary ??= require('@node-saml/node-saml') as SamlLibrary);
}

const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const UNSPECIFIED = 'urn:oasis:names:tc:SAML:1.1:nameid-format:unspecified';
const REDIRECT_BINDING = 'urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect';

/** What the single logout service took: the parameters of either binding and, for HTTP-Redirect, the raw query (its signature covers it). */
export interface SamlLogoutInput {
  binding: 'redirect' | 'post';
  /** the query (HTTP-Redirect) or the form (HTTP-POST) */
  params: Record<string, unknown>;
  /** HTTP-Redirect: the query string as sent (without `?`) */
  rawQuery: string;
}

/** Where the single logout service sends the browser: the IdP (answering its LogoutRequest) or the sign-in page. */
export interface SamlLogoutDone {
  url: string;
  /** how many Meridian sessions an IdP's LogoutRequest ended (0 for a LogoutResponse) */
  ended: number;
}
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** A finished SAML sign-in: the session (as password sign-in's) and where it was going. */
export interface SamlSignIn {
  result: SignInResult;
  site: SsoSite;
  next: string | null;
}

type XmlJs = Record<string, unknown> & { $?: Record<string, string>; _?: string };

/** The first element of an xml2js list, or undefined. */
function first(value: unknown): XmlJs | undefined {
  return Array.isArray(value) ? (value[0] as XmlJs) : undefined;
}

function strings(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return [];
}

/** What the (not yet verified) Response says of itself: only used to find the request and refuse a replay early. */
function peek(xml: string): { inResponseTo: string | null; assertionId: string | null } | null {
  const root = parseXmlRoot(xml);
  if (!root || root.localName !== 'Response') return null;
  let assertionId: string | null = null;
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && n.localName === 'Assertion') assertionId = n.getAttribute('ID');
  }
  return { inResponseTo: root.getAttribute('InResponseTo') || null, assertionId };
}

/** Meridian's code for what node-saml refused of a logout message. */
function logoutCodeOf(err: unknown): ErrorCode {
  const message = (err as Error)?.message ?? '';
  if (/signature/i.test(message)) return 'SAML_SIGNATURE_INVALID';
  if (/issuer/i.test(message)) return 'SAML_ISSUER_MISMATCH';
  if (/InResponseTo/i.test(message)) return 'SAML_IN_RESPONSE_TO_MISMATCH';
  if (/status/i.test(message)) return 'SAML_PROVIDER_ERROR';
  if (/expired|not yet valid/i.test(message)) return 'SAML_LOGOUT_EXPIRED';
  return 'SAML_LOGOUT_INVALID';
}

/** Meridian's code for what node-saml refused (its message is logged, not answered). */
function codeOf(err: unknown): ErrorCode {
  // node-saml's errors exist only once it is loaded
  if (samlLibrary && err instanceof samlLibrary.SamlStatusError) return 'SAML_PROVIDER_ERROR';
  const message = (err as Error)?.message ?? '';
  if (/InResponseTo/i.test(message)) return 'SAML_IN_RESPONSE_TO_MISMATCH';
  if (/signature/i.test(message)) return 'SAML_SIGNATURE_INVALID';
  if (/audience/i.test(message)) return 'SAML_AUDIENCE_MISMATCH';
  if (/expired|not yet valid|No valid subject confirmation/i.test(message)) return 'SAML_ASSERTION_EXPIRED';
  return 'SAML_RESPONSE_INVALID';
}

/**
 * SAML 2.0 sign-in through an SSO connection of kind `saml` (docs/sso-saml.md), with
 * `@node-saml/node-saml`: SP-initiated, the AuthnRequest sent with the HTTP-Redirect binding (signed
 * when the connection has an SP key), the Response taken at the connection's assertion consumer
 * service (HTTP-POST). Checked before a session opens: the assertion's XML signature by one of the
 * IdP's certificates (required: an unsigned assertion is refused even in a signed Response), its
 * `Issuer`, `Audience` (the SP entity id), the bearer `Recipient` and the Response's `Destination`
 * (the ACS URL), `NotBefore`/`NotOnOrAfter` (60 s of clock skew), `InResponseTo` (a request this
 * connection sent, in `saml_requests`, answered once, within 10 minutes) and replay (the assertion
 * ID is remembered in `saml_assertions` until it expires, on every replica).
 */
@Injectable()
export class SamlService {
  private readonly logger = new Logger('SAML');

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: SsoConnectionService,
    private readonly repo: SamlRepository,
    private readonly sessions: SessionService,
    private readonly ssoSignIn: SsoSignInService,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The settings of an enabled `saml` connection; 404 `SSO_NOT_CONFIGURED` otherwise. */
  private async settingsOf(connectionId: string): Promise<{ connection: ResolvedSsoConnection; s: SamlSettings }> {
    const connection = await this.connections.byId(connectionId);
    if (!connection?.saml || connection.kind !== 'saml') throw new MeridianError('SSO_NOT_CONFIGURED');
    return { connection, s: connection.saml };
  }

  private client(connection: ResolvedSsoConnection, s: SamlSettings, cacheProvider?: CacheProvider): SAML {
    const { SAML, ValidateInResponseTo } = samlLibraryLoaded();
    return new SAML({
      entryPoint: s.ssoUrl,
      issuer: s.spEntityId,
      audience: s.spEntityId,
      callbackUrl: samlUrls(this.config.apiBaseUrl, connection.id).acs,
      idpCert: s.idpCertificates,
      // checked on LogoutRequests and LogoutResponses (the assertion's issuer is checked below)
      idpIssuer: s.idpEntityId,
      ...(s.sloUrl
        ? { logoutUrl: s.sloUrl, logoutCallbackUrl: samlUrls(this.config.apiBaseUrl, connection.id).slo }
        : {}),
      wantAssertionsSigned: true,
      // the Response itself may be unsigned (Entra ID, Authentik by default): the assertion must be
      wantAuthnResponseSigned: false,
      acceptedClockSkewMs: SAML_CLOCK_SKEW_MS,
      validateInResponseTo: ValidateInResponseTo.always,
      requestIdExpirationPeriodMs: SAML_REQUEST_TTL_SECONDS * 1000,
      identifierFormat: null,
      disableRequestedAuthnContext: true,
      ...(s.spPrivateKey && s.spCertificate
        ? { privateKey: s.spPrivateKey, publicCert: s.spCertificate, signatureAlgorithm: 'sha256' as const }
        : {}),
      ...(cacheProvider ? { cacheProvider } : {}),
    });
  }

  /**
   * The IdP's URL for a new sign-in (HTTP-Redirect binding, `login_hint`-free: SAML has none
   * portable). The request is stored for the `InResponseTo` check. 404 `SSO_NOT_CONFIGURED`.
   */
  async begin(connection: ResolvedSsoConnection, site: SsoSite, next: string | undefined): Promise<string> {
    if (connection.kind !== 'saml' || !connection.saml) throw new MeridianError('SSO_NOT_CONFIGURED');
    const cache = this.requestCache(connection.id, 'authn', site, next ?? null);
    return this.client(connection, connection.saml, cache).getAuthorizeUrlAsync('', undefined, {});
  }

  /**
   * node-saml's request cache, over `saml_requests`: each AuthnRequest or LogoutRequest it makes is
   * stored (id, connection, purpose, site, next path; 10 minutes) for the `InResponseTo` check of
   * the answer, which Meridian makes itself (node-saml's reads and removals are no-ops).
   */
  private requestCache(
    connectionId: string,
    purpose: 'authn' | 'logout',
    site: SsoSite,
    next: string | null | undefined,
  ): CacheProvider {
    return {
      saveAsync: async (key, value) => {
        await this.repo.saveRequest({
          id: key,
          connectionId,
          purpose,
          site,
          nextPath: next ?? null,
          expiresAt: new Date(Date.now() + SAML_REQUEST_TTL_SECONDS * 1000),
        });
        return { value, createdAt: Date.now() };
      },
      getAsync: () => Promise.resolve(null),
      removeAsync: (key) => Promise.resolve(key),
    };
  }

  /**
   * The SP metadata (XML) of a `saml` connection: entity id, ACS URL, signing certificate if any and,
   * with single logout (`slo_url`), the single logout service (HTTP-Redirect and HTTP-POST). 404
   * `SSO_NOT_CONFIGURED`.
   */
  async metadata(connectionId: string): Promise<string> {
    const { connection, s } = await this.settingsOf(connectionId);
    const xml = this.client(connection, s).generateServiceProviderMetadata(null, s.spCertificate);
    // node-saml advertises the HTTP-POST binding only: the HTTP-Redirect one is served as well
    return xml.replace(
      /<SingleLogoutService\b[^>]*\bLocation="([^"]*)"[^>]*\/>/,
      (post, location: string) => `<SingleLogoutService Binding="${REDIRECT_BINDING}" Location="${location}"/>${post}`,
    );
  }

  /** The site and `next_path` of the request a posted Response claims to answer (for the failure redirect), when it reads. */
  async pendingOf(body: unknown): Promise<{ site: SsoSite; next: string | null } | null> {
    const raw = (body as Record<string, unknown> | undefined)?.SAMLResponse;
    if (typeof raw !== 'string') return null;
    const seen = peek(Buffer.from(raw, 'base64').toString('utf8'));
    const row = seen?.inResponseTo ? await this.repo.findRequest(seen.inResponseTo) : null;
    return row ? { site: row.site === 'space' ? 'space' : 'app', next: row.nextPath } : null;
  }

  /**
   * The assertion consumer service (`POST /auth/saml/{connection_id}/acs/`, form field
   * `SAMLResponse`): checks the Response (see the class) and signs the user in, opening a web
   * session. Refusals (no session; audited as `auth.sign_in.failed`, method `saml`): 404
   * `SSO_NOT_CONFIGURED`; 400 `SAML_RESPONSE_INVALID`, `SAML_IN_RESPONSE_TO_MISMATCH`,
   * `SAML_ASSERTION_REPLAYED`, `SAML_SIGNATURE_INVALID`, `SAML_AUDIENCE_MISMATCH`,
   * `SAML_RECIPIENT_MISMATCH`, `SAML_ISSUER_MISMATCH`, `SAML_ASSERTION_EXPIRED`; 502
   * `SAML_PROVIDER_ERROR` (the IdP answered a non-success status); and the shared 422
   * `INVALID_EMAIL`, 403 `SSO_INVITATION_REQUIRED`, `USER_ACCOUNT_DEACTIVATED`.
   */
  async finish(connectionId: string, body: unknown, client: ClientInfo): Promise<SamlSignIn> {
    let medium = 'saml';
    try {
      const { connection, s } = await this.settingsOf(connectionId);
      medium = `saml:${connection.id}`;
      return await this.finishFlow(connection, s, body, client);
    } catch (err) {
      if (err instanceof MeridianError) await recordSignInFailure(this.dataSource, medium, client, null, err.code);
      throw err;
    }
  }

  private async finishFlow(
    connection: ResolvedSsoConnection,
    s: SamlSettings,
    body: unknown,
    client: ClientInfo,
  ): Promise<SamlSignIn> {
    const raw = (body as Record<string, unknown> | undefined)?.SAMLResponse;
    if (typeof raw !== 'string' || !raw || raw.length > 1_000_000) throw new MeridianError('SAML_RESPONSE_INVALID');
    const seen = peek(Buffer.from(raw, 'base64').toString('utf8'));
    if (!seen) throw new MeridianError('SAML_RESPONSE_INVALID');
    // an assertion accepted before: refused before anything else (its request is long answered)
    if (seen.assertionId && (await this.repo.assertionSeen(this.assertionKey(connection, seen.assertionId))))
      throw new MeridianError('SAML_ASSERTION_REPLAYED');
    const request = seen.inResponseTo ? await this.repo.findRequest(seen.inResponseTo) : null;
    if (!request || request.connectionId !== connection.id || request.purpose !== 'authn') {
      this.logger.warn({ connection: connection.id }, 'SAML response refused: InResponseTo names no request of ours');
      throw new MeridianError('SAML_IN_RESPONSE_TO_MISMATCH');
    }
    const createdAt = new Date(request.expiresAt.getTime() - SAML_REQUEST_TTL_SECONDS * 1000).toISOString();
    const cache: CacheProvider = {
      saveAsync: () => Promise.resolve(null),
      getAsync: (key) => Promise.resolve(key === request.id ? createdAt : null),
      removeAsync: (key) => Promise.resolve(key),
    };
    let profile: Profile;
    try {
      const checked = await this.client(connection, s, cache).validatePostResponseAsync({ SAMLResponse: raw });
      if (!checked.profile) throw new Error('no assertion');
      profile = checked.profile;
    } catch (err) {
      this.logger.warn({ connection: connection.id, err: (err as Error)?.message }, 'SAML response refused');
      throw new MeridianError(codeOf(err));
    } finally {
      // answered once, whatever the answer
      await this.repo.deleteRequest(request.id);
    }
    const acs = samlUrls(this.config.apiBaseUrl, connection.id).acs;
    const assertion = (profile.getAssertion?.() as { Assertion?: XmlJs } | undefined)?.Assertion;
    if (!assertion) throw new MeridianError('SAML_RESPONSE_INVALID');
    if (profile.issuer !== s.idpEntityId) {
      this.logger.warn({ connection: connection.id, issuer: profile.issuer }, 'SAML response refused: issuer');
      throw new MeridianError('SAML_ISSUER_MISMATCH');
    }
    const destination = /<(?:\w+:)?Response\b[^>]*?\sDestination="([^"]*)"/.exec(
      profile.getSamlResponseXml?.() ?? '',
    )?.[1];
    const confirmations = (first(assertion.Subject)?.SubjectConfirmation ?? []) as XmlJs[];
    const bearer = confirmations.filter((c) => c.$?.Method === BEARER).map((c) => first(c.SubjectConfirmationData));
    if ((destination !== undefined && destination !== acs) || !bearer.some((d) => d?.$?.Recipient === acs)) {
      this.logger.warn({ connection: connection.id, destination }, 'SAML response refused: recipient');
      throw new MeridianError('SAML_RECIPIENT_MISMATCH');
    }
    // remembered until the latest NotOnOrAfter it carries (an hour when it names none)
    const ends = [first(assertion.Conditions)?.$?.NotOnOrAfter, ...bearer.map((d) => d?.$?.NotOnOrAfter)].flatMap(
      (v) => (v && Number.isFinite(Date.parse(v)) ? [Date.parse(v)] : []),
    );
    const until = new Date((ends.length ? Math.max(...ends) : Date.now() + 3_600_000) + SAML_CLOCK_SKEW_MS);
    const assertionId = assertion.$?.ID;
    if (!assertionId) throw new MeridianError('SAML_RESPONSE_INVALID');
    if (!(await this.repo.rememberAssertion(this.assertionKey(connection, assertionId), until)))
      throw new MeridianError('SAML_ASSERTION_REPLAYED');

    const attributes = (profile.attributes ?? {}) as Record<string, unknown>;
    const nameId = profile.nameID ?? '';
    const email = [attributes[s.emailAttribute], profile.email, profile.mail, nameId]
      .flatMap(strings)
      .find((v) => v.includes('@'));
    const names = [attributes[s.firstNameAttribute], attributes[s.lastNameAttribute]].map((v) => strings(v)[0] ?? '');
    const displayName = names.join(' ').trim() || null;
    const link =
      nameId && profile.nameIDFormat !== TRANSIENT
        ? { provider: 'saml', accountId: this.accountId(connection, nameId) }
        : null;
    const user = await this.ssoSignIn.signIn(connection, client, {
      link,
      email: email ?? null,
      displayName,
      groups: strings(attributes[s.groupsAttribute]),
    });
    const sessionIndex = profile.sessionIndex ?? null;
    const tokens = await this.dataSource.transaction(async (em) => {
      const issued = await this.sessions.open(user, 'saml', { ...client, cookie: true, connection: connection.id }, em);
      const sessionId = await this.repo.sessionIdOfWebToken(em, sha256(issued.access_token));
      // what single logout names (a NameID or SessionIndex too long for the row: no single logout)
      if (sessionId && nameId && nameId.length <= 1000 && (sessionIndex?.length ?? 0) <= 255)
        await this.repo.saveSession(em, {
          sessionId,
          connectionId: connection.id,
          nameId,
          nameIdFormat: profile.nameIDFormat ? profile.nameIDFormat.slice(0, 255) : null,
          sessionIndex,
        });
      return issued;
    });
    return {
      result: { ...tokens, user: userMeView(user) },
      site: request.site === 'space' ? 'space' : 'app',
      next: request.nextPath,
    };
  }

  /**
   * Where sign-out sends the browser to end the IdP's session too (SP-initiated single logout,
   * HTTP-Redirect binding): the connection's `slo_url` with a LogoutRequest signed by the SP key,
   * naming the session's `NameID` (and its Format) and `SessionIndex`; the request is stored for the
   * `InResponseTo` check of the IdP's answer (10 minutes). Null (sign-out ends Meridian's session
   * only) for a session not opened by SAML, or a connection gone, disabled or without single logout.
   * Never throws: a failure is logged and answers null.
   */
  async logoutUrl(sessionId: string, site: SsoSite, next: string | null): Promise<string | null> {
    try {
      const row = await this.repo.sessionOf(sessionId);
      if (!row) return null;
      const connection = await this.connections.byId(row.connectionId);
      const s = connection?.kind === 'saml' ? connection.saml : null;
      if (!connection || !s?.sloUrl || !s.spPrivateKey) return null;
      const cache = this.requestCache(connection.id, 'logout', site, next);
      const subject = {
        issuer: s.idpEntityId,
        nameID: row.nameId,
        nameIDFormat: row.nameIdFormat ?? UNSPECIFIED,
        ...(row.sessionIndex ? { sessionIndex: row.sessionIndex } : {}),
      };
      return await this.client(connection, s, cache).getLogoutUrlAsync(subject, '', {});
    } catch (err) {
      this.logger.warn({ err: (err as Error)?.message }, 'SAML single logout skipped');
      return null;
    }
  }

  /**
   * The single logout service (`/auth/saml/{connection_id}/slo/`, HTTP-Redirect or HTTP-POST binding).
   *
   * - A `SAMLResponse` (the IdP's LogoutResponse to Meridian's LogoutRequest): signed by one of the
   *   IdP's certificates (the query signature for HTTP-Redirect, the XML signature for HTTP-POST), its
   *   `Issuer` the IdP's, its `InResponseTo` a LogoutRequest of this connection (answered once,
   *   within 10 minutes), its status Success. Answers the sign-in page (`APP_BASE_URL/`, or
   *   `SPACE_BASE_URL<next_path>`). The Meridian session ended already at sign-out.
   * - A `SAMLRequest` (IdP-initiated LogoutRequest): signed, its `Issuer` the IdP's, `Destination`
   *   (when given) this service, issued within 10 minutes (60 s skew), never seen before (its `ID` is
   *   remembered on every replica). Ends every live Meridian session opened through this connection
   *   with its `NameID` (only those of its `SessionIndex`es when it names some; audit `auth.sign_out`
   *   with `via` `saml_slo`), and answers the IdP's `slo_url` with a signed LogoutResponse (Success).
   *
   * Refusals change nothing: 404 `SSO_NOT_CONFIGURED`, `SAML_SLO_NOT_CONFIGURED`; 400
   * `SAML_LOGOUT_INVALID`, `SAML_SIGNATURE_INVALID`, `SAML_ISSUER_MISMATCH`,
   * `SAML_RECIPIENT_MISMATCH`, `SAML_IN_RESPONSE_TO_MISMATCH`, `SAML_LOGOUT_EXPIRED`,
   * `SAML_LOGOUT_REPLAYED`; 502 `SAML_PROVIDER_ERROR` (a LogoutResponse with another status).
   */
  async singleLogout(connectionId: string, input: SamlLogoutInput, client: ClientInfo): Promise<SamlLogoutDone> {
    const { connection, s } = await this.settingsOf(connectionId);
    if (!s.sloUrl || !s.spPrivateKey) throw new MeridianError('SAML_SLO_NOT_CONFIGURED');
    const { params, binding } = input;
    const isRequest = params.SAMLRequest !== undefined;
    const xml = decodeLogoutParameter(isRequest ? params.SAMLRequest : params.SAMLResponse, binding);
    const message = xml ? readLogoutMessage(xml) : null;
    if (!message || message.kind !== (isRequest ? 'LogoutRequest' : 'LogoutResponse'))
      throw new MeridianError('SAML_LOGOUT_INVALID');
    const ours = samlUrls(this.config.apiBaseUrl, connection.id).slo;
    const problem = logoutMessageProblem(message, {
      idpEntityId: s.idpEntityId,
      sloUrl: ours,
      now: Date.now(),
      maxAgeMs: SAML_REQUEST_TTL_SECONDS * 1000,
      skewMs: SAML_CLOCK_SKEW_MS,
    });
    // the signature first: an unsigned message's claims are not worth an answer
    if (binding === 'redirect' && (typeof params.Signature !== 'string' || typeof params.SigAlg !== 'string')) {
      this.logger.warn({ connection: connection.id }, 'SAML logout message refused: unsigned');
      throw new MeridianError('SAML_SIGNATURE_INVALID');
    }
    return message.kind === 'LogoutResponse'
      ? this.logoutAnswered(connection, s, input, message, problem)
      : this.logoutAsked(connection, s, input, message, problem, client);
  }

  private async logoutAnswered(
    connection: ResolvedSsoConnection,
    s: SamlSettings,
    input: SamlLogoutInput,
    message: LogoutMessage,
    problem: ErrorCode | null,
  ): Promise<SamlLogoutDone> {
    const request = message.inResponseTo ? await this.repo.findRequest(message.inResponseTo) : null;
    if (!request || request.connectionId !== connection.id || request.purpose !== 'logout') {
      this.logger.warn(
        { connection: connection.id },
        'SAML LogoutResponse refused: InResponseTo names no request of ours',
      );
      throw new MeridianError('SAML_IN_RESPONSE_TO_MISMATCH');
    }
    try {
      await this.checkLogoutSignature(connection, s, input, request.id);
    } finally {
      // answered once, whatever the answer
      await this.repo.deleteRequest(request.id);
    }
    if (problem) {
      this.logger.warn({ connection: connection.id, problem, status: message.status }, 'SAML LogoutResponse refused');
      throw new MeridianError(problem);
    }
    const { appBaseUrl, spaceBaseUrl } = this.config.webSession;
    const url = request.site === 'space' ? `${spaceBaseUrl}${request.nextPath ?? '/'}` : `${appBaseUrl}/`;
    return { url, ended: 0 };
  }

  private async logoutAsked(
    connection: ResolvedSsoConnection,
    s: SamlSettings,
    input: SamlLogoutInput,
    message: LogoutMessage,
    problem: ErrorCode | null,
    client: ClientInfo,
  ): Promise<SamlLogoutDone> {
    const profile = await this.checkLogoutSignature(connection, s, input, null);
    if (problem) {
      this.logger.warn({ connection: connection.id, problem }, 'SAML LogoutRequest refused');
      throw new MeridianError(problem);
    }
    const nameId = profile?.nameID || message.nameId;
    if (!nameId || !message.id) throw new MeridianError('SAML_LOGOUT_INVALID');
    const key = `${connection.id}:logout:${message.id.slice(0, 250)}`;
    const until = logoutRequestRememberedUntil(message, SAML_REQUEST_TTL_SECONDS * 1000, SAML_CLOCK_SKEW_MS);
    if (!(await this.repo.rememberAssertion(key, until))) {
      this.logger.warn({ connection: connection.id }, 'SAML LogoutRequest refused: replayed');
      throw new MeridianError('SAML_LOGOUT_REPLAYED');
    }
    const live = await this.repo.liveSessionsOf(connection.id, nameId, message.sessionIndexes);
    const actor = (userId: string): AuditActor => ({
      userId,
      email: null,
      apiTokenId: null,
      ipAddress: client.ipAddress ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
    });
    const ended = await this.sessions.signOutMany(
      live.map((l) => ({ sessionId: l.sessionId, actor: actor(l.userId) })),
      { via: 'saml_slo', connection: connection.id },
    );
    const answer = { ID: message.id, issuer: s.idpEntityId, nameID: nameId, nameIDFormat: UNSPECIFIED };
    const relayState = typeof input.params.RelayState === 'string' ? input.params.RelayState.slice(0, 1000) : '';
    const url = await this.client(connection, s).getLogoutResponseUrlAsync(answer, relayState, {}, true);
    return { url, ended };
  }

  /**
   * node-saml's check of a logout message's signature (and, for HTTP-Redirect, its issuer, status
   * and `InResponseTo` against `requestId`). Answers the LogoutRequest's profile (null for a response).
   */
  private async checkLogoutSignature(
    connection: ResolvedSsoConnection,
    s: SamlSettings,
    input: SamlLogoutInput,
    requestId: string | null,
  ): Promise<Profile | null> {
    const cache: CacheProvider = {
      saveAsync: () => Promise.resolve(null),
      getAsync: (key) => Promise.resolve(requestId !== null && key === requestId ? new Date().toISOString() : null),
      removeAsync: (key) => Promise.resolve(key),
    };
    const saml = this.client(connection, s, cache);
    const params = Object.fromEntries(
      Object.entries(input.params).filter((e): e is [string, string] => typeof e[1] === 'string'),
    );
    try {
      if (input.binding === 'redirect') return (await saml.validateRedirectAsync(params, input.rawQuery)).profile;
      if (params.SAMLRequest !== undefined) return (await saml.validatePostRequestAsync(params)).profile;
      await saml.validatePostResponseAsync(params);
      return null;
    } catch (err) {
      this.logger.warn({ connection: connection.id, err: (err as Error)?.message }, 'SAML logout message refused');
      throw new MeridianError(logoutCodeOf(err));
    }
  }

  private assertionKey(connection: ResolvedSsoConnection, assertionId: string): string {
    return `${connection.id}:${assertionId.slice(0, 250)}`;
  }

  /** `<connection id>:<NameID>`, the NameID hashed when it would not fit `user_accounts` (255). */
  private accountId(connection: ResolvedSsoConnection, nameId: string): string {
    const id = `${connection.id}:${nameId}`;
    return id.length <= 255 ? id : `${connection.id}:sha256:${createHash('sha256').update(nameId).digest('hex')}`;
  }
}
