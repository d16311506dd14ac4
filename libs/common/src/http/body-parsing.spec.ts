// Body parsing: which requests carry a body (body-parser's own test, type-is's `hasBody`), and a
// request without one passes the parsers untouched but for `req.body` (no database).
import type { Request, Response } from 'express';
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { hasBody, jsonBodyMiddleware } from './body-parsing';
import { middlewareChain } from './middleware-chain';

describe('hasBody', () => {
  it('is true with Transfer-Encoding or a numeric Content-Length (0 included), as type-is decides', () => {
    assert.equal(hasBody({ headers: {} }), false);
    assert.equal(hasBody({ headers: { 'content-length': '0' } }), true);
    assert.equal(hasBody({ headers: { 'content-length': '12' } }), true);
    assert.equal(hasBody({ headers: { 'transfer-encoding': 'chunked' } }), true);
    assert.equal(hasBody({ headers: { 'content-length': 'twelve' } }), false);
    // isNaN('') is false in type-is: an empty Content-Length reads as a body of 0 bytes
    assert.equal(hasBody({ headers: { 'content-length': '' } }), true);
  });
});

describe('jsonBodyMiddleware', () => {
  it('leaves a GET without a body with req.body undefined and goes on without an error', () => {
    const req = { method: 'GET', path: '/api/v1/x/', url: '/api/v1/x/', headers: {} } as unknown as Request;
    let went: unknown = 'not called';
    middlewareChain(jsonBodyMiddleware('1mb'))(req, {} as Response, (err?: unknown) => (went = err));
    assert.equal(went, undefined);
    assert.ok('body' in req);
    assert.equal(req.body, undefined);
  });

  it('keeps a body already there (a request handled twice)', () => {
    const req = { method: 'GET', path: '/x', url: '/x', headers: {}, body: { a: 1 } } as unknown as Request;
    middlewareChain(jsonBodyMiddleware('1mb'))(req, {} as Response, () => undefined);
    assert.deepEqual(req.body, { a: 1 });
  });
});
