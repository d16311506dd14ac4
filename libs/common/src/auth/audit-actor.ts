import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import type { Request } from 'express';
import type { Principal } from './principal';
import { httpRequestOf } from '../http/http-context';

/**
 * Who made a change and from where, as the audit log records it (docs/audit.md): the signed-in
 * user (`userId`, `email` at the time), the API token that authenticated the request
 * (`apiTokenId`, null for a session), the client's address (`req.ip`, which follows
 * `TRUST_PROXY`) and its `User-Agent` (at most 512 characters). A request without a principal
 * (a sign-in form) has null user fields.
 */
export interface AuditActor {
  userId: string | null;
  email: string | null;
  apiTokenId: string | null;
  ipAddress: string | null;
  userAgent: string | null;
}

/** The request's `AuditActor`, from its principal (if any), address and `User-Agent`. */
export function auditActorOf(req: Request, principal?: Principal | null): AuditActor {
  const user = principal ?? (req.user as Principal | undefined) ?? null;
  const ua = req.headers['user-agent'];
  return {
    userId: user?.userId ?? null,
    email: user?.email ?? null,
    apiTokenId: user?.apiToken?.id ?? null,
    ipAddress: req.ip ?? req.socket?.remoteAddress ?? null,
    userAgent: typeof ua === 'string' ? ua.slice(0, 512) : null,
  };
}

/** The caller as the audit log records it (`AuditActor`); on a public route its user fields are null. */
export const CurrentActor = createParamDecorator((_: unknown, ctx: ExecutionContext): AuditActor =>
  auditActorOf(httpRequestOf<Request>(ctx)),
);
