import type { Response } from 'express';
import { ERROR_CATALOG, ErrorCode } from './error-catalog';

/** The wire shape of every error (docs/reference/http-interface.md §7): `{detail, error_code}` plus optional extras. */
export interface ErrorBody {
  detail: string;
  error_code: ErrorCode;
  [extra: string]: unknown;
}

export function errorBody(code: ErrorCode, detail?: string, extra: Record<string, unknown> = {}): ErrorBody {
  return { detail: detail ?? ERROR_CATALOG[code].detail, error_code: code, ...extra };
}

/** Writes an error straight to an Express response; used outside Nest's pipeline (body parsing). */
export function sendError(res: Response, code: ErrorCode, detail?: string, extra?: Record<string, unknown>): void {
  if (res.headersSent) return;
  res.status(ERROR_CATALOG[code].status).json(errorBody(code, detail, extra));
}
