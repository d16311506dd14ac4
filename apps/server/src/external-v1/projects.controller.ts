import {
  ApiKeyAuth, CurrentPrincipal, CurrentWorkspace, Page, PageQuery, PageRequest, Principal, V1_PAGING, WorkspaceAccess,
} from '#common';
import { ProjectJson, ProjectService } from '#domain';
import { Body, Controller, Get, Post } from '@nestjs/common';
import { CreateProjectDto } from './dto/create-project.dto';

/** Projects in the External API v1 (spec part 4; reference plane-v1-api.md §8.1). */
@Controller('workspaces/:slug/projects')
@ApiKeyAuth()
export class ProjectsController {
  constructor(private readonly projects: ProjectService) {}

  /** Projects the key's user is a member of, and public ones; oldest first; `per_page` ≤ 1000 (default 1000). */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(V1_PAGING) page: PageRequest,
  ): Promise<Page<ProjectJson>> {
    return this.projects.list(ws.workspaceId, { userId: me.userId, workspaceRole: ws.role }, page);
  }

  /** 201 with the project; 403 for workspace Guests; 409 `PROJECT_IDENTIFIER_TAKEN` / `PROJECT_NAME_TAKEN`; 422. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Body() body: CreateProjectDto,
  ): Promise<ProjectJson> {
    return this.projects.create(ws.workspaceId, { userId: me.userId, workspaceRole: ws.role }, body);
  }
}
