import {
  APP_PAGING,
  BearerAuth,
  CurrentWorkspace,
  Page,
  PageQuery,
  PageRequest,
  ROLE,
  streamedLines,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { AuditLogJson, AuditService } from '#domain';
import { Controller, Get, Query, StreamableFile } from '@nestjs/common';
import { auditFilters } from '../shared/audit-query';

/**
 * A workspace's audit log (docs/audit.md; Meridian's own, Plane 0.25.3 has none): the events
 * recorded in the workspace (members, tokens, webhooks, exports, projects, the workspace's
 * deletion). Workspace Admins only (a Member or Guest gets 403, a non-member 404, as every
 * workspace route). Filters: `event`, `actor`, `project`, `from`, `to` (`auditFilters`).
 */
@Controller('workspaces/:slug/audit-logs')
@BearerAuth()
@WorkspaceRole(ROLE.ADMIN)
export class AppAuditLogsController {
  constructor(private readonly audit: AuditService) {}

  /** The page envelope of the workspace's rows, newest first (`per_page` ≤ 1000, `cursor`). 400 `INVALID_QUERY_PARAMETER`. */
  @Get()
  list(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ): Promise<Page<AuditLogJson>> {
    return this.audit.list({ ...auditFilters(query, { workspace: false }), workspaceId: ws.workspaceId }, page);
  }

  /**
   * Every selected row, oldest first, as JSON lines (`application/x-ndjson`, one `AuditLogJson` a
   * line; attachment `audit-log-<slug>.jsonl`), streamed with bounded memory.
   */
  @Get('export')
  export(@CurrentWorkspace() ws: WorkspaceAccess, @Query() query: Record<string, unknown>): Promise<StreamableFile> {
    const filters = { ...auditFilters(query, { workspace: false }), workspaceId: ws.workspaceId };
    return streamedLines(this.audit.exportChunks(filters), `audit-log-${ws.slug}.jsonl`);
  }
}
