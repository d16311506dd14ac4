import {
  APP_PAGING, BearerAuth, CurrentPrincipal, CurrentWorkspace, Page, PageQuery, PageRequest, Principal, ROLE,
  WorkspaceAccess, WorkspaceRole,
} from '#common';
import { ApiTokenJson, ApiTokenService } from '#domain';
import { Body, Controller, Get, Post } from '@nestjs/common';
import { CreateApiTokenDto } from './dto/create-api-token.dto';

/**
 * API tokens of a workspace (spec part 5, rule 3; reference plane-app-auth-instance-public.md §1.8).
 * Workspace Admins only; each caller sees only their own keys.
 */
@Controller('workspaces/:slug/api-tokens')
@BearerAuth()
@WorkspaceRole(ROLE.ADMIN)
export class ApiTokensController {
  constructor(private readonly tokens: ApiTokenService) {}

  /** The caller's keys in this workspace, never with the secret. */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_PAGING) page: PageRequest,
  ): Promise<Page<ApiTokenJson>> {
    return this.tokens.list(ws.workspaceId, me.userId, page);
  }

  /** 201 with the key in `token` (`plane_api_` + 32 hex): the only time it is shown. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateApiTokenDto,
  ): Promise<ApiTokenJson & { token: string }> {
    return this.tokens.create(ws.workspaceId, { id: me.userId }, body);
  }
}
