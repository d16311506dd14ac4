import { Page, PageRequest } from '#common';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import type { AuditEntry } from '../kernel/audit';
import { OnChange } from '../kernel/change-bus';
import { AuditFilters, AuditRepository } from './audit.repository';
import { AuditLogJson, auditLogView } from './audit.view';

/**
 * A metadata key that names a secret (or something that would let one be guessed): such keys are
 * dropped before a row is written, at any depth, whatever the writer passed (docs/audit.md).
 */
const SECRET_KEY = /secret|passw|token|api_?key|private|hash|code|cookie|authori[sz]ation|credential/i;

/** Metadata without the keys that name secrets (`SECRET_KEY`), nested objects included. */
export function screenMetadata(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(screenMetadata);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (!SECRET_KEY.test(k)) out[k] = screenMetadata(v);
    }
    return out;
  }
  return value;
}

/**
 * The audit log (docs/audit.md): records the `audit.recorded` events in the writer's transaction
 * and reads them back for instance admins (every row) and workspace Admins (their workspace's).
 */
@Injectable()
export class AuditService {
  constructor(private readonly repo: AuditRepository) {}

  /** Writes one row for `entry` with the writer's `em` (so a rolled-back change leaves none). */
  @OnChange('audit.recorded')
  async onRecorded(em: EntityManager, entry: AuditEntry): Promise<void> {
    const actor = entry.actor;
    await this.repo.insert(em, {
      event: entry.event,
      actorId: actor?.userId ?? null,
      actorEmail: actor?.email?.slice(0, 255) ?? null,
      apiTokenId: actor?.apiTokenId ?? null,
      workspaceId: entry.workspaceId ?? null,
      projectId: entry.projectId ?? null,
      targetType: entry.target?.type ?? null,
      targetId: entry.target?.id ?? null,
      ipAddress: actor?.ipAddress?.slice(0, 64) ?? null,
      userAgent: actor?.userAgent?.slice(0, 512) ?? null,
      metadata: (screenMetadata(entry.metadata ?? {}) as Record<string, unknown>) ?? {},
    });
  }

  /** One page of `filters`' rows, newest first (the page envelope; cursors as every list's). */
  async list(filters: AuditFilters, page: PageRequest): Promise<Page<AuditLogJson>> {
    return (await this.repo.page(filters, page)).map(auditLogView);
  }

  /** Every row of `filters`, oldest first, in chunks of bounded size (the JSON-lines export). */
  async *exportChunks(filters: AuditFilters): AsyncGenerator<AuditLogJson[]> {
    for await (const rows of this.repo.chunks(filters)) yield rows.map(auditLogView);
  }
}
