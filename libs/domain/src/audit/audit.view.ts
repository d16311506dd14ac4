import { iso } from '../kernel/time';
import type { AuditLog } from './audit-log.entity';

/** An audit log row as the API answers it (and as one line of the JSON-lines export). */
export interface AuditLogJson {
  id: string;
  /** ISO 8601 UTC */
  created_at: string;
  event: string;
  actor_id: string | null;
  actor_email: string | null;
  api_token_id: string | null;
  workspace_id: string | null;
  project_id: string | null;
  target_type: string | null;
  target_id: string | null;
  ip_address: string | null;
  user_agent: string | null;
  metadata: Record<string, unknown>;
}

export function auditLogView(row: AuditLog): AuditLogJson {
  return {
    id: row.id,
    created_at: iso(row.createdAt)!,
    event: row.event,
    actor_id: row.actorId,
    actor_email: row.actorEmail,
    api_token_id: row.apiTokenId,
    workspace_id: row.workspaceId,
    project_id: row.projectId,
    target_type: row.targetType,
    target_id: row.targetId,
    ip_address: row.ipAddress,
    user_agent: row.userAgent,
    metadata: row.metadata ?? {},
  };
}
