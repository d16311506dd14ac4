import { parseCookie, stringifySetCookie } from 'cookie';
import type { Request, Response } from 'express';
import { timingSafeEqual } from 'node:crypto';
import type { AppConfig } from '../config/app-config';
import { randomToken } from '../util/secrets';

/**
 * Plane's web session beside Bearer tokens (Plane `plane/authentication/middleware/session.py`,
 * `plane/settings/common.py`): the browser app authenticates with an HttpOnly session cookie
 * (`SESSION_COOKIE_NAME`, default `session-id`), the instance admin app with `admin-session-id`, and
 * unsafe requests carry a CSRF token.
 *
 * CSRF is a double submit bound to the origin: `GET /auth/get-csrf-token/` sets the token in the
 * HttpOnly `csrftoken` cookie (Plane's name) and in a readable `XSRF-TOKEN` cookie, and returns it
 * as `{csrf_token}`. An unsafe request authenticated by a cookie must send the same value (header
 * `X-CSRFToken`, header `X-XSRF-TOKEN`, which axios, the web app's HTTP client, copies from
 * `XSRF-TOKEN` by itself on same-origin calls, or form field `csrfmiddlewaretoken`) and must come
 * from a trusted origin (`Origin`, else `Referer`): one of `webSession.trustedOrigins` or the
 * server's own origin. Plane checks no CSRF on `/api/`; Meridian does (docs/decisions.md), except on
 * requests no browser sent (`isServerToServer`: Plane's live server storing a page).
 */
export const CSRF_COOKIE = 'csrftoken';
export const XSRF_COOKIE = 'XSRF-TOKEN';
export const ADMIN_SESSION_COOKIE = 'admin-session-id';
export const CSRF_FORM_FIELD = 'csrfmiddlewaretoken';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
const PARSED = Symbol('cookies');

/** The request's cookies (parsed once per request). */
export function requestCookies(req: Request): Record<string, string | undefined> {
  const holder = req as unknown as { [PARSED]?: Record<string, string | undefined> };
  if (!holder[PARSED]) holder[PARSED] = req.headers.cookie ? parseCookie(req.headers.cookie) : {};
  return holder[PARSED];
}

/** The web session cookie's value, or undefined. */
export function sessionCookieOf(req: Request, config: AppConfig): string | undefined {
  return requestCookies(req)[config.webSession.cookieName] || undefined;
}

/** The instance admin cookie's value, or undefined. */
export function adminCookieOf(req: Request): string | undefined {
  return requestCookies(req)[ADMIN_SESSION_COOKIE] || undefined;
}

/** A form post (`application/x-www-form-urlencoded` or `multipart/form-data`): a browser `<form>`. */
export function isFormPost(req: Request): boolean {
  return Boolean(req.is(['application/x-www-form-urlencoded', 'multipart/form-data']));
}

interface CookieOptions {
  /** seconds; 0 deletes the cookie */
  maxAge: number;
  httpOnly?: boolean;
}

/** Appends a `Set-Cookie` with the configured `Domain`, `Secure` and `SameSite=Lax`, on path `/`. */
export function setCookie(res: Response, config: AppConfig, name: string, value: string, options: CookieOptions): void {
  const header = stringifySetCookie({
    name,
    value,
    maxAge: options.maxAge,
    expires: new Date(Date.now() + options.maxAge * 1000),
    path: '/',
    domain: config.webSession.cookieDomain,
    httpOnly: options.httpOnly ?? true,
    secure: config.webSession.secure,
    sameSite: 'lax',
  });
  const previous = res.getHeader('Set-Cookie');
  const list = previous === undefined ? [] : Array.isArray(previous) ? previous : [String(previous)];
  res.setHeader('Set-Cookie', [...list, header]);
}

/** Deletes a cookie set by `setCookie`. */
export function clearCookie(res: Response, config: AppConfig, name: string): void {
  setCookie(res, config, name, '', { maxAge: 0 });
}

/**
 * A new CSRF token in the `csrftoken` (HttpOnly) and `XSRF-TOKEN` (readable) cookies, living as long
 * as a web session. Returns the token.
 */
export function issueCsrfToken(res: Response, config: AppConfig): string {
  const token = randomToken(32);
  const maxAge = config.webSession.cookieAgeSeconds;
  setCookie(res, config, CSRF_COOKIE, token, { maxAge });
  setCookie(res, config, XSRF_COOKIE, token, { maxAge, httpOnly: false });
  return token;
}

/**
 * The request's own origin as the client sees it: `req.protocol` and `req.host`, which honour
 * `X-Forwarded-Proto` and `X-Forwarded-Host` only from a proxy that `TRUST_PROXY` trusts (Express's
 * `trust proxy`); otherwise the socket's scheme and the `Host` header.
 */
export function ownOrigin(req: Request): string {
  return `${req.protocol}://${req.host ?? ''}`;
}

function originOf(value: string | undefined): string | null {
  if (!value || value === 'null') return null;
  try {
    return new URL(value).origin;
  } catch {
    return null;
  }
}

/** The page's origin a request claims (`Origin`, else the `Referer`'s), raw; undefined when it sent neither. */
function claimedOrigin(req: Request): string | undefined {
  return (req.headers.origin as string | undefined) ?? (req.headers.referer as string | undefined);
}

/**
 * Whether the page that sent the request is trusted: its `Origin` (else the `Referer`'s origin) is
 * the server's own (`ownOrigin`) or one of `webSession.trustedOrigins`. A request with neither
 * header passes (not a browser's cross-site request); an unparsable one does not.
 */
export function fromTrustedOrigin(req: Request, config: AppConfig): boolean {
  const raw = claimedOrigin(req);
  if (raw === undefined) return true;
  const origin = originOf(raw);
  if (origin === null) return false;
  return origin === ownOrigin(req) || config.webSession.trustedOrigins.includes(origin);
}

function sameToken(a: string, b: string): boolean {
  const [x, y] = [Buffer.from(a), Buffer.from(b)];
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Headers a browser adds by itself and a page's script can neither set nor remove (`Referer` aside). */
const BROWSER_HEADERS = ['origin', 'referer', 'sec-fetch-site', 'sec-fetch-mode', 'sec-fetch-dest', 'sec-fetch-user'];
/** The content types a page may post to another origin without a CORS preflight (Fetch standard). */
const SIMPLE_POST_TYPES = new Set(['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain']);

/**
 * Whether an unsafe request cannot have been sent by a browser on behalf of a page: it carries none
 * of `Origin`, `Referer` and `Sec-Fetch-*` (every current browser sends `Origin` on unsafe methods and
 * `Sec-Fetch-Site` on every request), and it is not one a page could send to another origin without a
 * CORS preflight (a POST without a content type or with a form's or `text/plain`). Plane's live
 * server stores a page's description this way: `PATCH …/pages/{id}/description/` from Node with only
 * the user's session cookie (docs/decisions.md, "Plane's live server writes with the session cookie").
 */
export function isServerToServer(req: Request): boolean {
  if (BROWSER_HEADERS.some((name) => req.headers[name] !== undefined)) return false;
  if (req.method !== 'POST') return true;
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  return type !== '' && !SIMPLE_POST_TYPES.has(type);
}

/**
 * Why a request fails the CSRF check: `origin` (the page's origin is neither the server's own nor
 * trusted; `origin` is what it claimed, `ownOrigin` what the server saw), `no-cookie` (no
 * `csrftoken` cookie came with it), `token` (no token sent, or not the cookie's).
 */
export type CsrfRefusal =
  { reason: 'origin'; origin: string; ownOrigin: string } | { reason: 'no-cookie' } | { reason: 'token' };

/**
 * The CSRF check of a cookie-authenticated request, with the reason of a refusal: safe methods
 * pass, and so do unsafe requests no browser sent (`isServerToServer`); other unsafe ones need a
 * trusted origin (`fromTrustedOrigin`) and the `csrftoken` cookie's value in `X-CSRFToken`,
 * `X-XSRF-TOKEN` or the form field `csrfmiddlewaretoken`. Null when it passes.
 */
export function csrfRefusal(req: Request, config: AppConfig): CsrfRefusal | null {
  if (SAFE_METHODS.has(req.method) || isServerToServer(req)) return null;
  if (!fromTrustedOrigin(req, config)) {
    return { reason: 'origin', origin: claimedOrigin(req) ?? '', ownOrigin: ownOrigin(req) };
  }
  const expected = requestCookies(req)[CSRF_COOKIE];
  if (!expected) return { reason: 'no-cookie' };
  const body = req.body as Record<string, unknown> | undefined;
  const field = body && typeof body === 'object' ? body[CSRF_FORM_FIELD] : undefined;
  const sent =
    req.headers['x-csrftoken'] ?? req.headers['x-xsrf-token'] ?? (typeof field === 'string' ? field : undefined);
  return typeof sent === 'string' && sameToken(sent, expected) ? null : { reason: 'token' };
}

/** Whether the request passes the CSRF check (`csrfRefusal` is null). */
export function passesCsrfCheck(req: Request, config: AppConfig): boolean {
  return csrfRefusal(req, config) === null;
}

/**
 * One log line that tells an operator why a form post failed the CSRF check and which setting fixes
 * it (the origin refused and `WEB_URL`/`APP_BASE_URL`/`ADMIN_BASE_URL`/`SPACE_BASE_URL`/
 * `CORS_ALLOWED_ORIGINS`, or `TRUST_PROXY` behind a proxy that rewrites `Host`).
 */
export function describeCsrfRefusal(refusal: CsrfRefusal, req: Request, config: AppConfig): string {
  const what = `${req.method} ${req.originalUrl.split('?')[0]}`;
  switch (refusal.reason) {
    case 'origin': {
      const claimed = originOf(refusal.origin) ?? refusal.origin;
      return (
        `CSRF check refused ${what}: origin ${claimed} is not trusted (this server sees itself as ` +
        `${refusal.ownOrigin}; trusted: ${config.webSession.trustedOrigins.join(', ')}). If ${claimed} ` +
        `is where users open Plane, set WEB_URL (or APP_BASE_URL, ADMIN_BASE_URL, SPACE_BASE_URL, ` +
        `CORS_ALLOWED_ORIGINS) to it; behind a reverse proxy that rewrites Host, set TRUST_PROXY so ` +
        `X-Forwarded-Host and X-Forwarded-Proto are used` +
        (config.http.trustProxy === false ? ' (TRUST_PROXY is off)' : '')
      );
    }
    case 'no-cookie':
      return (
        `CSRF check refused ${what}: no csrftoken cookie came with it (the page did not fetch ` +
        `GET /auth/get-csrf-token/ from this server, or the browser did not send the cookie back: ` +
        `check COOKIE_DOMAIN and that an https site is not served over http)`
      );
    case 'token':
      return `CSRF check refused ${what}: the csrfmiddlewaretoken field (or X-CSRFToken header) is missing or is not the csrftoken cookie's value`;
  }
}

/**
 * Plane's HTML form posts share their paths with Meridian's JSON flows (`POST /auth/sign-in/`
 * answers JSON tokens to JSON and a redirect with the session cookie to a browser `<form>`). Nest
 * routes by path only, so form posts to these paths are routed to their form handlers under
 * `…/web/…` before routing: `/auth/[spaces/]{sign-in,sign-up,magic-sign-in,magic-sign-up,sign-out}/`,
 * `/auth/[spaces/]reset-password/{uidb64}/{token}/` and `/api/instances/admins/{sign-in,sign-up,sign-out}/`.
 */
const FORM_ROUTES: Array<[RegExp, string]> = [
  [/^\/auth\/(spaces\/)?(sign-in|sign-up|magic-sign-in|magic-sign-up|sign-out)\/?$/, '/auth/web/$1$2/'],
  [/^\/auth\/(spaces\/)?reset-password\/([^/]+)\/([^/]+)\/?$/, '/auth/web/$1reset-password/$2/$3/'],
  [/^\/api\/instances\/admins\/(sign-in|sign-up|sign-out)\/?$/, '/api/instances/admins/web/$1/'],
];

/** Express middleware: rewrites the URL of a form post to one of `FORM_ROUTES` (see there). */
export function routeFormPosts(req: Request, _res: Response, next: () => void): void {
  if (req.method === 'POST' && isFormPost(req)) {
    const [pathname, query] = splitUrl(req.url);
    for (const [pattern, target] of FORM_ROUTES) {
      if (pattern.test(pathname)) {
        req.url = pathname.replace(pattern, target) + query;
        break;
      }
    }
  }
  next();
}

function splitUrl(url: string): [string, string] {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
}

/**
 * CORS per request: pages from a trusted origin (`webSession.trustedOrigins`) may send cookies
 * (their origin is echoed with `Access-Control-Allow-Credentials: true`); any other origin gets
 * `*` without credentials, which is enough for Bearer and API-key clients.
 */
export function corsFor(config: AppConfig, exposedHeaders: string[]) {
  return (req: Request, callback: (err: Error | null, options: object) => void): void => {
    const origin = req.headers.origin;
    const trusted = typeof origin === 'string' && config.webSession.trustedOrigins.includes(origin);
    callback(null, trusted ? { origin, credentials: true, exposedHeaders } : { origin: '*', exposedHeaders });
  };
}
