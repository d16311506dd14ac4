import type { INestApplication } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { sendError } from '../errors/error-body';

/**
 * JSON body parsing with Meridian's error shape. Nest's own parser is turned off
 * (`bodyParser: false`) so that parse failures never reach Express's HTML error page:
 * malformed JSON → 400 `MALFORMED_JSON`; over `limit` → 413 `PAYLOAD_TOO_LARGE`.
 * An empty body with `Content-Type: application/json` reads as `{}` (Plane's SDK sends those).
 */
export function useJsonBody(app: INestApplication, limit: string): void {
  app.use(express.json({ limit, type: ['application/json', 'application/*+json'] }));
  app.use(express.urlencoded({ extended: false, limit }));
  app.use((err: { type?: string; status?: number }, _req: Request, res: Response, next: NextFunction) => {
    if (err?.type === 'entity.parse.failed') return sendError(res, 'MALFORMED_JSON');
    if (err?.type === 'entity.too.large') return sendError(res, 'PAYLOAD_TOO_LARGE');
    if (err?.type === 'encoding.unsupported' || err?.type === 'charset.unsupported') {
      return sendError(res, 'UNSUPPORTED_MEDIA_TYPE');
    }
    if (err?.status && err.status >= 400 && err.status < 500) return sendError(res, 'MALFORMED_REQUEST');
    next(err);
  });
}
