import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { sendError } from '../errors/error-body';

/**
 * How deeply arrays and objects may nest in a request body (the body itself is level 1). Rich
 * text (`description_json`, `comment_json`: ProseMirror documents) stays far below: each nested
 * list adds four levels, so ten nested lists are about fifty. class-transformer and the validators
 * recurse once per level, and overflow the stack long before the body limit is reached (10,000
 * levels of `[` are 20 kB).
 */
export const MAX_BODY_DEPTH = 128;

type Finding = 'INVALID_CHARACTERS' | 'NESTING_TOO_DEEP' | null;

/** `String.prototype.isWellFormed` (ES2024, Node 20+): false when a UTF-16 surrogate is unpaired. */
type CheckableString = string & { isWellFormed(): boolean };

/** True for a string PostgreSQL cannot store: a NUL, or a lone surrogate (not valid UTF-8 text). */
function unstorable(s: string): boolean {
  return s.includes('\0') || !(s as CheckableString).isWellFormed();
}

/**
 * Walks a parsed body once: every string and every key, arrays and objects down to
 * `MAX_BODY_DEPTH`. The recursion stops at that depth, so the walk itself cannot overflow; it
 * allocates nothing but its stack frames.
 */
function inspect(value: unknown, depth: number): Finding {
  if (typeof value === 'string') return unstorable(value) ? 'INVALID_CHARACTERS' : null;
  if (typeof value !== 'object' || value === null) return null;
  if (depth > MAX_BODY_DEPTH) return 'NESTING_TOO_DEEP';
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const finding = inspect(value[i], depth + 1);
      if (finding) return finding;
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  // parsed JSON and form bodies are plain objects: for...in visits exactly their own keys
  for (const key in record) {
    if (unstorable(key)) return 'INVALID_CHARACTERS';
    const finding = inspect(record[key], depth + 1);
    if (finding) return finding;
  }
  return null;
}

/** The URL's finding: a `%00` anywhere, or a path that does not percent-decode to UTF-8. */
function inspectUrl(url: string): Finding {
  if (!url.includes('%')) return null; // almost every request: nothing more to do
  if (url.includes('%00')) return 'INVALID_CHARACTERS';
  const query = url.indexOf('?');
  try {
    // the router decodes each path parameter the same way; a query string is decoded leniently
    // (malformed UTF-8 becomes U+FFFD), so only the path can carry a lone surrogate or a bad escape
    decodeURIComponent(query === -1 ? url : url.slice(0, query));
  } catch {
    return 'INVALID_CHARACTERS';
  }
  return null;
}

/**
 * Refuses input that cannot be stored or that would overflow the stack, before any route sees it
 * (mounted after body parsing, before Nest's routing):
 * - 400 `INVALID_CHARACTERS`: a NUL (U+0000) in the path, the query or a body string or key
 *   (PostgreSQL's text and jsonb refuse it); a lone UTF-16 surrogate in a body string or key
 *   (`"\ud800"`: valid JSON, not valid text); a path that is not percent-encoded UTF-8.
 * - 400 `NESTING_TOO_DEEP`: a body nested more than `MAX_BODY_DEPTH` levels.
 * Bodies left unread (signed uploads) are not inspected.
 */
export function screenInput(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const finding = inspectUrl(req.originalUrl ?? req.url) ?? (req.body === undefined ? null : inspect(req.body, 1));
    if (finding) return sendError(res, finding);
    next();
  };
}
