import { stdSerializers } from 'pino';

/**
 * Secret redaction for every log line (the request log and Nest's logger, request-logging.ts; and anything else that logs a URL).
 *
 * Credentials travel in places a request log records: query strings (an invitation link's `token`,
 * a signed attachment URL's `signature`, an OAuth callback's `code` and `state`), the `Location` of
 * a redirect (signed download URLs, the OAuth one-time code) and `Set-Cookie` (the OAuth state
 * cookie). Headers that carry credentials on the way in (`Authorization`, `X-API-Key`, `Cookie`) are
 * not serialised at all, and are also covered by pino's `redact` paths in case a line logs them.
 */

/** What replaces a secret value in the log. */
export const REDACTED = '[redacted]';

/**
 * Query parameter names whose values are credentials, compared case-insensitively after removing
 * `-` and `_` (so `api_key`, `api-key` and `apiKey` are one name). `x-amz-*` covers S3 presigned URLs.
 */
const SECRET_PARAM_NAMES = new Set(
  [
    'token',
    'signature',
    'sig',
    'code',
    'key',
    'password',
    'passwd',
    'secret',
    'state',
    'otp',
    'magic_code',
    'api_key',
    'apikey',
    'access_token',
    'refresh_token',
    'id_token',
    'auth',
    'authorization',
    'client_secret',
    'session',
    'sessionid',
    'credential',
    'credentials',
    'hash',
    'x-amz-signature',
    'x-amz-credential',
    'x-amz-security-token',
    'awsaccesskeyid',
  ].map(normaliseName),
);

/** Any name containing one of these is a secret too (`reset_token`, `invitation_secret`, `db_password`, …). */
const SECRET_NAME_PARTS = ['token', 'secret', 'password', 'signature', 'apikey', 'credential'];

function normaliseName(name: string): string {
  return name.toLowerCase().replace(/[-_]/g, '');
}

/** Whether a query parameter (or form field) with this name carries a credential. */
export function isSecretParamName(name: string): boolean {
  const n = normaliseName(name);
  return SECRET_PARAM_NAMES.has(n) || SECRET_NAME_PARTS.some((part) => n.includes(part));
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value.replace(/\+/g, ' '));
  } catch {
    return value;
  }
}

const RESET_PASSWORD_PATH = /(\/reset-password\/[^/?#]+\/)[^/?#]+/;

/** Masks the secret parameters of one query string (without its `?`), keeping everything else as is. */
function redactQuery(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      const name = eq >= 0 ? pair.slice(0, eq) : pair;
      if (eq < 0 || !isSecretParamName(safeDecode(name))) return pair;
      return `${name}=${REDACTED}`;
    })
    .join('&');
}

/**
 * A URL (a path with its query string, or an absolute URL) with the values of its secret query
 * parameters replaced by `[redacted]`, e.g. `/api/v1/assets/…/download/?expires=1&signature=[redacted]`.
 * The fragment's parameters are masked the same way (OAuth implicit flows put tokens there).
 * Non-strings are returned unchanged; the rest of the URL is not re-encoded.
 */
export function redactUrl<T>(input: T): T {
  if (typeof input !== 'string') return input;
  // Plane's reset form posts to /auth/[spaces/]reset-password/{uidb64}/{token}/: the token is in the path
  const url = input.replace(RESET_PASSWORD_PATH, `$1${REDACTED}`);
  const q = url.indexOf('?');
  const h = url.indexOf('#');
  if (q < 0 && h < 0) return url as T;
  const end = h >= 0 ? h : url.length;
  let out = q >= 0 && q < end ? `${url.slice(0, q + 1)}${redactQuery(url.slice(q + 1, end))}` : url.slice(0, end);
  if (h >= 0) out += `#${redactQuery(url.slice(h + 1))}`;
  return out as T;
}

/** `name=value; attributes` → `name=[redacted]; attributes` (a cookie's value is always treated as secret). */
function redactSetCookie(cookie: string): string {
  const eq = cookie.indexOf('=');
  if (eq < 0) return cookie;
  const semi = cookie.indexOf(';', eq);
  const value = cookie.slice(eq + 1, semi >= 0 ? semi : undefined);
  return value === '' ? cookie : `${cookie.slice(0, eq + 1)}${REDACTED}${semi >= 0 ? cookie.slice(semi) : ''}`;
}

/**
 * Response headers as they may be logged: `Location` with its secret query parameters masked,
 * `Set-Cookie` values masked; other headers unchanged. Returns a new object.
 */
export function redactResponseHeaders(headers: Record<string, unknown> | undefined | null): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    if (lower === 'location' || lower === 'content-location' || lower === 'refresh') out[name] = redactUrl(value);
    else if (lower === 'set-cookie')
      out[name] = Array.isArray(value) ? value.map((c) => redactSetCookie(String(c))) : redactSetCookie(String(value));
    else out[name] = value;
  }
  return out;
}

/** Response headers a request's completion line carries (the rest are the same on every answer). */
const LOGGED_RESPONSE_HEADERS = [
  'location',
  'content-location',
  'refresh',
  'set-cookie',
  'content-length',
  'retry-after',
];

/** The request as the `req` serializer reads it (Express's). */
interface LoggedRequest {
  id?: unknown;
  method?: string;
  url?: string;
  /** the URL as received, before Express's routers rewrite `url` */
  originalUrl?: string;
}

/** The response as the `res` serializer reads it (Node's `ServerResponse`). */
interface LoggedResponse {
  statusCode?: number;
  getHeader?(name: string): number | string | string[] | undefined;
}

/**
 * A response's completion-line fields: the status and the few headers worth reading in a log
 * (`Location`, `Set-Cookie`, `Retry-After`, the length), masked by `redactResponseHeaders`. Read
 * straight from the response: no copy of all its headers per request (a single read's log line
 * was most of its allocation, BENCHMARKS.md "Round 4").
 */
function loggedResponse(res: LoggedResponse): { statusCode?: number; headers?: Record<string, unknown> } {
  if (typeof res?.getHeader !== 'function') return { statusCode: res?.statusCode };
  let headers: Record<string, unknown> | undefined;
  for (const name of LOGGED_RESPONSE_HEADERS) {
    const value = res.getHeader(name);
    if (value !== undefined) (headers ??= {})[name] = value;
  }
  return headers
    ? { statusCode: res.statusCode, headers: redactResponseHeaders(headers) }
    : { statusCode: res.statusCode };
}

/**
 * The request log's fields (request-logging.ts's `requestLog` builds each line with these): its
 * lines carry only what these return, so they are what keeps secrets out of them. The `req` serializer logs the id, method and URL
 * (secret query parameters masked; no headers, no body), the `res` serializer the status and a few
 * headers (`Location`, `Set-Cookie` masked: `loggedResponse`), errors go through pino's standard
 * error serializer. They read the raw request and response: pino's standard serializers would first
 * copy every header and field of both, on every request, for the few fields logged; and no
 * `redact` pass runs over lines that cannot carry what it masks (it clones each line's objects:
 * about a tenth of a single read's allocation, BENCHMARKS.md).
 */
export function requestLogOptions() {
  return {
    serializers: {
      req: (req: LoggedRequest) => ({ id: req.id, method: req.method, url: redactUrl(req.originalUrl ?? req.url) }),
      res: loggedResponse,
      err: stdSerializers.err,
    },
  };
}

/**
 * pino options for every other line (Nest's logger: services, the exception filter): `redact`
 * masks credential headers and credential-named fields wherever a line carries them.
 */
export function secretSafeLogOptions() {
  return {
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        'headers.authorization',
        'headers["x-api-key"]',
        'headers.cookie',
        'password',
        'token',
        'access_token',
        'refresh_token',
        'api_key',
        'secret',
        'signature',
        '*.password',
        '*.token',
        '*.access_token',
        '*.refresh_token',
        '*.api_key',
        '*.secret',
        '*.signature',
      ],
      censor: REDACTED,
    },
    serializers: requestLogOptions().serializers,
  };
}
