import type { ErrorRequestHandler, NextFunction, Request, RequestHandler, Response } from 'express';

/** A middleware of the chain: a request handler, or an error handler (four parameters), as Express tells them. */
export type ChainedMiddleware = RequestHandler | ErrorRequestHandler;

/**
 * Several application-wide Express middleware as one, run in order with Express's own rules
 * (the `router` package's `Layer#handleRequest` / `handleError`):
 *
 * - without an error, each request handler (three parameters or fewer) runs in turn; an error
 *   handler (four) is skipped;
 * - once a middleware passes an error (`next(err)`), throws, or returns a promise that rejects,
 *   only error handlers run, each given the error, until one calls `next()` without one;
 * - `next('route')` and `next('router')` are passed on as they are (the router's meaning);
 * - after the last, the outer `next` is called with the error if one is left.
 *
 * Why: Express walks its router for every middleware of the application (the layer's path
 * match, `processParams`, a `try` around the call, the `next` bookkeeping): for a dozen no-op
 * middleware about 2 µs more per request than one chain of them (the `router` package alone,
 * 6.8 against 4.6 µs, docs/decisions.md "The application's middleware run as chains"), a per cent
 * or so of a single read. Only path-less middleware belong here: one mounted at a path
 * (`app.use('/metrics', …)`) keeps its own layer (the router trims its path).
 */
export function middlewareChain(middleware: readonly ChainedMiddleware[]): RequestHandler {
  const steps = middleware.slice();
  return function chained(req: Request, res: Response, done: NextFunction): void {
    let index = 0;
    const next = (err?: unknown): void => {
      if (err === 'route' || err === 'router') return done(err);
      let error = err;
      while (index < steps.length) {
        const step = steps[index++];
        const handlesErrors = step.length === 4;
        if (error !== undefined && error !== null ? !handlesErrors : handlesErrors) continue;
        try {
          const ret: unknown = handlesErrors
            ? (step as ErrorRequestHandler)(error, req, res, next)
            : (step as RequestHandler)(req, res, next);
          if (ret instanceof Promise) ret.then(undefined, (e: unknown) => next(e ?? new Error('Rejected promise')));
        } catch (thrown) {
          error = thrown;
          continue;
        }
        return;
      }
      done(error as Error | undefined);
    };
    next();
  };
}
