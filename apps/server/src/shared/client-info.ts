import type { Request } from 'express';

/** The client's user agent and address, kept on the session it opens. */
export function clientOf(req: Request) {
  return { userAgent: req.headers['user-agent'] ?? null, ipAddress: req.ip ?? null };
}

/** `https://host` the client reached Meridian at (honours `X-Forwarded-*` when TRUST_PROXY is on): the origin of Meridian's own signed URLs. */
export function originOf(req: Request): string {
  return `${req.protocol}://${req.get('host')}`;
}
