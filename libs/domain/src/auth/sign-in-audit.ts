import type { AuditActor } from '#common';
import type { DataSource } from 'typeorm';
import { recordAudit } from '../kernel/audit';
import type { ClientInfo } from './session.service';

/**
 * The audit log's `method` (and `connection`) of a session's `medium` (docs/audit.md): `email` is
 * `password`, `magic-code` is `magic_code`, an OAuth provider is its name (`google`, `github`,
 * `gitlab`), and an enterprise connection's medium `oidc:<connection id>` is
 * `{method: 'oidc', connection: <id>}`.
 */
export function signInMethod(medium: string): { method: string; connection?: string } {
  if (medium === 'email') return { method: 'password' };
  if (medium === 'magic-code') return { method: 'magic_code' };
  const at = medium.indexOf(':');
  if (at > 0) return { method: medium.slice(0, at), connection: medium.slice(at + 1) };
  return { method: medium };
}

/** The audit actor of a sign-in: the account (when known) and the client's address and user agent. */
export function signInActor(
  client: ClientInfo,
  user: { id: string; email: string } | null,
  email?: string | null,
): AuditActor {
  return {
    userId: user?.id ?? null,
    email: user?.email ?? email ?? null,
    apiTokenId: null,
    ipAddress: client.ipAddress ?? null,
    userAgent: client.userAgent?.slice(0, 512) ?? null,
  };
}

/**
 * Records a refused sign-in (`auth.sign_in.failed`, metadata `{method, connection?, reason}`:
 * the error code the client got) in a short transaction of its own: the refusal changes nothing
 * else, so there is no transaction to join. Never the password or code tried.
 */
export async function recordSignInFailure(
  dataSource: DataSource,
  medium: string,
  client: ClientInfo,
  email: string | null,
  reason: string,
  user: { id: string; email: string } | null = null,
): Promise<void> {
  await dataSource.transaction((em) =>
    recordAudit(em, {
      event: 'auth.sign_in.failed',
      actor: signInActor(client, user, email),
      target: user ? { type: 'user', id: user.id } : null,
      metadata: { ...signInMethod(medium), reason },
    }),
  );
}
