import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
  WorkspaceRole,
} from '#common';
import { WorkspaceThemeJson, WorkspaceThemeService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CreateWorkspaceThemeDto, UpdateWorkspaceThemeDto } from './dto/profile.dto';

/**
 * A workspace's saved colour themes (Plane 0.25.3 `plane/app/views/workspace/base.py`
 * WorkspaceThemeViewSet, `WorkSpaceAdminPermission`): workspace Admins and Members, every method.
 */
@Controller('workspaces/:slug/workspace-themes')
@BearerAuth()
@WorkspaceRole(ROLE.MEMBER)
export class AppWorkspaceThemesController {
  constructor(private readonly themes: WorkspaceThemeService) {}

  /** The workspace's live themes, newest first, a bare array. */
  @Get()
  list(@CurrentWorkspace() ws: WorkspaceAccess): Promise<WorkspaceThemeJson[]> {
    return this.themes.list(ws.workspaceId);
  }

  /** `{name, colors?}` → 201 the theme (`actor`: the caller); 422 bad fields; 409 `THEME_NAME_TAKEN`. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateWorkspaceThemeDto,
  ): Promise<WorkspaceThemeJson> {
    return this.themes.create(ws.workspaceId, me.userId, body);
  }

  /** 200 the theme; 404 another workspace's. */
  @Get(':theme_id')
  retrieve(@CurrentWorkspace() ws: WorkspaceAccess, @Param('theme_id', UuidPipe) id: string) {
    return this.themes.get(ws.workspaceId, id);
  }

  /** `{name?, colors?}` → 200 the theme; 409 `THEME_NAME_TAKEN`. */
  @Patch(':theme_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('theme_id', UuidPipe) id: string,
    @Body() body: UpdateWorkspaceThemeDto,
  ): Promise<WorkspaceThemeJson> {
    return this.themes.update(ws.workspaceId, me.userId, id, body);
  }

  /** 204: deletes the theme. */
  @Delete(':theme_id')
  @HttpCode(204)
  async remove(@CurrentWorkspace() ws: WorkspaceAccess, @Param('theme_id', UuidPipe) id: string): Promise<void> {
    await this.themes.remove(ws.workspaceId, id);
  }
}

/** Plane's answer when no LLM provider is configured (`get_llm_config` finds no API key). */
function notConfigured(): never {
  throw new MeridianError('LLM_NOT_CONFIGURED', undefined, {
    error: 'LLM provider API key and model are required',
  });
}

/**
 * The AI assistant (Plane 0.25.3 `plane/app/views/external/base.py` WorkspaceGPTIntegrationEndpoint,
 * GPTIntegrationEndpoint). Meridian has no LLM provider, so after Plane's permission check every
 * call gets Plane's "not configured" answer: 400 `{error: "LLM provider API key and model are required"}`
 * (with `detail` and `error_code` `LLM_NOT_CONFIGURED`).
 */
@Controller('workspaces/:slug')
@BearerAuth()
export class AppAiAssistantController {
  /** Workspace Admins and Members; always 400 `LLM_NOT_CONFIGURED`. */
  @Post('ai-assistant')
  @WorkspaceRole(ROLE.MEMBER)
  workspace(@CurrentWorkspace() _ws: WorkspaceAccess): never {
    notConfigured();
  }

  /** Project Admins and Members; always 400 `LLM_NOT_CONFIGURED`. */
  @Post('projects/:project_id/ai-assistant')
  @ProjectRole(ROLE.MEMBER)
  project(@CurrentProject() _project: ProjectAccess): never {
    notConfigured();
  }
}
