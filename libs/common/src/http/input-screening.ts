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

/**
 * The longest string (in UTF-16 code units, JavaScript's `length`, as DRF's `max_length` counts
 * characters) each body field may hold, by the field's name, at any depth of the body. Every other
 * string field: `MAX_TEXT_LENGTH`. Plane stores these as unbounded `TextField`s and lets Django's
 * 5 MB request limit bound them; Meridian bounds each, so that a row, and with it every list that
 * answers it, has a known size (docs/errors.md "Field size limits", docs/decisions.md).
 * The figures leave room for what Plane's editor produces from a long document: about 100 pages of
 * formatted text in a description, 25 in a comment (images are uploaded assets, only their URL is
 * in the HTML).
 */
export const TEXT_FIELD_LIMITS: Readonly<Record<string, number>> = {
  comment_html: 262_144,
  comment_stripped: 262_144,
  description_html: 524_288,
  description_stripped: 524_288,
  description_text: 524_288,
  // a page's Y.js document, base64: its edit history makes it larger than the HTML
  description_binary: 1_048_576,
  url: 8_192,
};
/** Any other string field of a body (names, titles, plain descriptions, settings): 64 Ki characters. */
export const MAX_TEXT_LENGTH = 65_536;
/**
 * Rich-text documents (ProseMirror JSON: `comment_json`, `description_json`, and `description` when
 * it is an object): at most this many characters as JSON. The strings inside one count only
 * towards it (a long code block is one text node).
 */
export const RICH_JSON_FIELDS: ReadonlySet<string> = new Set(['comment_json', 'description_json', 'description']);
export const MAX_RICH_JSON_LENGTH = 1_048_576;

/** DRF's `max_length` message. */
const tooLong = (limit: number) => `Ensure this field has no more than ${limit} characters.`;

type Finding =
  'INVALID_CHARACTERS' | 'NESTING_TOO_DEEP' | { code: 'FIELD_TOO_LONG'; field: string; limit: number } | null;

/** `String.prototype.isWellFormed` (ES2024, Node 20+): false when a UTF-16 surrogate is unpaired. */
type CheckableString = string & { isWellFormed(): boolean };

/** True for a string PostgreSQL cannot store: a NUL, or a lone surrogate (not valid UTF-8 text). */
function unstorable(s: string): boolean {
  return s.includes('\0') || !(s as CheckableString).isWellFormed();
}

/**
 * Walks a parsed body once: every string and every key, arrays and objects down to
 * `MAX_BODY_DEPTH`. The recursion stops at that depth, so the walk itself cannot overflow; it
 * allocates nothing but its stack frames (and one JSON text per rich-text document, to measure it).
 * `field`: the key the value sits under (`a.b` from the top; list items keep their list's name);
 * `rich`: inside a rich-text document, whose size was checked as a whole.
 */
function inspect(value: unknown, depth: number, field: string, key: string, rich: boolean): Finding {
  if (typeof value === 'string') {
    if (unstorable(value)) return 'INVALID_CHARACTERS';
    if (rich) return null;
    const limit = TEXT_FIELD_LIMITS[key] ?? MAX_TEXT_LENGTH;
    return value.length > limit ? { code: 'FIELD_TOO_LONG', field, limit } : null;
  }
  if (typeof value !== 'object' || value === null) return null;
  if (depth > MAX_BODY_DEPTH) return 'NESTING_TOO_DEEP';
  if (!rich && RICH_JSON_FIELDS.has(key)) {
    // depth first: JSON.stringify of a document nested too deeply would overflow the stack
    const finding = inspect(value, depth, field, key, true);
    if (finding) return finding;
    return JSON.stringify(value).length > MAX_RICH_JSON_LENGTH
      ? { code: 'FIELD_TOO_LONG', field, limit: MAX_RICH_JSON_LENGTH }
      : null;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const finding = inspect(value[i], depth + 1, field, key, rich);
      if (finding) return finding;
    }
    return null;
  }
  const record = value as Record<string, unknown>;
  // parsed JSON and form bodies are plain objects: for...in visits exactly their own keys
  for (const name in record) {
    if (unstorable(name)) return 'INVALID_CHARACTERS';
    const finding = inspect(record[name], depth + 1, field ? `${field}.${name}` : name, name, rich);
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
 * - 422 `FIELD_TOO_LONG` (with DRF's `errors` map, `{"comment_html": ["Ensure this field has no
 *   more than 262144 characters."]}`): a string over its field's limit (`TEXT_FIELD_LIMITS`,
 *   `MAX_TEXT_LENGTH`), a rich-text document over `MAX_RICH_JSON_LENGTH` characters as JSON.
 * Bodies left unread (signed uploads) are not inspected.
 */
export function screenInput(): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const finding =
      inspectUrl(req.originalUrl ?? req.url) ?? (req.body === undefined ? null : inspect(req.body, 1, '', '', false));
    if (typeof finding === 'string') return sendError(res, finding);
    if (finding) {
      const message = tooLong(finding.limit);
      return sendError(res, finding.code, `${finding.field}: ${message}`, { errors: { [finding.field]: [message] } });
    }
    next();
  };
}
