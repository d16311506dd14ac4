import { LoggerService } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';
import { Logger, Params, PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import pino, { stdSerializers } from 'pino';
import { AppConfig } from '../config/app-config';
import { logDestination } from './log-format';
import { requestLogOptions, secretSafeLogOptions } from './redact';

/** What the request log reads from a request once it is answered (set by the guards on the way). */
type LoggedRequest = Request & { workspaceAccess?: { workspaceId?: string } };

/**
 * One request's log line, the fields of pino-http's completion line (`req`: id, method, URL with
 * secret parameters masked; `res`: status and a few headers; `responseTime` in ms) plus who asked:
 * `user_id` once authentication knew the caller, `workspace_id` once a route's workspace was
 * resolved (both absent otherwise).
 */
function lineOf(req: LoggedRequest, res: Response, started: number) {
  const { req: requestFields, res: responseFields } = SERIALIZERS;
  const line: Record<string, unknown> = {
    req: requestFields(req),
    res: responseFields(res),
    responseTime: Date.now() - started,
  };
  const userId = (req.user as { userId?: string } | undefined)?.userId;
  if (userId !== undefined) line.user_id = userId;
  const workspaceId = req.workspaceAccess?.workspaceId;
  if (workspaceId !== undefined) line.workspace_id = workspaceId;
  return line;
}
const SERIALIZERS = requestLogOptions().serializers;

/**
 * The request log's Express middleware: gives the request its id (the caller's `X-Request-Id` or a
 * new UUID; `req.id`, sent back in `X-Request-Id`) and, when the response closes, writes one line
 * through `logger` (the root logger: no child logger per request): `request completed` at `info`;
 * `request aborted` at `info` when the client left before the answer ended; `request errored` at
 * `error` for a 5xx, with `err` ("failed with status code N"). The line's fields: `lineOf`.
 * This is pino-http's line without pino-http's per-request child loggers (two per request, a
 * fifth of a single read's CPU, BENCHMARKS.md "The request log and the guards").
 */
export function requestLog(logger: pino.Logger) {
  return (req: LoggedRequest, res: Response, next: NextFunction): void => {
    const started = Date.now();
    const given = req.headers['x-request-id'];
    const id = typeof given === 'string' ? given : randomUUID();
    req.id = id;
    res.setHeader('X-Request-Id', id);
    res.once('close', () => {
      const line = lineOf(req, res, started);
      if (res.statusCode >= 500) {
        line.err = new Error(`failed with status code ${res.statusCode}`);
        logger.error(line, 'request errored');
      } else {
        logger.info(line, !req.readableAborted && res.writableEnded ? 'request completed' : 'request aborted');
      }
    });
    next();
  };
}

/**
 * The request log and Nest's logger: two pino instances on one stdout, the request log's with no
 * serializer but pino's error one (its lines are built from the few fields logged: `requestLog`),
 * Nest's with `redact` (`secretSafeLogOptions`).
 *
 * - `middleware` (`requestLog`) is mounted as one of the application's first Express middleware,
 *   so every request is logged once it is answered (`request completed`, or `request
 *   errored`/`aborted`), the OpenAPI routes and body-parser refusals included, under its id (the
 *   caller's `X-Request-Id` or a new UUID, sent back in `X-Request-Id` and logged as `req.id`; the
 *   500 line of the exception filter carries it as `req_id`).
 * - `nestLogger` is nestjs-pino's `Logger` (Nest's `Logger` calls from services and the
 *   framework), JSON lines with a `context`.
 *
 * nestjs-pino's `LoggerModule` is not used: besides mounting pino-http it runs every request in an
 * AsyncLocalStorage so that service log lines carry the request, and on Node 20 and 22 that
 * installs a promise hook paid by every promise of every request (about a tenth of a single
 * read's CPU, BENCHMARKS.md). Service lines written during a request (mail in development, OAuth
 * and webhook warnings) therefore carry no request id; the request's own lines do.
 */
export function createRequestLogging(config: Pick<AppConfig, 'logLevel' | 'logFormat'>): {
  middleware: ReturnType<typeof requestLog>;
  nestLogger: LoggerService;
} {
  // both write their lines to stdout, as JSON or pretty (LOG_FORMAT): JSON through pino's own stream
  // (sonic-boom, asynchronous: a line is written at once, or with those that came during a write)
  const stdout = logDestination(config);
  const middleware = requestLog(pino({ level: config.logLevel, serializers: { err: stdSerializers.err } }, stdout));
  const params: Params = { pinoHttp: { logger: pino({ level: config.logLevel, ...secretSafeLogOptions() }, stdout) } };
  return { middleware, nestLogger: new Logger(new PinoLogger(params), params) };
}
