import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

/** The part of `samlify` used here (its typings would pull the browser's DOM into every file). */
interface SamlifyEntity {
  entityMeta: { getAssertionConsumerService(binding: string): string | string[]; getEntityID(): string };
}
interface SamlifyIdp extends SamlifyEntity {
  parseLoginRequest(
    sp: SamlifyEntity,
    binding: string,
    req: { query: Record<string, string> },
  ): Promise<{ extract: unknown }>;
  parseLogoutRequest(
    sp: SamlifyEntity,
    binding: string,
    req: { query: Record<string, string>; octetString: string },
  ): Promise<{ extract: unknown; samlContent: string }>;
  parseLogoutResponse(
    sp: SamlifyEntity,
    binding: string,
    req: { query: Record<string, string>; octetString: string },
  ): Promise<{ extract: unknown; samlContent: string }>;
  createLogoutRequest(
    sp: SamlifyEntity,
    binding: string,
    user: { logoutNameID: string; sessionIndex?: string },
    relayState?: string,
  ): { id: string; context: string; entityEndpoint?: string };
  createLogoutResponse(
    sp: SamlifyEntity,
    requestInfo: { extract: unknown },
    binding: string,
    relayState?: string,
  ): { id: string; context: string };
  createLoginResponse(
    sp: SamlifyEntity,
    requestInfo: { extract: unknown },
    binding: string,
    user: Record<string, unknown>,
    options: { customTagReplacement: (template: string) => { id: string; context: string } },
  ): Promise<{ context: string }>;
}
const samlify = require('samlify') as {
  setSchemaValidator(validator: { validate: (xml: string) => Promise<string> }): void;
  IdentityProvider(settings: Record<string, unknown>): SamlifyIdp;
  ServiceProvider(settings: Record<string, unknown>): SamlifyEntity;
  SamlLib: { replaceTagsByValue(xml: string, values: Record<string, string>): string };
  Constants: { namespace: { binding: { redirect: string } }; StatusCode: { Success: string } };
};

/**
 * A real SAML 2.0 identity provider for tests: `samlify` (a maintained SAML library) in its IdP
 * role on loopback. Its single sign-on endpoint (`GET /sso`, HTTP-Redirect binding) parses and
 * checks the AuthnRequest against the SP's metadata (`sp`, as Meridian serves it), signs `next` in
 * at once (as a user who typed their password would), and answers the HTML page of the HTTP-POST
 * binding: a form to the ACS with the signed `SAMLResponse` (samlify signs the assertion with
 * xml-crypto, as the SP's metadata asks). `tamper` bends the next Response the way the refusal
 * tests need (audience, validity window, InResponseTo, recipient, an impostor's key).
 */
export interface SamlIdentity {
  nameId: string;
  email?: string;
  firstName?: string;
  lastName?: string;
  groups?: string[];
}

export interface SamlTamper {
  audience?: string;
  /** the assertion's NotOnOrAfter (NotBefore and IssueInstant 5 minutes before it) */
  notOnOrAfter?: Date;
  inResponseTo?: string;
  recipient?: string;
  /** sign with another key than the one Meridian trusts */
  impostor?: boolean;
}

/** The auto-posting form the IdP answered: where and what the browser posts. */
export interface PostedForm {
  action: string;
  fields: Record<string, string>;
}

export interface TestSamlIdp {
  /** e.g. http://127.0.0.1:41234 */
  url: string;
  entityId: string;
  ssoUrl: string;
  /** the IdP's signing certificate (PEM), to enter in Meridian */
  certificate: string;
  /** another key's certificate (PEM), e.g. for a second trusted certificate */
  impostorCertificate: string;
  /** the SP's metadata XML (Meridian's `/auth/saml/<id>/metadata/`) */
  sp: string | undefined;
  next: SamlIdentity | undefined;
  tamper: SamlTamper | undefined;
  /** the AuthnRequests parsed, in order (samlify's extract: `request.id`, `issuer`, …) */
  requests: Record<string, unknown>[];
  /** the IdP's single logout URL (HTTP-Redirect binding), to enter in Meridian as `slo_url` */
  sloUrl: string;
  /** every sign-in answered: its NameID and the SessionIndex the IdP gave it, in order */
  signIns: Array<{ nameId: string; sessionIndex: string }>;
  /**
   * Meridian's LogoutRequests received at `/slo` (SP-initiated), each checked by samlify (the
   * signature against the SP metadata's signing certificate, required): its extract (`request.id`,
   * `nameID`, `sessionIndex`, `issuer`, …) and XML. The IdP answers each with a signed LogoutResponse
   * (HTTP-Redirect) to the SP's single logout service.
   */
  logoutRequests: Array<{ extract: Record<string, unknown>; xml: string }>;
  /** Meridian's LogoutResponses received at `/slo` (to an IdP-initiated LogoutRequest), checked as above */
  logoutResponses: Array<{ extract: Record<string, unknown>; xml: string }>;
  /** the next `/slo` LogoutResponse of the IdP is signed by the impostor's key */
  tamperLogoutResponse: boolean;
  /**
   * An IdP-initiated LogoutRequest for `who` to the SP's single logout service: a URL to browse to
   * (HTTP-Redirect, signed query) or a form to post (HTTP-POST, signed XML). `impostor` signs with
   * another key, `unsigned` not at all.
   */
  logoutRequest(
    who: { nameId: string; sessionIndex?: string },
    options: { binding: 'redirect' | 'post'; impostor?: boolean; unsigned?: boolean; issuer?: string },
  ): { id: string; url: string; form: PostedForm };
  /** the SSO page's HTML answer read as the form the browser would post */
  readForm(html: string): PostedForm;
  close(): Promise<void>;
}

/** A throwaway RSA key and self-signed certificate (openssl), PEM (e.g. an SP signing key). */
export function keyPair(cn: string): { key: string; cert: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'saml-idp-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '2', '-subj', `/CN=${cn}`].concat([
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ]),
      { stdio: 'pipe' },
    );
    return {
      key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const escapeXml = (v: string) =>
  v.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeHtml = escapeXml;

function attribute(name: string, values: string[]): string {
  const v = values
    .map((x) => `<saml:AttributeValue xsi:type="xs:string">${escapeXml(x)}</saml:AttributeValue>`)
    .join('');
  return `<saml:Attribute Name="${escapeXml(name)}" NameFormat="urn:oasis:names:tc:SAML:2.0:attrname-format:basic">${v}</saml:Attribute>`;
}

let validatorSet = false;

export async function startTestSamlIdp(): Promise<TestSamlIdp> {
  if (!validatorSet) {
    // the IdP side's XML schema check of the AuthnRequest (samlify leaves the validator to the
    // application); Meridian's side, under test, is not concerned
    samlify.setSchemaValidator({ validate: () => Promise.resolve('skipped') });
    validatorSet = true;
  }
  const real = keyPair('meridian-test-idp');
  const impostor = keyPair('impostor-idp');
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const entityId = `${url}/metadata`;
  const ssoUrl = `${url}/sso`;
  const idpOf = (pair: { key: string; cert: string }, entityID = entityId) =>
    samlify.IdentityProvider({
      entityID,
      privateKey: pair.key,
      signingCert: pair.cert,
      singleSignOnService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: ssoUrl }],
      singleLogoutService: [{ Binding: samlify.Constants.namespace.binding.redirect, Location: `${url}/slo` }],
      nameIDFormat: ['urn:oasis:names:tc:SAML:2.0:nameid-format:persistent'],
      wantLogoutRequestSigned: true,
      wantLogoutResponseSigned: true,
    });
  const idp = idpOf(real);
  const fake = idpOf(impostor);

  const state: TestSamlIdp = {
    url,
    entityId,
    ssoUrl,
    certificate: real.cert,
    impostorCertificate: impostor.cert,
    sp: undefined,
    next: undefined,
    tamper: undefined,
    requests: [],
    sloUrl: `${url}/slo`,
    signIns: [],
    logoutRequests: [],
    logoutResponses: [],
    tamperLogoutResponse: false,
    logoutRequest(who, options) {
      if (!state.sp) throw new Error('the test set no idp.sp');
      const sp = spOf(state.sp, !options.unsigned);
      const signer = options.impostor ? fake : options.issuer ? idpOf(real, options.issuer) : idp;
      const user = { logoutNameID: who.nameId, ...(who.sessionIndex ? { sessionIndex: who.sessionIndex } : {}) };
      const made = signer.createLogoutRequest(sp, options.binding, user, 'relay-1');
      const none: PostedForm = { action: '', fields: {} };
      if (options.binding === 'redirect') return { id: made.id, url: made.context, form: none };
      const action = made.entityEndpoint ?? '';
      return {
        id: made.id,
        url: action,
        form: { action, fields: { SAMLRequest: made.context, RelayState: 'relay-1' } },
      };
    },
    readForm(html: string): PostedForm {
      const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1];
      if (!action) throw new Error(`no form in the IdP's answer: ${html.slice(0, 300)}`);
      const fields: Record<string, string> = {};
      for (const m of html.matchAll(/<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g)) fields[m[1]] = m[2];
      return { action, fields };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };

  /** The SP as samlify sees it: Meridian's metadata, its logout messages signed (or not). */
  function spOf(metadata: string, signed = true) {
    return samlify.ServiceProvider({
      metadata,
      wantLogoutRequestSigned: signed,
      wantLogoutResponseSigned: signed,
    });
  }

  /** The signed part of a redirect-binding query, as received (bindings §3.4.4.1). */
  function octetStringOf(rawQuery: string): string {
    const part = (name: string) => rawQuery.split('&').find((p) => p.startsWith(`${name}=`));
    return [part('SAMLRequest') ?? part('SAMLResponse'), part('RelayState'), part('SigAlg')]
      .filter((p): p is string => p !== undefined)
      .join('&');
  }

  async function singleLogout(at: URL, res: http.ServerResponse): Promise<void> {
    if (!state.sp) throw new Error('the test set no idp.sp');
    const sp = spOf(state.sp);
    const query = Object.fromEntries(at.searchParams);
    const request = { query, octetString: octetStringOf(at.search.slice(1)) };
    if (query.SAMLResponse !== undefined) {
      const parsed = await idp.parseLogoutResponse(sp, 'redirect', request);
      state.logoutResponses.push({ extract: parsed.extract as Record<string, unknown>, xml: parsed.samlContent });
      res.writeHead(200, { 'Content-Type': 'text/plain' }).end('signed out at the IdP');
      return;
    }
    const parsed = await idp.parseLogoutRequest(sp, 'redirect', request);
    state.logoutRequests.push({ extract: parsed.extract as Record<string, unknown>, xml: parsed.samlContent });
    const signer = state.tamperLogoutResponse ? fake : idp;
    state.tamperLogoutResponse = false;
    const answered = signer.createLogoutResponse(sp, parsed, 'redirect', query.RelayState ?? '');
    res.writeHead(302, { Location: answered.context }).end();
  }

  async function answer(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const at = new URL(req.url ?? '/', url);
    if (at.pathname === '/slo') return singleLogout(at, res);
    if (at.pathname !== '/sso') {
      res.writeHead(404).end();
      return;
    }
    if (!state.sp || !state.next) throw new Error('the test set neither idp.sp nor idp.next');
    const sp = samlify.ServiceProvider({ metadata: state.sp });
    const query = Object.fromEntries(at.searchParams);
    const parsed = await idp.parseLoginRequest(sp, 'redirect', { query });
    const extract = parsed.extract as { request: { id: string }; issuer?: string };
    state.requests.push(extract as unknown as Record<string, unknown>);
    const who = state.next;
    const tamper = state.tamper ?? {};
    state.tamper = undefined;
    const acs = sp.entityMeta.getAssertionConsumerService('post') as string;
    const end = tamper.notOnOrAfter ?? new Date(Date.now() + 5 * 60_000);
    const start = new Date(end.getTime() - 10 * 60_000);
    const issued = tamper.notOnOrAfter ? start : new Date();
    const attributes = [
      who.email ? attribute('email', [who.email]) : '',
      who.firstName ? attribute('first_name', [who.firstName]) : '',
      who.lastName ? attribute('last_name', [who.lastName]) : '',
      who.groups?.length ? attribute('groups', who.groups) : '',
    ].join('');
    const sessionIndex = `_s${randomBytes(8).toString('hex')}`;
    state.signIns.push({ nameId: who.nameId, sessionIndex });
    const signer = tamper.impostor ? fake : idp;
    const response = await signer.createLoginResponse(
      sp,
      parsed,
      'post',
      { email: who.email },
      {
        customTagReplacement: (template: string) => {
          const raw = template
            .replace(
              '{AttributeStatement}',
              attributes ? `<saml:AttributeStatement>${attributes}</saml:AttributeStatement>` : '',
            )
            .replace(
              '{AuthnStatement}',
              `<saml:AuthnStatement AuthnInstant="${issued.toISOString()}" SessionIndex="${sessionIndex}"><saml:AuthnContext><saml:AuthnContextClassRef>urn:oasis:names:tc:SAML:2.0:ac:classes:PasswordProtectedTransport</saml:AuthnContextClassRef></saml:AuthnContext></saml:AuthnStatement>`,
            );
          const id = `_${randomBytes(16).toString('hex')}`;
          return {
            id,
            context: samlify.SamlLib.replaceTagsByValue(raw, {
              ID: id,
              AssertionID: `_${randomBytes(16).toString('hex')}`,
              Destination: acs,
              Audience: tamper.audience ?? sp.entityMeta.getEntityID(),
              SubjectRecipient: tamper.recipient ?? acs,
              Issuer: entityId,
              IssueInstant: issued.toISOString(),
              StatusCode: samlify.Constants.StatusCode.Success,
              ConditionsNotBefore: start.toISOString(),
              ConditionsNotOnOrAfter: end.toISOString(),
              SubjectConfirmationDataNotOnOrAfter: end.toISOString(),
              NameIDFormat: 'urn:oasis:names:tc:SAML:2.0:nameid-format:persistent',
              NameID: who.nameId,
              InResponseTo: tamper.inResponseTo ?? extract.request.id,
            }),
          };
        },
      },
    );
    const fields = { SAMLResponse: response.context, RelayState: query.RelayState ?? '' };
    const inputs = Object.entries(fields)
      .map(([k, v]) => `<input type="hidden" name="${k}" value="${escapeHtml(v)}"/>`)
      .join('');
    res.writeHead(200, { 'Content-Type': 'text/html' });
    res.end(
      `<html><body onload="document.forms[0].submit()"><form method="post" action="${escapeHtml(acs)}">${inputs}</form></body></html>`,
    );
  }

  server.on('request', (req, res) => {
    answer(req, res).catch((err: Error) => {
      if (res.headersSent) return void res.end();
      res.writeHead(500, { 'Content-Type': 'text/plain' }).end(err?.stack ?? String(err));
    });
  });
  return state;
}
