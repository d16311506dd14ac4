import { APP_CONFIG, AppConfig, ErrorCode, MeridianError } from '#common';
import { CacheProvider, Profile, SAML, SamlStatusError, ValidateInResponseTo } from '@node-saml/node-saml';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createHash } from 'node:crypto';
import { DataSource } from 'typeorm';
import { userMeView } from '../user';
import type { SignInResult } from './account.service';
import type { SsoSite } from './oidc.service';
import { SamlRepository } from './saml.repository';
import { SamlSettings, samlUrls } from './saml-settings';
import { type ClientInfo, SessionService } from './session.service';
import { recordSignInFailure } from './sign-in-audit';
import { ResolvedSsoConnection, SsoConnectionService } from './sso-connection.service';
import { SsoSignInService } from './sso-sign-in.service';

/** How long an AuthnRequest waits for its answer. */
export const SAML_REQUEST_TTL_SECONDS = 600;
/** The clock skew allowed on NotBefore / NotOnOrAfter, in ms. */
export const SAML_CLOCK_SKEW_MS = 60_000;

const TRANSIENT = 'urn:oasis:names:tc:SAML:2.0:nameid-format:transient';
const BEARER = 'urn:oasis:names:tc:SAML:2.0:cm:bearer';

/** A finished SAML sign-in: the session (as password sign-in's) and where it was going. */
export interface SamlSignIn {
  result: SignInResult;
  site: SsoSite;
  next: string | null;
}

/** The few DOM members `peek` reads (xmldom's typings would pull the browser's DOM into every file). */
interface MiniNode {
  nodeType: number;
  localName: string;
  firstChild: MiniNode | null;
  nextSibling: MiniNode | null;
  getAttribute(name: string): string | null;
}
interface MiniParser {
  parseFromString(xml: string, type: string): { documentElement: MiniNode | null } | undefined;
}
const { DOMParser } = require('@xmldom/xmldom') as {
  DOMParser: new (options: { errorHandler: Record<'warning' | 'error' | 'fatalError', () => void> }) => MiniParser;
};

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
  let invalid = false;
  const doc = new DOMParser({
    errorHandler: { error: () => (invalid = true), fatalError: () => (invalid = true), warning: () => undefined },
  }).parseFromString(xml, 'text/xml');
  const root = doc?.documentElement;
  if (invalid || !root || root.localName !== 'Response') return null;
  let assertionId: string | null = null;
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && n.localName === 'Assertion') assertionId = n.getAttribute('ID');
  }
  return { inResponseTo: root.getAttribute('InResponseTo') || null, assertionId };
}

/** Meridian's code for what node-saml refused (its message is logged, not answered). */
function codeOf(err: unknown): ErrorCode {
  if (err instanceof SamlStatusError) return 'SAML_PROVIDER_ERROR';
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
    return new SAML({
      entryPoint: s.ssoUrl,
      issuer: s.spEntityId,
      audience: s.spEntityId,
      callbackUrl: samlUrls(this.config.apiBaseUrl, connection.id).acs,
      idpCert: s.idpCertificates,
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
    const cache: CacheProvider = {
      saveAsync: async (key, value) => {
        await this.repo.saveRequest({
          id: key,
          connectionId: connection.id,
          site,
          nextPath: next ?? null,
          expiresAt: new Date(Date.now() + SAML_REQUEST_TTL_SECONDS * 1000),
        });
        return { value, createdAt: Date.now() };
      },
      getAsync: () => Promise.resolve(null),
      removeAsync: (key) => Promise.resolve(key),
    };
    return this.client(connection, connection.saml, cache).getAuthorizeUrlAsync('', undefined, {});
  }

  /** The SP metadata (XML) of a `saml` connection: entity id, ACS URL, signing certificate if any. 404 `SSO_NOT_CONFIGURED`. */
  async metadata(connectionId: string): Promise<string> {
    const { connection, s } = await this.settingsOf(connectionId);
    return this.client(connection, s).generateServiceProviderMetadata(null, s.spCertificate);
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
    if (!request || request.connectionId !== connection.id) {
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
    const tokens = await this.sessions.open(user, 'saml', { ...client, cookie: true, connection: connection.id });
    return {
      result: { ...tokens, user: userMeView(user) },
      site: request.site === 'space' ? 'space' : 'app',
      next: request.nextPath,
    };
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
