import type { INestApplication } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { sendError } from '../errors/error-body';
import { ChainedMiddleware } from './middleware-chain';
import { ignoreUnknownFields } from '../validation/validation.pipe';

/**
 * JSON body parsing with Meridian's error shape. Nest's own parser is turned off
 * (`bodyParser: false`) so that parse failures never reach Express's HTML error page:
 * malformed JSON → 400 `MALFORMED_JSON`; over `limit` → 413 `PAYLOAD_TOO_LARGE`.
 * An empty body with `Content-Type: application/json` reads as `{}` (Plane's SDK sends those).
 * A parsed App API body is marked for `RequestValidationPipe` to drop its unknown fields.
 */
/** `PUT` requests under this path keep their body unread (signed attachment uploads). */
export const RAW_BODY_PREFIX = '/api/v1/assets/';

/** Base paths under `/api/` that are not the App API: their bodies' unknown fields are refused. */
const STRICT_API_PREFIXES = ['/api/v1/', '/api/public/', '/api/instances/'];

/**
 * Whether a path is the App API's (`/api/`, not v1, public or instances), whose bodies' unknown
 * fields are dropped as Plane's serializers do (docs/decisions.md "Unknown body fields").
 */
export function isAppApiPath(path: string): boolean {
  return path.startsWith('/api/') && !STRICT_API_PREFIXES.some((prefix) => path.startsWith(prefix));
}

/**
 * Whether a request carries a body, as body-parser decides before reading one (type-is's
 * `hasBody`): a `Transfer-Encoding` header, or a numeric `Content-Length` (0 included).
 */
export function hasBody(req: Pick<Request, 'headers'>): boolean {
  return req.headers['transfer-encoding'] !== undefined || !Number.isNaN(Number(req.headers['content-length'] ?? NaN));
}

export function useJsonBody(app: INestApplication, limit: string): void {
  for (const middleware of jsonBodyMiddleware(limit)) app.use(middleware);
}

/**
 * The body parsing of `useJsonBody` as the middleware it mounts, in order (JSON, form, their
 * refusals in the error shape, unknown App API fields marked), for `middlewareChain`.
 */
export function jsonBodyMiddleware(limit: string): ChainedMiddleware[] {
  const json = express.json({ limit, type: ['application/json', 'application/*+json'] });
  const form = express.urlencoded({ extended: false, limit });
  // signed attachment uploads read their raw body themselves, whatever the file's content type
  const raw = (req: Request) => req.method === 'PUT' && req.path.startsWith(RAW_BODY_PREFIX);
  // a request without a body (most GETs) is what both parsers would leave it: `req.body` undefined,
  // without their two passes (each checks the request's state and headers, then skips it)
  const parseBody = (req: Request, res: Response, next: NextFunction) => {
    if (raw(req)) return next();
    if (!hasBody(req)) {
      const fields = req as unknown as Record<string, unknown>;
      if (!('body' in fields)) fields.body = undefined;
      return next();
    }
    json(req, res, (err?: unknown) => (err ? next(err) : form(req, res, next)));
  };
  const refusals = (err: { type?: string; status?: number }, _req: Request, res: Response, next: NextFunction) => {
    if (err?.type === 'entity.parse.failed') return sendError(res, 'MALFORMED_JSON');
    if (err?.type === 'entity.too.large') return sendError(res, 'PAYLOAD_TOO_LARGE');
    if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
      return sendError(res, 'UNSUPPORTED_MEDIA_TYPE');
    }
    if (err?.status && err.status >= 400 && err.status < 500) return sendError(res, 'MALFORMED_REQUEST');
    next(err);
  };
  // App API bodies: unknown fields are dropped by the validation pipe, not refused
  const markUnknownFields = (req: Request, _res: Response, next: NextFunction) => {
    const body: unknown = req.body;
    if (typeof body === 'object' && body !== null && isAppApiPath(req.path)) ignoreUnknownFields(body);
    next();
  };
  return [parseBody, refusals, markUnknownFields];
}
