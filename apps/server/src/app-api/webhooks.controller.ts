import {
  AuditActor,
  CurrentActor,
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  listAnswer,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { WebhookJson, WebhookLogJson, WebhookService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CreateWebhookDto, UpdateWebhookDto } from './dto/webhook.dto';

/**
 * Workspace webhooks (Plane 0.25.3 `WebhookEndpoint`, `WebhookSecretRegenerateEndpoint`;
 * README "Webhooks"). Workspace Admins only. The secret (`secret_key`, `plane_wh_…`) is in the
 * answers to create and regenerate only. Lists use the page envelope (Plane: bare arrays).
 */
@Controller('workspaces/:slug/webhooks')
@BearerAuth()
@WorkspaceRole(ROLE.ADMIN)
export class WebhooksController {
  constructor(private readonly webhooks: WebhookService) {}

  /** The workspace's webhooks, newest first, without secrets; a bare array (Plane's `WebhookEndpoint.get`). */
  @Get()
  async list(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<WebhookJson[] | Page<WebhookJson>> {
    return listAnswer(page, await this.webhooks.list(ws.workspaceId, page));
  }

  /**
   * 201 with `secret_key`. 422 without `url`; 400 `WEBHOOK_URL_NOT_ALLOWED` (not http(s), or an
   * address that is loopback, private, link-local, reserved or the server's own, unless
   * `WEBHOOK_ALLOWED_HOSTS` allows it), 400 `WEBHOOK_URL_UNRESOLVABLE`; 409 `WEBHOOK_URL_TAKEN`.
   */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateWebhookDto,
  ): Promise<WebhookJson & { secret_key: string }> {
    return this.webhooks.create(ws.workspaceId, me.userId, body, actor);
  }

  /** 200 without the secret; another workspace's webhook is a 404. */
  @Get(':webhook_id')
  retrieve(@CurrentWorkspace() ws: WorkspaceAccess, @Param('webhook_id', UuidPipe) id: string): Promise<WebhookJson> {
    return this.webhooks.get(ws.workspaceId, id);
  }

  /** Partial update (200); a new `url` is checked as on create; `is_active: true` clears the failure count. */
  @Patch(':webhook_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('webhook_id', UuidPipe) id: string,
    @Body() body: UpdateWebhookDto,
  ): Promise<WebhookJson> {
    return this.webhooks.update(ws.workspaceId, me.userId, id, body, actor);
  }

  /** 204; its logs and undelivered events go with it. */
  @Delete(':webhook_id')
  @HttpCode(204)
  async remove(
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('webhook_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.webhooks.remove(ws.workspaceId, id, actor);
  }

  /** 200 with a new `secret_key`; later deliveries are signed with it. */
  @Post(':webhook_id/regenerate')
  @HttpCode(200)
  regenerate(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('webhook_id', UuidPipe) id: string,
  ): Promise<WebhookJson & { secret_key: string }> {
    return this.webhooks.regenerate(ws.workspaceId, me.userId, id, actor);
  }
}

/** `GET /api/workspaces/{slug}/webhook-logs/{webhook_id}/`: every delivery attempt, newest first (signatures redacted). */
@Controller('workspaces/:slug/webhook-logs')
@BearerAuth()
@WorkspaceRole(ROLE.ADMIN)
export class WebhookLogsController {
  constructor(private readonly webhooks: WebhookService) {}

  /** Every log of the webhook, a bare array (Plane's `WebhookLogsEndpoint`). */
  @Get(':webhook_id')
  async list(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('webhook_id', UuidPipe) id: string,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ): Promise<WebhookLogJson[] | Page<WebhookLogJson>> {
    return listAnswer(page, await this.webhooks.logs(ws.workspaceId, id, page));
  }
}
