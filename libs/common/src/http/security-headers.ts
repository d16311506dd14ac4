import type { NextFunction, Request, RequestHandler, Response } from 'express';
import helmet from 'helmet';

/**
 * Hardening headers on every answer (docs/decisions.md, "Hardening headers"): helmet's defaults
 * for a JSON API, and `Cache-Control: no-store`.
 *
 * - helmet as it comes (`X-Content-Type-Options: nosniff`, `Content-Security-Policy`,
 *   `Cross-Origin-Opener-Policy`, `Referrer-Policy: no-referrer`, `X-Frame-Options`, ...), except:
 *   no `upgrade-insecure-requests` in the CSP (Swagger UI at `/api/docs/` over plain HTTP would
 *   load nothing); no `Strict-Transport-Security` (whoever terminates TLS sets it);
 *   `Cross-Origin-Resource-Policy: cross-origin`, so a web client on another origin can still show
 *   an attachment's download URL in an `<img>` (CORS answers are not affected either way).
 * - `Cache-Control: no-store` on every answer: sign-in and refresh answers carry tokens, API
 *   token and webhook answers keys and secrets, attachment answers signed URLs, and the rest is one
 *   user's data. A route may set its own (`private, no-store` on signed downloads).
 */
export function securityHeaders(): RequestHandler {
  const headers = helmetHeaders(
    helmet({
      contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
      crossOriginResourcePolicy: { policy: 'cross-origin' },
      strictTransportSecurity: false,
    }),
  );
  return (_req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    for (const [name, value] of headers) {
      if (value === null) res.removeHeader(name);
      else res.setHeader(name, value);
    }
    next();
  };
}

/** A header helmet sets (`[name, value]`) or removes (`[name, null]`). */
type HeaderStep = [name: string, value: string | null];

/**
 * What `middleware` (helmet's, with no per-request directive) does to every response, read once:
 * the headers it sets and removes, in its order. helmet runs its thirteen small middleware one after
 * the other for each response, for the same fixed values; applying the steps read here instead
 * writes the same headers for a few per cent less of a read's CPU (BENCHMARKS.md "Per-request
 * costs"). Throws if the middleware does anything else with the response, does not go on at once, or
 * writes other headers the second time (an option that makes the headers depend on the request,
 * such as a CSP nonce).
 */
export function helmetHeaders(middleware: RequestHandler): HeaderStep[] {
  const [steps, again] = [record(middleware), record(middleware)];
  if (JSON.stringify(steps) !== JSON.stringify(again))
    throw new Error('helmet wrote different headers for two requests: its headers depend on the request');
  return steps;
}

/** The steps of one run of `middleware` on an empty request and a recording response. */
function record(middleware: RequestHandler): HeaderStep[] {
  const steps: HeaderStep[] = [];
  const recorder = {
    setHeader(name: string, value: unknown) {
      if (typeof value !== 'string') throw new Error(`helmet set ${name} to a non-string value`);
      steps.push([name, value]);
      return recorder;
    },
    removeHeader(name: string) {
      steps.push([name, null]);
    },
  };
  let went: unknown = 'not called';
  void middleware({ headers: {} } as Request, recorder as unknown as Response, (err?: unknown) => (went = err));
  if (went !== undefined) throw new Error(`helmet did not go on at once with fixed headers: ${String(went)}`);
  return steps;
}
