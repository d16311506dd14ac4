import { ArgumentsHost, Catch, ExceptionFilter, HttpException, Inject, Logger, Optional } from '@nestjs/common';
import { ThrottlerException } from '@nestjs/throttler';
import type { Request, Response } from 'express';
import { EntityNotFoundError, QueryFailedError } from 'typeorm';
import { APP_CONFIG, AppConfig } from '../config/app-config';
import {
  databaseEndpoint,
  isDatabaseTimeout,
  isDatabaseUnavailable,
  isTransactionConflict,
  loggableError,
} from './database-errors';
import { ErrorCode } from './error-catalog';
import { errorBody } from './error-body';
import { MeridianError } from './meridian.error';
import { allowedMethods } from '../http/allowed-methods';
import { redactUrl } from '../logging/redact';

/**
 * Seconds a client should wait before retrying a 503 (`Retry-After`): the database cannot be reached
 * or gave up on a statement for time, or `GET /health` fails (a dependency, pending migrations, the
 * process stopping).
 */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

const GENERIC_BY_STATUS: Record<number, ErrorCode> = {
  400: 'MALFORMED_REQUEST',
  401: 'AUTHENTICATION_REQUIRED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  405: 'METHOD_NOT_ALLOWED',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'VALIDATION_ERROR',
  429: 'RATE_LIMIT_EXCEEDED',
  503: 'SERVICE_UNAVAILABLE',
};

/**
 * The single global filter (docs/reference/http-interface.md §7): every error leaves as `{detail, error_code}`.
 *
 * - `MeridianError`: its catalog status and body.
 * - Nest's "no route" 404: `ROUTE_NOT_FOUND`, or `METHOD_NOT_ALLOWED` (405, with `Allow`) when the
 *   path exists under another method.
 * - Other `HttpException`s: the generic code for their status.
 * - A unique violation that escaped the domain: 409 `CONFLICT`.
 * - The database cannot be reached (connection refused or lost, sessions terminated, too many
 *   connections, database not accepting connections; `isDatabaseUnavailable`): 503
 *   `DATABASE_UNAVAILABLE` with `Retry-After`, logged as a warning. The pool reconnects by itself
 *   once the database is back.
 * - A statement cancelled for time (`statement_timeout`, `lock_timeout`; `isDatabaseTimeout`): 503
 *   `DATABASE_TIMEOUT` with `Retry-After`, logged as a warning. Its transaction was rolled back.
 * - A transaction PostgreSQL aborted for a deadlock or a serialization failure
 *   (`isTransactionConflict`): 503 `DATABASE_CONFLICT` with `Retry-After`, logged as a warning.
 *   Nothing of it was written; the same request again can succeed.
 * - Every 503, `/health`'s `SERVICE_UNAVAILABLE` included, carries `Retry-After`
 *   (`DATABASE_RETRY_AFTER_SECONDS`) unless it set its own.
 * - TypeORM's `EntityNotFoundError` (a `findOneOrFail` that found nothing: a row deleted by a
 *   concurrent request between a write and its re-read): 404 `NOT_FOUND`, logged as a warning with
 *   its stack. The domain re-reads with `found()` instead; this is the net under it.
 * - Anything else: 500 `INTERNAL_ERROR`, logged with the request id and, under `error`, the type, message,
 *   stack and SQLSTATE (`loggableError`: never the query or its parameters); nothing of it is sent.
 */
@Catch()
export class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger('Exceptions');
  private readonly database;

  constructor(@Optional() @Inject(APP_CONFIG) config?: AppConfig) {
    this.database = databaseEndpoint(config?.database.url);
  }

  catch(exception: unknown, host: ArgumentsHost): void {
    const http = host.switchToHttp();
    const req = http.getRequest<Request & { id?: unknown }>();
    const res = http.getResponse<Response>();
    if (res.headersSent) return;
    const { status, body } = this.toResponse(exception, req, res);
    // every 503 is "not now": `/health`'s SERVICE_UNAVAILABLE (a failed check, pending migrations,
    // the process stopping) as much as the database's
    if (status === 503 && !res.getHeader('Retry-After')) {
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
    }
    res.status(status).json(body);
  }

  private toResponse(exception: unknown, req: Request & { id?: unknown }, res: Response) {
    if (exception instanceof MeridianError) {
      if (exception.retryAfter !== undefined) res.setHeader('Retry-After', String(exception.retryAfter));
      return { status: exception.status, body: errorBody(exception.code, exception.detail, exception.extra) };
    }
    if (exception instanceof ThrottlerException) {
      return { status: 429, body: errorBody('RATE_LIMIT_EXCEEDED') };
    }
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      if (status === 404 && isNoRouteMatch(req)) {
        const allow = allowedMethods(req);
        if (allow.length > 0) {
          res.setHeader('Allow', allow.join(', '));
          return { status: 405, body: errorBody('METHOD_NOT_ALLOWED', `Method "${req.method}" not allowed.`) };
        }
        return { status: 404, body: errorBody('ROUTE_NOT_FOUND') };
      }
      const code = GENERIC_BY_STATUS[status];
      if (code) return { status, body: errorBody(code) };
    }
    if (exception instanceof QueryFailedError && (exception.driverError as { code?: string })?.code === '23505') {
      return { status: 409, body: errorBody('CONFLICT') };
    }
    const where = { req_id: req.id, method: req.method, url: redactUrl(req.originalUrl) };
    if (isDatabaseUnavailable(exception, this.database)) {
      this.logger.warn({ error: loggableError(exception), ...where }, 'Database unavailable');
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return { status: 503, body: errorBody('DATABASE_UNAVAILABLE') };
    }
    if (isDatabaseTimeout(exception)) {
      this.logger.warn({ error: loggableError(exception), ...where }, 'Database statement timed out');
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return { status: 503, body: errorBody('DATABASE_TIMEOUT') };
    }
    if (isTransactionConflict(exception)) {
      this.logger.warn({ error: loggableError(exception), ...where }, 'Transaction aborted by a conflict');
      res.setHeader('Retry-After', String(DATABASE_RETRY_AFTER_SECONDS));
      return { status: 503, body: errorBody('DATABASE_CONFLICT') };
    }
    if (exception instanceof EntityNotFoundError) {
      this.logger.warn({ error: loggableError(exception), ...where }, 'Row not found on re-read');
      return { status: 404, body: errorBody('NOT_FOUND') };
    }
    this.logger.error({ error: loggableError(exception), ...where }, 'Unhandled exception');
    return { status: 500, body: errorBody('INTERNAL_ERROR') };
  }
}

/** Nest answers unmatched paths from a catch-all route (`{/*splat}`); real routes have no wildcard. */
function isNoRouteMatch(req: Request): boolean {
  const route = req.route as { path?: string } | undefined;
  return !route || (typeof route.path === 'string' && route.path.includes('*'));
}
