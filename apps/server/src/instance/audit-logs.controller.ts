import { APP_PAGING, InstanceAdminAuth, Page, PageQuery, PageRequest, streamedLines } from '#common';
import { AuditLogJson, AuditService } from '#domain';
import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { auditFilters } from '../shared/audit-query';

/**
 * The instance's audit log (`/api/instances/audit-logs/`, docs/audit.md; Meridian's own): every
 * row, sign-ins and instance settings included. Instance admin tokens only. Filters: `event`,
 * `actor`, `workspace`, `project`, `from`, `to` (`auditFilters`).
 */
@Controller('audit-logs')
@InstanceAdminAuth()
export class InstanceAuditLogsController {
  constructor(private readonly audit: AuditService) {}

  /** The page envelope, newest first (`per_page` ≤ 1000, `cursor`). 400 `INVALID_QUERY_PARAMETER`. */
  @Get()
  list(@PageQuery(APP_PAGING) page: PageRequest, @Query() query: Record<string, unknown>): Promise<Page<AuditLogJson>> {
    return this.audit.list(auditFilters(query, { workspace: true }), page);
  }

  /** Every selected row, oldest first, as JSON lines (`application/x-ndjson`; attachment `audit-log.jsonl`). */
  @Get('export')
  export(@Query() query: Record<string, unknown>): Promise<StreamableFile> {
    return streamedLines(this.audit.exportChunks(auditFilters(query, { workspace: true })), 'audit-log.jsonl');
  }
}
