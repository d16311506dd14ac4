import type { AuditActor } from '#common';
import type { EntityManager } from 'typeorm';
import { emitChange } from './change-bus';

/**
 * The audit log's event names (docs/audit.md lists each one's target and metadata). A new event is
 * a new name here and one `recordAudit` call in the writer's transaction.
 */
export const AUDIT_EVENTS = [
  'auth.sign_in.succeeded',
  'auth.sign_in.failed',
  'auth.sign_out',
  'user.password_changed',
  'user.email_changed',
  'user.deactivated',
  'api_token.created',
  'api_token.revoked',
  'member.invited',
  'member.role_changed',
  'member.removed',
  'workspace.deleted',
  'project.deleted',
  'instance.settings_changed',
  'instance.sso_connection_created',
  'instance.sso_connection_updated',
  'instance.sso_connection_deleted',
  'export.started',
  'export.downloaded',
  'webhook.created',
  'webhook.updated',
  'webhook.deleted',
] as const;

export type AuditEventName = (typeof AUDIT_EVENTS)[number];

/**
 * One security-relevant event to record (the audit room writes it as an `audit_logs` row).
 * `actor`: who and from where (null fields for a system action); `target`: what the event is
 * about (`type` e.g. `user`, `api_token`, `workspace_member`, `webhook`; `id` its id);
 * `metadata`: a small object of names and ids, never a secret (keys naming a secret are dropped
 * by the recorder, docs/audit.md).
 */
export interface AuditEntry {
  event: AuditEventName;
  actor: AuditActor | null;
  workspaceId?: string | null;
  projectId?: string | null;
  target?: { type: string; id: string | null } | null;
  metadata?: Record<string, unknown>;
}

/**
 * Records `entry` in the writer's transaction (`em`), so that a change that rolls back leaves no
 * audit row (`audit.recorded` on the change bus; the audit room's listener inserts it).
 */
export function recordAudit(em: EntityManager, entry: AuditEntry): Promise<void> {
  return emitChange(em, 'audit.recorded', entry);
}

/** A system action (a job, the CLI) or a caller known only by id: no address, no user agent. */
export function auditActorById(userId: string | null, email: string | null = null): AuditActor {
  return { userId, email, apiTokenId: null, ipAddress: null, userAgent: null };
}
