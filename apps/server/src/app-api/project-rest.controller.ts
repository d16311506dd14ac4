import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  MultipartBody,
  UuidPipe,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  WorkspaceAccess,
} from '#common';
import { AttachmentService, EstimateService, ProjectMemberService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { issueContext } from '../shared/context';
import { attributesName, readMultipartUpload } from '../shared/multipart';
import { ProjectUserViewsDto } from './dto/preference.dto';

/**
 * `GET /api/workspaces/{slug}/projects/{project_id}/project-estimates/` (Plane 0.25.3
 * `app/views/estimate/base.py` `ProjectEstimatePointEndpoint`): the points of the project's
 * estimate, a bare array (`[]` without an estimate). Project Admins and Members (Plane's
 * `allow_permission([ADMIN, MEMBER])`); a Guest gets 403.
 */
@Controller('workspaces/:slug/projects/:project_id/project-estimates')
@BearerAuth()
export class AppProjectEstimatePointsController {
  constructor(private readonly estimates: EstimateService) {}

  @Get()
  @ProjectRole(ROLE.MEMBER)
  async list(@CurrentProject() project: ProjectAccess) {
    const estimate = await this.estimates.retrieve(project.projectId).catch((err: unknown) => {
      if (err instanceof MeridianError && err.code === 'NOT_FOUND') return null;
      throw err;
    });
    return estimate ? this.estimates.listPoints(project.projectId, estimate.id) : [];
  }
}

/**
 * `POST /api/workspaces/{slug}/projects/{project_id}/project-views/` (Plane 0.25.3
 * `app/views/project/base.py` `ProjectUserViewsEndpoint`): saves the caller's own `view_props`,
 * `default_props`, `preferences` and `sort_order` of the project; 204. Any active project member
 * (Guests too); a workspace member who is not in the project gets 403, an unknown project 404; 422
 * when a props key is not an object.
 */
@Controller('workspaces/:slug/projects/:project_id/project-views')
@BearerAuth()
export class AppProjectUserViewsController {
  constructor(private readonly projectMembers: ProjectMemberService) {}

  @Post()
  @ProjectRole(ROLE.GUEST)
  @HttpCode(204)
  async save(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Body() body: ProjectUserViewsDto,
  ): Promise<void> {
    await this.projectMembers.saveViewProps(project.projectId, me.userId, {
      viewProps: body.view_props,
      defaultProps: body.default_props,
      preferences: body.preferences,
      sortOrder: body.sort_order,
    });
  }
}

/**
 * `GET /api/workspaces/{slug}/project-members/` (Plane 0.25.3 `app/views/workspace/member.py`
 * `WorkspaceProjectMemberEndpoint`): `{<project_id>: [membership, …]}` for every project of the
 * workspace the caller is an active member of; each membership is Plane's `ProjectMemberRoleSerializer`
 * row without `project` (`member` the user's id). Any workspace member (Plane's
 * `WorkspaceEntityPermission` for a read).
 */
@Controller('workspaces/:slug/project-members')
@BearerAuth()
export class AppWorkspaceProjectMembersController {
  constructor(private readonly projectMembers: ProjectMemberService) {}

  @Get()
  async list(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess) {
    const grouped = await this.projectMembers.byMemberProjects(ws.workspaceId, { userId: me.userId, role: ws.role });
    const out: Record<string, unknown[]> = {};
    for (const [projectId, rows] of Object.entries(grouped))
      out[projectId] = rows.map((m) => ({ ...m, member: m.member.id }));
    return out;
  }
}

/**
 * Plane's pre-v2 attachment routes (Plane 0.25.3 `app/views/issue/attachment.py`
 * `IssueAttachmentEndpoint`): the list (`GET`, Admins, Members and Guests on the work items they may
 * see) and `DELETE {id}` (the uploader or a project Admin, 403 otherwise), the same records and rules
 * as `…/attachments/` (`AppWorkItemAttachmentsController`), and the multipart upload (`POST`: the
 * file in `asset`, stored and marked uploaded at once, with the work item's history). Plane's web app
 * 0.25.3 uploads through `assets/v2/…/attachments/` instead; scripts of older Plane versions post here.
 */
@Controller('workspaces/:slug/projects/:project_id/issues/:issue_id/issue-attachments')
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppLegacyWorkItemAttachmentsController {
  constructor(private readonly attachments: AttachmentService) {}

  /** Uploaded attachments, oldest first: a bare array of Plane's `IssueAttachmentSerializer`; 404 for a foreign work item. */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    return this.attachments.list(project.projectId, issueId, { slug: ws.slug, userId: me.userId, role: project.role });
  }

  /**
   * 201 with Plane's `IssueAttachmentSerializer` (every field, `asset_url` the download route, which
   * answers 302 to the file; `is_uploaded` true). Multipart: the file in `asset` (its part's
   * `Content-Type` from Plane's `ATTACHMENT_MIME_TYPES`, else 400 ATTACHMENT_TYPE_NOT_ALLOWED), an
   * optional `attributes` JSON object whose `name` names it. 400 FILE_REQUIRED / FILE_EMPTY, 413
   * ATTACHMENT_TOO_LARGE over `FILE_SIZE_LIMIT`, 415 for a body that is not a form, 404 for a work
   * item of another project or one a Guest may not see, 400 PROJECT_ARCHIVED.
   */
  @Post()
  @HttpCode(201)
  @MultipartBody({
    parts: [
      { name: 'asset', file: true, required: true, description: "The file; its part's Content-Type is its type." },
      { name: 'attributes', description: 'Optional JSON object; its `name` is shown instead of the file name.' },
    ],
    status: 201,
    answer: "The attachment: Plane's `IssueAttachmentSerializer` with `asset_url`.",
  })
  async upload(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Req() req: Request,
  ) {
    const { file, fields } = await readMultipartUpload(req, 'asset', this.attachments.sizeLimit);
    return this.attachments.upload(issueContext(me, ws, project), ws.slug, issueId, file, attributesName(fields));
  }

  /** 204: soft delete with history; the file is removed; 404 for an attachment of another work item. */
  @Delete(':attachment_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('attachment_id', UuidPipe) id: string,
  ): Promise<void> {
    await this.attachments.remove(issueContext(me, ws, project), issueId, id, 'app');
  }
}
