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
import { appLabelView, LabelService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Put, Post } from '@nestjs/common';
import { CreateLabelDto, UpdateLabelDto } from '../shared/dto/label.dto';
import { BulkCreateLabelsDto } from './dto/draft.dto';

/**
 * Labels of a project on the App API (Plane 0.25.3 `issue-labels/`), through the same
 * `LabelService` as v1: reads need a project membership, writes a project Admin (Plane's `LabelViewSet`).
 */
@Controller('workspaces/:slug/projects/:project_id/issue-labels')
@BearerAuth()
export class AppLabelsController {
  constructor(private readonly labels: LabelService) {}

  /** Every label of the project, a bare array (Plane's `LabelViewSet.list`). */
  @Get()
  async list(@CurrentProject() project: ProjectAccess, @PageQuery(APP_UNPAGED) page: PageRequest) {
    return listAnswer(page, (await this.labels.list(project.projectId, page)).map(appLabelView));
  }

  /** 201; 409 `LABEL_NAME_TAKEN`; 422 (a parent of another project). */
  @Post()
  @ProjectRole(ROLE.ADMIN)
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateLabelDto,
  ) {
    return appLabelView(await this.labels.create(ws.workspaceId, project.projectId, me.userId, body));
  }

  @Get(':label_id')
  async retrieve(@CurrentProject() project: ProjectAccess, @Param('label_id', UuidPipe) id: string) {
    return appLabelView(await this.labels.retrieve(project.projectId, id));
  }

  @Patch(':label_id')
  @ProjectRole(ROLE.ADMIN)
  async update(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('label_id', UuidPipe) id: string,
    @Body() body: UpdateLabelDto,
  ) {
    return appLabelView(await this.labels.update(project.projectId, id, me.userId, body));
  }

  /** `PUT`, which Plane maps to the same update (`"put": "update"`): the PATCH above. */
  @Put(':label_id')
  @ProjectRole(ROLE.ADMIN)
  putUpdate(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('label_id', UuidPipe) id: string,
    @Body() body: UpdateLabelDto,
  ) {
    return this.update(me, project, id, body);
  }

  /** 204; children become top-level, work items lose the label. */
  @Delete(':label_id')
  @ProjectRole(ROLE.ADMIN)
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('label_id', UuidPipe) id: string,
  ) {
    await this.labels.remove(project.projectId, id, me.userId);
  }
}

/** Plane's `workspaces/{slug}/labels/`: the labels of every project of the workspace the caller is a member of. */
@Controller('workspaces/:slug/labels')
@BearerAuth()
export class WorkspaceLabelsController {
  constructor(private readonly labels: LabelService) {}

  /** A bare array (Plane's `WorkspaceLabelsEndpoint`). */
  @Get()
  async list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(APP_UNPAGED) page: PageRequest,
  ) {
    return listAnswer(page, (await this.labels.listForWorkspace(ws.workspaceId, me.userId, page)).map(appLabelView));
  }
}

/**
 * `POST bulk-create-labels/` (Plane 0.25.3 `app/urls/issue.py`, `BulkCreateIssueLabelsEndpoint`):
 * project Admins (Plane: ADMIN). 201 `{labels: [...]}` with the labels created; names the project
 * already has are skipped (Plane's `ignore_conflicts`).
 */
@Controller('workspaces/:slug/projects/:project_id/bulk-create-labels')
@BearerAuth()
export class AppBulkLabelsController {
  constructor(private readonly labels: LabelService) {}

  @Post()
  @ProjectRole(ROLE.ADMIN)
  async create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: BulkCreateLabelsDto,
  ) {
    const labels = await this.labels.bulkCreate(ws.workspaceId, project.projectId, me.userId, body.label_data ?? []);
    return { labels: labels.map(appLabelView) };
  }
}
