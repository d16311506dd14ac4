import {
  AuditActor,
  CurrentActor,
  APP_PAGED_ON_REQUEST,
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
import { ApiTokenJson, ApiTokenService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { UpdateApiTokenDto } from './dto/app-api.dto';
import { CreateApiTokenDto } from './dto/create-api-token.dto';

/**
 * API tokens of a workspace (docs/reference/http-interface.md §5, rule 3; Plane `plane/app/views/api.py`
 * ApiTokenEndpoint). Workspace Admins only; each caller sees only their own keys.
 */
@Controller('workspaces/:slug/api-tokens')
@BearerAuth()
@WorkspaceRole(ROLE.ADMIN)
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokenService) {}

  /**
   * The caller's keys in this workspace, never with the secret: a bare array (Plane's
   * `ApiTokenEndpoint.get`), or a page with `per_page` and `cursor` (the interface specification
   * shows this list beside the cursor envelope).
   */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_PAGED_ON_REQUEST) page: PageRequest,
  ): Promise<ApiTokenJson[] | Page<ApiTokenJson>> {
    return listAnswer(page, await this.tokens.list(ws.workspaceId, me.userId, page));
  }

  /** 201 with the key in `token` (`plane_api_` + 32 hex): the only time it is shown. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateApiTokenDto,
  ): Promise<ApiTokenJson & { token: string }> {
    return this.tokens.create(ws.workspaceId, { id: me.userId }, body, actor);
  }

  /** 200 one of the caller's keys, without the secret; anyone else's (or another workspace's) is a 404. */
  @Get(':token_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('token_id', UuidPipe) id: string,
  ): Promise<ApiTokenJson> {
    return this.tokens.get(ws.workspaceId, me.userId, id);
  }

  /** `{label?, description?, is_active?, expired_at?}` → 200 without the secret; other fields 422. */
  @Patch(':token_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('token_id', UuidPipe) id: string,
    @Body() body: UpdateApiTokenDto,
  ): Promise<ApiTokenJson> {
    return this.tokens.update(ws.workspaceId, me.userId, id, body, actor);
  }

  /** 204: the key stops working at once (401). */
  @Delete(':token_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('token_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.tokens.remove(ws.workspaceId, me.userId, id, actor);
  }
}

/**
 * `POST /api/workspaces/{slug}/service-api-tokens/` (Plane 0.25.3 `app/views/api.py`
 * `ServiceApiTokenEndpoint`, `WorkspaceOwnerPermission`: workspace Admins only): `{token}`, the
 * workspace's service token (`is_service`, an `X-API-Key` like any other, of the Admin who first
 * asked for it): 200 with the existing one, or 201 with a new one. The body is ignored. Meridian keeps
 * this one key sealed with `SECRET_KEY` (besides its digest) to answer it again; it is never listed
 * by `api-tokens/` (docs/decisions.md).
 */
@Controller('workspaces/:slug/service-api-tokens')
@BearerAuth()
@WorkspaceRole(ROLE.ADMIN)
export class ServiceApiTokensController {
  constructor(private readonly tokens: ApiTokenService) {}

  @Post()
  async serviceToken(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Res({ passthrough: true }) res: Response,
  ): Promise<{ token: string }> {
    const { token, created } = await this.tokens.serviceToken(ws.workspaceId, me.userId, actor);
    res.status(created ? 201 : 200);
    return { token };
  }
}
