import { LoggerService } from '@nestjs/common';
import { Logger, Params, PinoLogger } from 'nestjs-pino';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { HttpLogger, pinoHttp } from 'pino-http';
import { AppConfig } from '../config/app-config';
import { logDestination } from './log-format';
import { requestLogOptions, secretSafeLogOptions } from './redact';

/**
 * The request log and Nest's logger: two pino instances on one stdout, the request log's with its
 * secret-safe serializers (`requestLogOptions`), Nest's with `redact` too (`secretSafeLogOptions`).
 *
 * - `middleware` (pino-http) is mounted as the application's first Express middleware, so every
 *   request is logged once it is answered (`request completed`, or `request errored`/`failed`),
 *   the OpenAPI routes and body-parser refusals included. It gives each request an id, the
 *   caller's `X-Request-Id` or a new UUID, sent back in `X-Request-Id` and logged as `req.id`; the
 *   500 line of the exception filter carries it as `req_id`.
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
  middleware: HttpLogger;
  nestLogger: LoggerService;
} {
  // both write their lines to stdout, synchronously (pino's default), as JSON or pretty (LOG_FORMAT)
  const stdout = logDestination(config);
  const middleware = pinoHttp(
    {
      level: config.logLevel,
      genReqId: (req, res) => {
        const id = (req.headers['x-request-id'] as string | undefined) ?? randomUUID();
        res.setHeader('X-Request-Id', id);
        return id;
      },
      ...requestLogOptions(),
    },
    stdout,
  );
  const params: Params = { pinoHttp: { logger: pino({ level: config.logLevel, ...secretSafeLogOptions() }, stdout) } };
  return { middleware, nestLogger: new Logger(new PinoLogger(params), params) };
}
