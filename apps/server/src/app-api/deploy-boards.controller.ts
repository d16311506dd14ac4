import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { DeployBoardJson, DeployBoardService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Res } from '@nestjs/common';
import type { Response } from 'express';
import { DeployBoardDto } from './dto/deploy-board.dto';

/**
 * Publishing a project (Plane `plane/app/views/project/base.py` DeployBoardViewSet): one board per project,
 * read by its members, published and changed by project Admins, unpublished by project Admins and
 * Members (Plane lets Members do all three: publishing and the settings, which open the project
 * to outsiders, stay with Admins here; docs/decisions.md). The board's `anchor` (32 hex
 * characters) is its public address under `/api/public/anchor/{anchor}/`.
 */
@Controller('workspaces/:slug/projects/:project_id/project-deploy-boards')
@BearerAuth()
export class DeployBoardsController {
  constructor(private readonly boards: DeployBoardService) {}

  /** Project members: 200 with the project's board (Plane answers one object here), or `{}` when it is not published. */
  @Get()
  async current(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
  ): Promise<DeployBoardJson | Record<string, never>> {
    return (await this.boards.current(ws.workspaceId, p.projectId)) ?? {};
  }

  /**
   * Project Admins: publishes the project. 201 with a new board (fresh anchor; comments, reactions
   * and votes off unless given; every layout on), or 200 with the existing board, the given settings
   * applied (Plane's get-or-create). 422 on bad settings.
   */
  @Post()
  @ProjectRole(ROLE.ADMIN)
  async publish(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Body() body: DeployBoardDto,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeployBoardJson> {
    const { created, board } = await this.boards.publish(ws.workspaceId, p.projectId, me.userId, body);
    res.status(created ? 201 : 200);
    return board;
  }

  /** Project members: the board; 404 `NOT_FOUND` for an id that is not this project's live board. */
  @Get(':board_id')
  retrieve(
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Param('board_id', UuidPipe) id: string,
  ): Promise<DeployBoardJson> {
    return this.boards.get(ws.workspaceId, p.projectId, id);
  }

  /** Project Admins: changes the settings given; 200 with the board. */
  @Patch(':board_id')
  @ProjectRole(ROLE.ADMIN)
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Param('board_id', UuidPipe) id: string,
    @Body() body: DeployBoardDto,
  ): Promise<DeployBoardJson> {
    return this.boards.update(ws.workspaceId, p.projectId, id, me.userId, body);
  }

  /** Project Admins and Members (Plane's rule): unpublishes (204); the anchor answers 404 from then on. */
  @Delete(':board_id')
  @ProjectRole(ROLE.MEMBER)
  @HttpCode(204)
  async unpublish(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() p: ProjectAccess,
    @Param('board_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.boards.unpublish(ws.workspaceId, p.projectId, id, me.userId);
  }
}
