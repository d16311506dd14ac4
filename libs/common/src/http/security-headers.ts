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
  const headers = helmet({
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
    crossOriginResourcePolicy: { policy: 'cross-origin' },
    strictTransportSecurity: false,
  });
  return (req: Request, res: Response, next: NextFunction) => {
    res.setHeader('Cache-Control', 'no-store');
    headers(req, res, next);
  };
}
