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
import { LabelService, parseShape, pick } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { CreateLabelDto, UpdateLabelDto } from '../shared/dto/label.dto';

/** Labels of a project (Plane `plane/api/views/issue.py` LabelAPIEndpoint). Reads need a project membership, writes role ≥ 15. */
@Controller('workspaces/:slug/projects/:project_id/labels')
@ApiKeyAuth()
export class LabelsController {
  constructor(private readonly labels: LabelService) {}

  /** Newest first; paginated; `fields=` applies. */
  @Get()
  async list(
    @CurrentProject() project: ProjectAccess,
    @PageQuery(V1_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    const fields = parseShape(query).fields;
    return (await this.labels.list(project.projectId, page)).map((l) => pick(l, fields));
  }

  /** 201 with the label; 409 `LABEL_NAME_TAKEN` / `EXTERNAL_ID_TAKEN` with the holder's `id`; 422 (parent of another project). */
  @Post()
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateLabelDto,
  ) {
    return this.labels.create(ws.workspaceId, project.projectId, me.userId, body);
  }

  @Get(':label_id')
  async retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('label_id', UuidPipe) id: string,
    @Query() query: Record<string, unknown>,
  ) {
    return pick(await this.labels.retrieve(project.projectId, id), parseShape(query).fields);
  }

  /** 200 with the label; 409 as on create; 422 for a parent that would make a cycle. */
  @Patch(':label_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('label_id', UuidPipe) id: string,
    @Body() body: UpdateLabelDto,
  ) {
    return this.labels.update(project.projectId, id, me.userId, body);
  }

  /** 204; children become top-level, work items lose the label. */
  @Delete(':label_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('label_id', UuidPipe) id: string,
  ) {
    await this.labels.remove(project.projectId, id, me.userId);
  }
}
