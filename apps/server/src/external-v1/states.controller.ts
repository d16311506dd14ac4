import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  PageQuery,
  PageRequest,
  Principal,
  ProjectAccess,
  UuidPipe,
  V1_PAGING,
  WorkspaceAccess,
} from '#common';
import { parseShape, pick, StateService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateStateDto, UpdateStateDto } from '../shared/dto/state.dto';

/**
 * Work item states of a project (Plane `plane/api/views/state.py` StateAPIEndpoint). Reads need a project
 * membership, writes role ≥ 15 (Plane's ProjectEntity rule).
 */
@Controller('workspaces/:slug/projects/:project_id/states')
@ApiKeyAuth()
export class StatesController {
  constructor(private readonly states: StateService) {}

  /** Non-triage states by `sequence`; paginated; `fields=` applies. */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const fields = parseShape(query).fields;
    return (await this.states.list(project.projectId, page)).map((s) => pick(s, fields));
  }

  /** 201 with the state (Plane: 200); 409 `STATE_NAME_TAKEN` / `EXTERNAL_ID_TAKEN` with the holder's `id`; 422. */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateStateDto,
  ) {
    return this.states.create(ws.workspaceId, project.projectId, me.userId, body);
  }

  @Get(':state_id')
  async retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('state_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return pick(await this.states.retrieve(project.projectId, id), parseShape(query).fields);
  }

  /** 200 with the state; `default: true` makes it the only default; 409 as on create. */
  @Patch(':state_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('state_id', UuidPipe) id: string,
    @Body() body: UpdateStateDto,
  ) {
    return this.states.update(project.projectId, id, me.userId, body);
  }

  /** 204; 400 `DEFAULT_STATE_NOT_DELETABLE` / `STATE_NOT_EMPTY`. */
  @Delete(':state_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('state_id', UuidPipe) id: string,
  ) {
    await this.states.remove(project.projectId, id, me.userId);
  }
}
