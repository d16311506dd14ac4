import {
  AuditActor,
  CurrentActor,
  APP_PAGING,
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  MeridianError,
  Page,
  PageQuery,
  PageRequest,
  Principal,
  ROLE,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { WorkspaceJson, WorkspaceService, WorkspaceSettingsService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Patch, Put, Post, Query } from '@nestjs/common';
import { UpdateWorkspaceDto } from './dto/app-api.dto';
import { CreateWorkspaceDto } from './dto/create-workspace.dto';

/**
 * Workspaces in the App API (docs/reference/http-interface.md §4; Plane
 * `plane/app/views/workspace/base.py` WorkSpaceViewSet).
 */
@Controller('workspaces')
@BearerAuth()
export class WorkspacesController {
  constructor(
    private readonly workspaces: WorkspaceService,
    private readonly settings: WorkspaceSettingsService,
  ) {}

  /** The caller's workspaces, oldest first, in the page-of-results envelope, each with the caller's `role`. */
  @Get()
  list(@CurrentPrincipal() me: Principal, @PageQuery(APP_PAGING) page: PageRequest): Promise<Page<WorkspaceJson>> {
    return this.workspaces.listForUser(me.userId, page);
  }

  /** 201 with the workspace, `role: 20` and `total_members: 1`; 409 `WORKSPACE_SLUG_TAKEN`; 422 on a bad or restricted slug. */
  @Post()
  create(@CurrentPrincipal() me: Principal, @Body() body: CreateWorkspaceDto): Promise<WorkspaceJson> {
    return this.workspaces.create(me.userId, body);
  }

  /** 200 the workspace with the caller's `role`; non-members 404 `WORKSPACE_NOT_FOUND`. */
  @Get(':slug')
  retrieve(@CurrentWorkspace() ws: WorkspaceAccess): Promise<WorkspaceJson> {
    return this.settings.retrieve(ws.workspaceId, ws.role);
  }

  /** Admins: 200 the updated workspace; 409 `WORKSPACE_SLUG_TAKEN`; 422 on a bad slug or time zone. */
  @Patch(':slug')
  @WorkspaceRole(ROLE.ADMIN)
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: UpdateWorkspaceDto,
  ): Promise<WorkspaceJson> {
    return this.settings.update(ws.workspaceId, me.userId, ws.role, body);
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put(':slug')
  @WorkspaceRole(ROLE.ADMIN)
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: UpdateWorkspaceDto,
  ): Promise<WorkspaceJson> {
    return this.update(me, ws, body);
  }

  /** Admins: 204, soft delete (projects and API keys too); the slug stays reserved. */
  @Delete(':slug')
  @WorkspaceRole(ROLE.ADMIN)
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @CurrentWorkspace() ws: WorkspaceAccess,
  ): Promise<void> {
    await this.settings.remove(ws.workspaceId, me.userId, actor);
  }
}

/** `GET /api/workspace-slug-check/?slug=` (Plane `plane/app/views/workspace/base.py` WorkSpaceAvailabilityCheckEndpoint). */
@Controller('workspace-slug-check')
@BearerAuth()
export class WorkspaceSlugCheckController {
  constructor(private readonly settings: WorkspaceSettingsService) {}

  /** 200 `{status: true}` when the slug is free; 400 `INVALID_QUERY_PARAMETER` without a single `slug`. */
  @Get()
  check(@Query('slug') slug: unknown): Promise<{ status: boolean }> {
    if (typeof slug !== 'string' || !slug.trim())
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'Workspace Slug is required.');
    return this.settings.slugAvailable(slug.trim());
  }
}
