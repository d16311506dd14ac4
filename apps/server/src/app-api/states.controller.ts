import {
  APP_UNPAGED,
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  listAnswer,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { appStateView, StateService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post } from '@nestjs/common';
import { CreateStateDto, UpdateStateDto } from '../shared/dto/state.dto';

/**
 * Work item states of a project on the App API (Plane 0.25.3 `app/urls/state.py`), through the same
 * `StateService` as v1: reads need a project membership; creating, deleting and marking the default
 * state need a project Admin (Plane's `StateViewSet`), editing project role ≥ 15 (`default` Admins only).
 */
@Controller('workspaces/:slug/projects/:project_id/states')
@BearerAuth()
export class AppStatesController {
  constructor(private readonly states: StateService) {}

  /** Every non-triage state by `sequence`, a bare array (Plane's `StateViewSet.list`). */
  @Get()
  async list(@CurrentProject() project: ProjectAccess, @PageQuery(APP_UNPAGED) page: PageRequest) {
    return listAnswer(page, (await this.states.list(project.projectId, page)).map(appStateView));
  }

  /** 201; 409 `STATE_NAME_TAKEN`; 422. */
  @Post()
  @ProjectRole(ROLE.ADMIN)
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateStateDto,
  ) {
    return appStateView(await this.states.create(ws.workspaceId, project.projectId, me.userId, body));
  }

  @Get(':state_id')
  async retrieve(@CurrentProject() project: ProjectAccess, @Param('state_id', UuidPipe) id: string) {
    return appStateView(await this.states.retrieve(project.projectId, id));
  }

  @Patch(':state_id')
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('state_id', UuidPipe) id: string,
    @Body() body: UpdateStateDto,
  ) {
    return appStateView(await this.states.update(project.projectId, id, me.userId, body, project.role));
  }

  /** 204; 400 `DEFAULT_STATE_NOT_DELETABLE` / `STATE_NOT_EMPTY`. */
  @Delete(':state_id')
  @ProjectRole(ROLE.ADMIN)
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('state_id', UuidPipe) id: string,
  ) {
    await this.states.remove(project.projectId, id, me.userId);
  }

  /** Plane's `mark-default/`: 200 with the state, now the project's only default (Plane: 204). */
  @Post(':state_id/mark-default')
  @ProjectRole(ROLE.ADMIN)
  @HttpCode(200)
  async markDefault(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('state_id', UuidPipe) id: string,
  ) {
    return appStateView(await this.states.update(project.projectId, id, me.userId, { default: true }, project.role));
  }
}

/** Plane's `workspaces/{slug}/states/`: the states of every project of the workspace the caller is a member of. */
@Controller('workspaces/:slug/states')
@BearerAuth()
export class WorkspaceStatesController {
  constructor(private readonly states: StateService) {}

  /** A bare array (Plane's `WorkspaceStatesEndpoint`). */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, (await this.states.listForWorkspace(ws.workspaceId, me.userId, page)).map(appStateView));
  }
}
