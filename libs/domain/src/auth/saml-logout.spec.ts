// Reading and checking SAML single logout messages (no IdP, no signature, no database).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateRawSync } from 'node:zlib';
import {
  decodeLogoutParameter,
  LogoutExpectations,
  logoutMessageProblem,
  logoutRequestRememberedUntil,
  readLogoutMessage,
  SAML_LOGOUT_MAX_BYTES,
  SAML_STATUS_SUCCESS,
} from './saml-logout';

const IDP = 'https://idp.example.com/metadata';
const SLO = 'https://meridian.example.com/auth/saml/c1/slo/';
const NOW = Date.parse('2026-11-29T12:00:00Z');
const expect: LogoutExpectations = { idpEntityId: IDP, sloUrl: SLO, now: NOW, maxAgeMs: 600_000, skewMs: 60_000 };

function request(attrs: Record<string, string> = {}, body?: string): string {
  const a = { ID: '_r1', Version: '2.0', IssueInstant: new Date(NOW).toISOString(), Destination: SLO, ...attrs };
  const at = Object.entries(a)
    .map(([k, v]) => ` ${k}="${v}"`)
    .join('');
  return (
    `<samlp:LogoutRequest xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion"${at}>` +
    (body ??
      `<saml:Issuer>${IDP}</saml:Issuer><saml:NameID Format="urn:oasis:names:tc:SAML:2.0:nameid-format:persistent"> ada </saml:NameID>` +
        `<samlp:SessionIndex>_s1</samlp:SessionIndex><samlp:SessionIndex>_s2</samlp:SessionIndex>`) +
    `</samlp:LogoutRequest>`
  );
}

function response(status = SAML_STATUS_SUCCESS, issuer = IDP): string {
  return (
    `<samlp:LogoutResponse xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol" ID="_a1" Version="2.0" IssueInstant="${new Date(NOW).toISOString()}" Destination="${SLO}" InResponseTo="_q9">` +
    `<saml:Issuer xmlns:saml="urn:oasis:names:tc:SAML:2.0:assertion">${issuer}</saml:Issuer>` +
    `<samlp:Status><samlp:StatusCode Value="${status}"/></samlp:Status></samlp:LogoutResponse>`
  );
}

describe('readLogoutMessage', () => {
  it('reads a LogoutRequest: ID, Issuer, NameID, every SessionIndex, Destination, IssueInstant', () => {
    const m = readLogoutMessage(request());
    assert.deepEqual(m, {
      kind: 'LogoutRequest',
      id: '_r1',
      issuer: IDP,
      inResponseTo: null,
      destination: SLO,
      issueInstant: new Date(NOW).toISOString(),
      notOnOrAfter: null,
      status: null,
      nameId: 'ada',
      sessionIndexes: ['_s1', '_s2'],
    });
  });

  it('reads a LogoutResponse: InResponseTo and the top-level status', () => {
    const m = readLogoutMessage(response('urn:oasis:names:tc:SAML:2.0:status:Requester'));
    assert.equal(m?.kind, 'LogoutResponse');
    assert.equal(m?.inResponseTo, '_q9');
    assert.equal(m?.status, 'urn:oasis:names:tc:SAML:2.0:status:Requester');
  });

  it('answers null for malformed XML and for other messages (a sign-in Response)', () => {
    assert.equal(readLogoutMessage('<samlp:LogoutRequest'), null);
    assert.equal(readLogoutMessage('not xml'), null);
    assert.equal(readLogoutMessage('<samlp:Response xmlns:samlp="urn:oasis:names:tc:SAML:2.0:protocol"/>'), null);
  });
});

describe('decodeLogoutParameter', () => {
  it('decodes base64 (HTTP-POST) and base64 of raw DEFLATE (HTTP-Redirect)', () => {
    const xml = request();
    assert.equal(decodeLogoutParameter(Buffer.from(xml).toString('base64'), 'post'), xml);
    assert.equal(decodeLogoutParameter(deflateRawSync(Buffer.from(xml)).toString('base64'), 'redirect'), xml);
  });

  it('refuses what is not there, does not inflate, or is too large', () => {
    assert.equal(decodeLogoutParameter(undefined, 'post'), null);
    assert.equal(decodeLogoutParameter('', 'redirect'), null);
    assert.equal(decodeLogoutParameter(Buffer.from('plain, not deflated').toString('base64'), 'redirect'), null);
    assert.equal(decodeLogoutParameter('A'.repeat(SAML_LOGOUT_MAX_BYTES + 1), 'post'), null);
    // a small stream inflating past the limit (a "zip bomb") is refused
    const bomb = deflateRawSync(Buffer.alloc(SAML_LOGOUT_MAX_BYTES * 4, 0x20)).toString('base64');
    assert.ok(bomb.length < SAML_LOGOUT_MAX_BYTES);
    assert.equal(decodeLogoutParameter(bomb, 'redirect'), null);
  });
});

describe('logoutMessageProblem', () => {
  const problem = (xml: string, e: Partial<LogoutExpectations> = {}) =>
    logoutMessageProblem(readLogoutMessage(xml)!, { ...expect, ...e });

  it('accepts a fresh request of the IdP addressed to this service, and a successful response', () => {
    assert.equal(problem(request()), null);
    assert.equal(
      problem(request({ Destination: SLO }, `<saml:Issuer>${IDP}</saml:Issuer><saml:NameID>x</saml:NameID>`)),
      null,
    );
    assert.equal(problem(response()), null);
  });

  it('refuses another issuer, another destination, a missing ID or NameID', () => {
    assert.equal(problem(request(), { idpEntityId: 'https://other.example.com' }), 'SAML_ISSUER_MISMATCH');
    assert.equal(problem(response(SAML_STATUS_SUCCESS, 'https://other.example.com')), 'SAML_ISSUER_MISMATCH');
    assert.equal(problem(request({ Destination: 'https://evil.example.com/slo' })), 'SAML_RECIPIENT_MISMATCH');
    assert.equal(problem(request({ ID: '' })), 'SAML_LOGOUT_INVALID');
    assert.equal(problem(request({}, `<saml:Issuer>${IDP}</saml:Issuer>`)), 'SAML_LOGOUT_INVALID');
  });

  it('refuses a request issued too long ago, in the future, or past its NotOnOrAfter (skew allowed)', () => {
    const at = (ms: number) => new Date(NOW + ms).toISOString();
    assert.equal(problem(request({ IssueInstant: at(-600_000 - 59_000) })), null, 'within the skew');
    assert.equal(problem(request({ IssueInstant: at(-600_000 - 61_000) })), 'SAML_LOGOUT_EXPIRED');
    assert.equal(problem(request({ IssueInstant: at(61_000) })), 'SAML_LOGOUT_EXPIRED');
    assert.equal(problem(request({ IssueInstant: 'yesterday' })), 'SAML_LOGOUT_INVALID');
    assert.equal(problem(request({ NotOnOrAfter: at(-61_000) })), 'SAML_LOGOUT_EXPIRED');
    assert.equal(problem(request({ NotOnOrAfter: at(30_000) })), null);
  });

  it('refuses a response with another status than Success', () => {
    assert.equal(problem(response('urn:oasis:names:tc:SAML:2.0:status:Responder')), 'SAML_PROVIDER_ERROR');
  });
});

describe('logoutRequestRememberedUntil', () => {
  it('remembers an ID as long as its request could still be accepted', () => {
    const m = readLogoutMessage(request())!;
    const until = logoutRequestRememberedUntil(m, 600_000, 60_000).getTime();
    assert.equal(until, NOW + 600_000 + 120_000);
    // the last instant the request passes lies before it is forgotten
    assert.equal(logoutMessageProblem(m, { ...expect, now: until - 60_001 }), null);
  });
});
