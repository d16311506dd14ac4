// The hardening headers: the same headers as helmet's own middleware, read once (no database).
import type { Request, Response } from 'express';
import helmet from 'helmet';
import assert from 'node:assert/strict';
import { IncomingMessage, ServerResponse } from 'node:http';
import { Socket } from 'node:net';
import { describe, it } from 'node:test';
import { helmetHeaders, securityHeaders } from './security-headers';

function response(): ServerResponse {
  const res = new ServerResponse(new IncomingMessage(new Socket()));
  res.setHeader('X-Powered-By', 'Express');
  return res;
}

function run(middleware: (req: Request, res: Response, next: (err?: unknown) => void) => void) {
  const res = response();
  let went: unknown = 'not called';
  middleware({ headers: {} } as Request, res as unknown as Response, (err) => (went = err));
  assert.equal(went, undefined);
  return { ...res.getHeaders() } as Record<string, unknown>;
}

const OPTIONS = {
  contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  crossOriginResourcePolicy: { policy: 'cross-origin' as const },
  strictTransportSecurity: false,
};

describe('security headers', () => {
  it("writes helmet's headers (and removes X-Powered-By) as helmet does, plus Cache-Control: no-store", () => {
    const byHelmet = run(helmet(OPTIONS) as never);
    const ours = run(securityHeaders() as never);
    assert.deepEqual(ours, { ...byHelmet, 'cache-control': 'no-store' } as Record<string, unknown>);
    assert.equal(ours['x-powered-by'], undefined);
    assert.equal(ours['x-content-type-options'], 'nosniff');
    assert.match(String(ours['content-security-policy']), /default-src 'self'/);
    assert.doesNotMatch(String(ours['content-security-policy']), /upgrade-insecure-requests/);
    assert.equal(ours['cross-origin-resource-policy'], 'cross-origin');
    assert.equal(ours['strict-transport-security'], undefined);
  });

  it('keeps helmet order and its default headers all', () => {
    const steps = helmetHeaders(helmet() as never);
    assert.ok(steps.length >= 12);
    assert.deepEqual(
      steps.find(([name]) => name === 'X-Powered-By'),
      ['X-Powered-By', null],
    );
  });

  it('refuses a middleware whose headers depend on the request', () => {
    let n = 0;
    const nonce = helmet({ contentSecurityPolicy: { directives: { scriptSrc: [() => `'nonce-${++n}'`] } } });
    assert.throws(() => helmetHeaders(nonce as never), /depend on the request/);
    const failing = helmet({
      contentSecurityPolicy: {
        directives: {
          scriptSrc: [
            () => {
              throw new Error('per request');
            },
          ],
        },
      },
    });
    assert.throws(() => helmetHeaders(failing as never), /did not go on at once/);
  });
});
