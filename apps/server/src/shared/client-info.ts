import type { Request } from 'express';

/** The client's user agent and address, kept on the session it opens. */
export function clientOf(req: Request) {
  return { userAgent: req.headers['user-agent'] ?? null, ipAddress: req.ip ?? null };
}
