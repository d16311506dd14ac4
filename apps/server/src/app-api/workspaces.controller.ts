import { APP_PAGING, BearerAuth, CurrentPrincipal, Page, PageQuery, PageRequest, Principal } from '#common';
import { WorkspaceJson, WorkspaceService } from '#domain';
import { Body, Controller, Get, Post } from '@nestjs/common';
import { CreateWorkspaceDto } from './dto/create-workspace.dto';

/** Workspaces in the App API (spec part 4; reference plane-app-auth-instance-public.md §1.2). */
@Controller('workspaces')
@BearerAuth()
export class WorkspacesController {
  constructor(private readonly workspaces: WorkspaceService) {}

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
}
