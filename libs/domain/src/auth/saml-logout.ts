import type { ErrorCode } from '#common';
import { inflateRawSync } from 'node:zlib';

/**
 * The reading and the local checks of SAML 2.0 single logout messages (SAML core §3.7, bindings
 * §3.4 HTTP-Redirect and §3.5 HTTP-POST; docs/sso-saml.md). Pure: no signature here (node-saml
 * verifies it, saml.service.ts), only what the message says of itself and whether that fits the
 * connection.
 */

/** What a `LogoutRequest` or `LogoutResponse` says of itself (its root's attributes and direct children). */
export interface LogoutMessage {
  kind: 'LogoutRequest' | 'LogoutResponse';
  /** the message's `ID` */
  id: string | null;
  /** the `Issuer` element's text: the sender's entity id */
  issuer: string | null;
  /** `LogoutResponse`: the `ID` of the LogoutRequest it answers */
  inResponseTo: string | null;
  /** where the sender addressed it */
  destination: string | null;
  /** ISO 8601 */
  issueInstant: string | null;
  /** `LogoutRequest`: its optional deadline (ISO 8601) */
  notOnOrAfter: string | null;
  /** `LogoutResponse`: the top-level `StatusCode` value */
  status: string | null;
  /** `LogoutRequest`: the `NameID` text (null when encrypted or absent) */
  nameId: string | null;
  /** `LogoutRequest`: every `SessionIndex`; empty = all the subject's sessions */
  sessionIndexes: string[];
}

/** The largest message read, in bytes (base64 or inflated). */
export const SAML_LOGOUT_MAX_BYTES = 200_000;

export const SAML_STATUS_SUCCESS = 'urn:oasis:names:tc:SAML:2.0:status:Success';

/** The few DOM members read here (xmldom's typings would pull the browser's DOM into every file). */
export interface MiniNode {
  nodeType: number;
  localName: string;
  textContent: string | null;
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

/**
 * The root element of `xml`, parsed by xmldom (which fetches nothing); null when the text is not
 * well-formed XML or has no root element.
 */
export function parseXmlRoot(xml: string): MiniNode | null {
  let invalid = false;
  let doc: { documentElement: MiniNode | null } | undefined;
  try {
    doc = new DOMParser({
      errorHandler: { error: () => (invalid = true), fatalError: () => (invalid = true), warning: () => undefined },
    }).parseFromString(xml, 'text/xml');
  } catch {
    return null;
  }
  return invalid ? null : (doc?.documentElement ?? null);
}

/**
 * The XML of a `SAMLRequest` / `SAMLResponse` parameter: base64 for HTTP-POST, base64 of the
 * DEFLATE (raw) stream for HTTP-Redirect. Null when it does not decode or exceeds
 * `SAML_LOGOUT_MAX_BYTES`.
 */
export function decodeLogoutParameter(raw: unknown, binding: 'redirect' | 'post'): string | null {
  if (typeof raw !== 'string' || !raw || raw.length > SAML_LOGOUT_MAX_BYTES) return null;
  const bytes = Buffer.from(raw, 'base64');
  if (bytes.length === 0) return null;
  if (binding === 'post') return bytes.toString('utf8');
  try {
    return inflateRawSync(bytes, { maxOutputLength: SAML_LOGOUT_MAX_BYTES }).toString('utf8');
  } catch {
    return null;
  }
}

/** Reads a logout message; null when it is not well-formed XML or its root is neither `LogoutRequest` nor `LogoutResponse`. */
export function readLogoutMessage(xml: string): LogoutMessage | null {
  const root = parseXmlRoot(xml);
  if (!root || (root.localName !== 'LogoutRequest' && root.localName !== 'LogoutResponse')) return null;
  const message: LogoutMessage = {
    kind: root.localName,
    id: root.getAttribute('ID') || null,
    issuer: null,
    inResponseTo: root.getAttribute('InResponseTo') || null,
    destination: root.getAttribute('Destination') || null,
    issueInstant: root.getAttribute('IssueInstant') || null,
    notOnOrAfter: root.getAttribute('NotOnOrAfter') || null,
    status: null,
    nameId: null,
    sessionIndexes: [],
  };
  for (let n = root.firstChild; n; n = n.nextSibling) {
    if (n.nodeType !== 1) continue;
    const text = (n.textContent ?? '').trim();
    if (n.localName === 'Issuer') message.issuer = text || null;
    else if (n.localName === 'NameID') message.nameId = text || null;
    else if (n.localName === 'SessionIndex' && text) message.sessionIndexes.push(text);
    else if (n.localName === 'Status') {
      for (let c = n.firstChild; c; c = c.nextSibling)
        if (c.nodeType === 1 && c.localName === 'StatusCode') message.status = c.getAttribute('Value');
    }
  }
  return message;
}

/** What a logout message is checked against. */
export interface LogoutExpectations {
  /** the connection's `idp_entity_id` */
  idpEntityId: string;
  /** Meridian's single logout service URL of the connection */
  sloUrl: string;
  /** now, in ms */
  now: number;
  /** how old (by `IssueInstant`) a LogoutRequest may be, in ms */
  maxAgeMs: number;
  /** the clock skew allowed, in ms */
  skewMs: number;
}

/**
 * The first problem of a logout message (its signature aside), or null: `SAML_LOGOUT_INVALID`
 * without an `ID` (a request without `NameID` or `IssueInstant` too); `SAML_ISSUER_MISMATCH` when its
 * `Issuer` is not the IdP's; `SAML_RECIPIENT_MISMATCH` when a `Destination` names another URL than
 * Meridian's SLO service; a request: `SAML_LOGOUT_EXPIRED` when issued more than `maxAgeMs` ago (or
 * in the future, beyond the skew) or past its `NotOnOrAfter`; a response: `SAML_PROVIDER_ERROR`
 * when its status is not Success.
 */
export function logoutMessageProblem(m: LogoutMessage, expect: LogoutExpectations): ErrorCode | null {
  if (!m.id) return 'SAML_LOGOUT_INVALID';
  if (m.issuer !== expect.idpEntityId) return 'SAML_ISSUER_MISMATCH';
  if (m.destination !== null && m.destination !== expect.sloUrl) return 'SAML_RECIPIENT_MISMATCH';
  if (m.kind === 'LogoutResponse') return m.status === SAML_STATUS_SUCCESS ? null : 'SAML_PROVIDER_ERROR';
  if (!m.nameId) return 'SAML_LOGOUT_INVALID';
  const issued = m.issueInstant ? Date.parse(m.issueInstant) : NaN;
  if (!Number.isFinite(issued)) return 'SAML_LOGOUT_INVALID';
  if (issued > expect.now + expect.skewMs || issued < expect.now - expect.maxAgeMs - expect.skewMs)
    return 'SAML_LOGOUT_EXPIRED';
  if (m.notOnOrAfter !== null) {
    const deadline = Date.parse(m.notOnOrAfter);
    if (!Number.isFinite(deadline) || deadline + expect.skewMs <= expect.now) return 'SAML_LOGOUT_EXPIRED';
  }
  return null;
}

/** Until when a LogoutRequest's `ID` is remembered against a replay: as long as it could still pass `logoutMessageProblem`. */
export function logoutRequestRememberedUntil(m: LogoutMessage, maxAgeMs: number, skewMs: number): Date {
  const issued = Date.parse(m.issueInstant ?? '');
  return new Date((Number.isFinite(issued) ? issued : Date.now()) + maxAgeMs + 2 * skewMs);
}
