import type { ArgumentsHost } from '@nestjs/common';

/**
 * The Express request of an HTTP execution context or arguments host: what
 * `ctx.switchToHttp().getRequest()` returns (Nest's HTTP arguments are `[req, res, next]`),
 * without the object and three closures `switchToHttp` makes at every call (a guard, a
 * parameter decorator and a filter each asked for it: a few of them per request). Meridian's
 * contexts are all HTTP.
 */
export function httpRequestOf<T>(ctx: ArgumentsHost): T {
  return ctx.getArgByIndex<T>(0);
}

/** The Express response of an HTTP execution context or arguments host (`switchToHttp().getResponse()`). */
export function httpResponseOf<T>(ctx: ArgumentsHost): T {
  return ctx.getArgByIndex<T>(1);
}
