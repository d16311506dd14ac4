// The middleware chain: Express's order and error rules, through a real Express application.
import express, { NextFunction, Request, Response } from 'express';
import assert from 'node:assert/strict';
import { AddressInfo } from 'node:net';
import { describe, it } from 'node:test';
import { ChainedMiddleware, middlewareChain } from './middleware-chain';

/** Answers GET / through `middleware` mounted one by one (Express) or chained; returns status and body. */
async function answer(middleware: ChainedMiddleware[], chained: boolean): Promise<{ status: number; body: string }> {
  const app = express();
  if (chained) app.use(middlewareChain(middleware));
  else for (const m of middleware) app.use(m);
  app.get('/', (req: Request, res: Response) =>
    res.json({ trail: (req as Request & { trail?: string[] }).trail ?? [] }),
  );
  app.use((err: Error, _req: Request, res: Response, _next: NextFunction) => {
    void _next;
    res.status(500).json({ error: err.message });
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`);
    return { status: res.status, body: await res.text() };
  } finally {
    server.close();
  }
}

const mark =
  (name: string) =>
  (req: Request, _res: Response, next: NextFunction): void => {
    const r = req as Request & { trail?: string[] };
    (r.trail ??= []).push(name);
    next();
  };

async function same(middleware: ChainedMiddleware[], expected: { status: number; body: string }) {
  const one = await answer(middleware, false);
  assert.deepEqual(one, expected, 'Express, one layer each');
  assert.deepEqual(await answer(middleware, true), expected, 'chained');
}

describe('middlewareChain', () => {
  it('runs request handlers in order and skips error handlers without an error', async () => {
    const skipped = (_e: unknown, req: Request, _res: Response, next: NextFunction) =>
      mark('error-handler')(req, _res, next);
    await same([mark('a'), skipped, mark('b')], { status: 200, body: '{"trail":["a","b"]}' });
  });

  it('after next(err), only error handlers run; one that calls next() resumes the request handlers', async () => {
    const fail = (_req: Request, _res: Response, next: NextFunction) => next(new Error('boom'));
    const recover = (err: Error, req: Request, res: Response, next: NextFunction) => {
      mark(`recovered ${err.message}`)(req, res, next);
    };
    await same([mark('a'), fail, mark('skipped'), recover, mark('b')], {
      status: 200,
      body: '{"trail":["a","recovered boom","b"]}',
    });
  });

  it('a throw and a rejected promise are errors; an unhandled one reaches the outer error handler', async () => {
    const thrower = () => {
      throw new Error('thrown');
    };
    await same([mark('a'), thrower, mark('skipped')], { status: 500, body: '{"error":"thrown"}' });
    const rejecter = async () => {
      await Promise.resolve();
      throw new Error('rejected');
    };
    await same([rejecter, mark('skipped')], { status: 500, body: '{"error":"rejected"}' });
  });

  it('an error handler that answers ends the request', async () => {
    const fail = (_req: Request, _res: Response, next: NextFunction) => next(new Error('x'));
    const answerIt = (_err: Error, _req: Request, res: Response, _next: NextFunction) => {
      void _next;
      res.status(418).json({ handled: true });
    };
    await same([fail, answerIt, mark('skipped')], { status: 418, body: '{"handled":true}' });
  });
});
