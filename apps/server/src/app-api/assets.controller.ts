import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MultipartBody,
  Principal,
  ProjectAccess,
  ProjectRole,
  Public,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { AssetService, AttachmentService, LegacyAssetService, ProjectAssetScope, WorkspaceAssetScope } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { attributesName, readMultipartUpload } from '../shared/multipart';
import { issueContext } from '../shared/context';
import { BulkAssetsDto, CompleteAssetDto, CreateAppAttachmentDto, CreateAssetDto } from './dto/asset.dto';

const WORKSPACE = 'assets/v2/workspaces/:slug';
const PROJECT = `${WORKSPACE}/projects/:project_id`;

function workspaceScope(me: Principal, ws: WorkspaceAccess): WorkspaceAssetScope {
  return { workspaceId: ws.workspaceId, slug: ws.slug, userId: me.userId, role: ws.role };
}

function projectScope(me: Principal, ws: WorkspaceAccess, project: ProjectAccess): ProjectAssetScope {
  return { ...workspaceScope(me, ws), projectId: project.projectId, projectRole: project.role };
}

/**
 * The caller's avatar and cover image (Plane 0.25.3 `UserAssetsV2Endpoint`,
 * `plane/app/views/asset/v2.py`): any signed-in user, on their own assets only (another's → 404).
 * The upload is Plane's presigned flow: `POST` → `{upload_data, asset_id, asset_url}`, a multipart
 * `POST` of the file to `upload_data.url`, then `PATCH` → 204.
 */
@Controller('assets/v2/user-assets')
@BearerAuth()
export class AppUserAssetsController {
  constructor(private readonly assets: AssetService) {}

  /**
   * 200 `{upload_data: {url, method, fields}, asset_id, asset_url}`; `entity_type` `USER_AVATAR` or
   * `USER_COVER` (else 400 INVALID_ENTITY_TYPE); JPEG, PNG, WebP or GIF (else 400
   * ATTACHMENT_TYPE_NOT_ALLOWED); 413 ATTACHMENT_TOO_LARGE.
   */
  @Post()
  @HttpCode(200)
  create(@CurrentPrincipal() me: Principal, @Body() body: CreateAssetDto) {
    return this.assets.createUserAsset(me.userId, body);
  }

  /** 204: the file is stored (else 400 ATTACHMENT_NOT_UPLOADED); it becomes the avatar or cover image. */
  @Patch(':asset_id')
  @HttpCode(204)
  async complete(
    @CurrentPrincipal() me: Principal,
    @Param('asset_id', UuidPipe) id: string,
    @Body() body: CompleteAssetDto,
  ) {
    await this.assets.completeUserAsset(me.userId, id, body.attributes);
  }

  /** 204: soft delete; the avatar or cover image is cleared if it was this one. */
  @Delete(':asset_id')
  @HttpCode(204)
  async remove(@CurrentPrincipal() me: Principal, @Param('asset_id', UuidPipe) id: string) {
    await this.assets.deleteUserAsset(me.userId, id);
  }
}

/**
 * Assets of a workspace: its logo, project covers, images of descriptions outside a project
 * (Plane 0.25.3 `WorkspaceFileAssetEndpoint` and `AssetRestoreEndpoint`). Any workspace member;
 * the logo only a workspace Admin, a project's cover only a project or workspace Admin (403).
 */
@Controller(WORKSPACE)
@BearerAuth()
export class AppWorkspaceAssetsController {
  constructor(private readonly assets: AssetService) {}

  /**
   * 200 `{upload_data, asset_id, asset_url}`. `entity_type` one of `WORKSPACE_LOGO`, `PROJECT_COVER`
   * (`entity_identifier`: the project, or '' for a project not created yet), `USER_AVATAR`,
   * `USER_COVER` or a description image (else 400 INVALID_ENTITY_TYPE); JPEG, PNG, WebP or GIF.
   */
  @Post()
  @HttpCode(200)
  create(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess, @Body() body: CreateAssetDto) {
    return this.assets.createWorkspaceAsset(workspaceScope(me, ws), body);
  }

  /** 302 to a signed URL of the file (5 minutes); 404 before it is uploaded. */
  @Get(':asset_id')
  async read(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('asset_id', UuidPipe) id: string,
    @Res() res: Response,
  ) {
    res.redirect(302, await this.assets.workspaceReadUrl(workspaceScope(me, ws), id));
  }

  /** 204: the file is stored (else 400 ATTACHMENT_NOT_UPLOADED); a logo or cover is put in place. */
  @Patch(':asset_id')
  @HttpCode(204)
  async complete(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('asset_id', UuidPipe) id: string,
    @Body() body: CompleteAssetDto,
  ) {
    await this.assets.completeWorkspaceAsset(workspaceScope(me, ws), id, body.attributes);
  }

  /** 204: soft delete (the file stays, for restore). */
  @Delete(':asset_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('asset_id', UuidPipe) id: string,
  ) {
    await this.assets.deleteWorkspaceAsset(workspaceScope(me, ws), id);
  }

  /** 204: un-deletes an asset of the workspace (an editor's undo). */
  @Post('restore/:asset_id')
  @HttpCode(204)
  async restore(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('asset_id', UuidPipe) id: string,
  ) {
    await this.assets.restoreWorkspaceAsset(workspaceScope(me, ws), id);
  }
}

/**
 * Avatars, covers and logos by id (Plane 0.25.3 `StaticFileAssetEndpoint`, the `asset_url` of those
 * assets): public, as in Plane (an `<img>` reads it, and the id is unguessable); 302 to a signed URL
 * of the file; any other asset, or one not uploaded or deleted → 404.
 */
@Controller('assets/v2/static')
@Public()
export class AppStaticAssetsController {
  constructor(private readonly assets: AssetService) {}

  @Get(':asset_id')
  async read(@Param('asset_id', UuidPipe) id: string, @Res() res: Response) {
    res.redirect(302, await this.assets.staticReadUrl(id));
  }
}

/**
 * Assets of a project: images in work item, comment and page descriptions, and its cover (Plane
 * 0.25.3 `ProjectAssetEndpoint`, `ProjectBulkAssetEndpoint`): any project member, Guests included
 * (Plane's `allow_permission([ADMIN, MEMBER, GUEST])`); a cover only a project or workspace Admin.
 * Assets of other projects → 404.
 */
@Controller(PROJECT)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppProjectAssetsController {
  constructor(private readonly assets: AssetService) {}

  /**
   * 200 `{upload_data, asset_id, asset_url}`. `entity_type`: a description image (`entity_identifier`:
   * the work item or comment of this project, else 404; '' while it does not exist yet) or
   * `PROJECT_COVER`; else 400 INVALID_ENTITY_TYPE. JPEG, PNG, WebP or GIF.
   */
  @Post()
  @HttpCode(200)
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreateAssetDto,
  ) {
    return this.assets.createProjectAsset(projectScope(me, ws, project), body);
  }

  /** 302 to a signed URL of the file (5 minutes); 404 before it is uploaded. */
  @Get(':asset_id')
  async read(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('asset_id', UuidPipe) id: string,
    @Res() res: Response,
  ) {
    res.redirect(302, await this.assets.projectReadUrl(projectScope(me, ws, project), id));
  }

  /** 204: the file is stored (else 400 ATTACHMENT_NOT_UPLOADED). */
  @Patch(':asset_id')
  @HttpCode(204)
  async complete(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('asset_id', UuidPipe) id: string,
    @Body() body: CompleteAssetDto,
  ) {
    await this.assets.completeProjectAsset(projectScope(me, ws, project), id, body.attributes);
  }

  /** 204: soft delete (the file stays, for restore). */
  @Delete(':asset_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('asset_id', UuidPipe) id: string,
  ) {
    await this.assets.deleteProjectAsset(projectScope(me, ws, project), id);
  }

  /**
   * 204: links `asset_ids` (uploaded before the entity existed) to the work item or comment
   * `{entity_id}` of this project (else 404), or makes a `PROJECT_COVER` the project's cover.
   */
  @Post(':entity_id/bulk')
  @HttpCode(204)
  async bulk(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('entity_id', UuidPipe) entityId: string,
    @Body() body: BulkAssetsDto,
  ) {
    await this.assets.bulkLink(projectScope(me, ws, project), entityId, body.asset_ids);
  }
}

/**
 * Work item attachments as the web app uploads them (Plane 0.25.3 `IssueAttachmentV2Endpoint`,
 * `plane/app/views/issue/attachment.py`): any project member, Guests included, on the work items
 * they may see (Plane's Guest rule; others → 404); deleting is for the uploader or a project Admin
 * (403). Same records as the v1 attachment routes.
 */
@Controller(`${PROJECT}/issues/:issue_id/attachments`)
@BearerAuth()
@ProjectRole(ROLE.GUEST)
export class AppWorkItemAttachmentsController {
  constructor(private readonly attachments: AttachmentService) {}

  /** Uploaded attachments, oldest first: a bare array of Plane's `IssueAttachmentSerializer` (with `asset_url`). */
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
   * 200 `{upload_data: {url, method: 'POST', fields}, asset_id, attachment, asset_url}`: post the file
   * as a multipart form (`fields`, then `file`) to `upload_data.url`, then `PATCH`. `type` from
   * Plane's `ATTACHMENT_MIME_TYPES` (else 400 ATTACHMENT_TYPE_NOT_ALLOWED); 413 ATTACHMENT_TOO_LARGE.
   */
  @Post()
  @HttpCode(200)
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CreateAppAttachmentDto,
  ) {
    return this.attachments.create(issueContext(me, ws, project), ws.slug, issueId, body, 'app');
  }

  /** 302 to a signed download URL (5 minutes); 400 ATTACHMENT_NOT_UPLOADED before the upload is complete. */
  @Get(':attachment_id')
  async read(
    @CurrentPrincipal() me: Principal,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('attachment_id', UuidPipe) id: string,
    @Res() res: Response,
  ) {
    const viewer = { userId: me.userId, role: project.role };
    res.redirect(302, await this.attachments.downloadUrl(project.projectId, issueId, id, viewer));
  }

  /** 204: the file is stored (else 400 ATTACHMENT_NOT_UPLOADED); the work item's history notes it once. */
  @Patch(':attachment_id')
  @HttpCode(204)
  async complete(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('attachment_id', UuidPipe) id: string,
  ) {
    await this.attachments.complete(issueContext(me, ws, project), issueId, id, 'app');
  }

  /** 204: soft delete with history; the file is removed. The uploader or a project Admin only (403). */
  @Delete(':attachment_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('attachment_id', UuidPipe) id: string,
  ) {
    await this.attachments.remove(issueContext(me, ws, project), issueId, id, 'app');
  }
}

/** The form parts of the legacy asset uploads, for the OpenAPI document. */
const LEGACY_PARTS = {
  asset: {
    name: 'asset',
    file: true,
    required: true,
    description: "The image; its part's Content-Type (JPEG, PNG, WebP or GIF) is its type.",
  },
  attributes: {
    name: 'attributes',
    description: 'Optional JSON object; its `name` is shown instead of the file name.',
  },
};

/**
 * Plane's pre-v2 asset routes (`plane/app/views/asset/base.py` `UserAssetsEndpoint`,
 * `FileAssetEndpoint`, `FileAssetViewSet`): by storage key, the caller's own (users) or a workspace's
 * they are a member of (else 404 WORKSPACE_NOT_FOUND), which the web app still calls for images
 * uploaded before 0.24; and the multipart uploads (`POST`, the file in `asset`), which the web app
 * 0.25.3 no longer calls (it uses the v2 routes) but older clients do.
 */
@Controller()
@BearerAuth()
export class AppLegacyAssetsController {
  constructor(
    private readonly assets: LegacyAssetService,
    private readonly files: AttachmentService,
  ) {}

  /**
   * 201 with Plane's `FileAssetSerializer` and `asset_url` (the public static read): the caller's
   * image, stored and marked uploaded at once, found afterwards by its `asset` key under
   * `users/file-assets/{asset_key}/`. Multipart: the file in `asset`; `entity_type` `USER_AVATAR`
   * (default) or `USER_COVER` (else 400 INVALID_ENTITY_TYPE); `attributes` (JSON, its `name`). It
   * does not change the avatar or cover (as Plane: the client saves the URL on the user). JPEG, PNG,
   * WebP or GIF (else 400 ATTACHMENT_TYPE_NOT_ALLOWED); 400 FILE_REQUIRED / FILE_EMPTY; 413
   * ATTACHMENT_TOO_LARGE over `FILE_SIZE_LIMIT`; 415 for a body that is not a form.
   */
  @Post('users/file-assets')
  @HttpCode(201)
  @MultipartBody({
    parts: [
      LEGACY_PARTS.asset,
      { name: 'entity_type', enum: ['USER_AVATAR', 'USER_COVER'], description: 'Default `USER_AVATAR`.' },
      LEGACY_PARTS.attributes,
    ],
    status: 201,
    answer: "The asset: Plane's `FileAssetSerializer` with `asset_url`.",
  })
  async uploadUserAsset(@CurrentPrincipal() me: Principal, @Req() req: Request) {
    const { file, fields } = await readMultipartUpload(req, 'asset', this.files.sizeLimit);
    return this.assets.uploadUserAsset(me.userId, file, {
      entity_type: fields.entity_type,
      name: attributesName(fields),
    });
  }

  /**
   * 201 with Plane's `FileAssetSerializer` and `asset_url`: a file of the workspace, stored and
   * marked uploaded at once, found afterwards under `workspaces/file-assets/{workspace_id}/{asset_key}/`
   * (`asset` is `{workspace_id}/{asset_key}`). Any workspace member. Multipart: the file in `asset`;
   * `entity_type` as the v2 workspace route takes it, default `PAGE_DESCRIPTION` (an image outside
   * any project, read by members through `asset_url`); `WORKSPACE_LOGO` only for a workspace Admin
   * and `PROJECT_COVER` (`entity_identifier`: the project) only for its or the workspace's Admins
   * (403); `attributes` (JSON, its `name`). Errors as the user upload.
   */
  @Post('workspaces/:slug/file-assets')
  @HttpCode(201)
  @MultipartBody({
    parts: [
      LEGACY_PARTS.asset,
      {
        name: 'entity_type',
        enum: [
          'PAGE_DESCRIPTION',
          'ISSUE_DESCRIPTION',
          'COMMENT_DESCRIPTION',
          'DRAFT_ISSUE_DESCRIPTION',
          'WORKSPACE_LOGO',
          'PROJECT_COVER',
          'USER_AVATAR',
          'USER_COVER',
        ],
        description: 'Default `PAGE_DESCRIPTION`.',
      },
      { name: 'entity_identifier', description: 'For `PROJECT_COVER`: the project.' },
      LEGACY_PARTS.attributes,
    ],
    status: 201,
    answer: "The asset: Plane's `FileAssetSerializer` with `asset_url`.",
  })
  async uploadWorkspaceAsset(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Req() req: Request,
  ) {
    const { file, fields } = await readMultipartUpload(req, 'asset', this.files.sizeLimit);
    return this.assets.uploadWorkspaceAsset(workspaceScope(me, ws), file, {
      entity_type: fields.entity_type,
      entity_identifier: fields.entity_identifier,
      name: attributesName(fields),
    });
  }

  /** 200 `{data, status: true}`, or `{error: 'Asset key does not exist', status: false}` (200, as Plane). */
  @Get('users/file-assets/:asset_key')
  userAsset(@CurrentPrincipal() me: Principal, @Param('asset_key') key: string) {
    return this.assets.legacyUserAsset(me.userId, key);
  }

  /** 204: soft delete; 404 for a key the caller has no asset under. */
  @Delete('users/file-assets/:asset_key')
  @HttpCode(204)
  async deleteUserAsset(@CurrentPrincipal() me: Principal, @Param('asset_key') key: string) {
    await this.assets.legacyDelete(me.userId, key);
  }

  /** 200 `{data: [...], status: true}`, or `{error, status: false}`. */
  @Get('workspaces/file-assets/:workspace_id/:asset_key')
  workspaceAssets(
    @CurrentPrincipal() me: Principal,
    @Param('workspace_id', UuidPipe) workspaceId: string,
    @Param('asset_key') key: string,
  ) {
    return this.assets.legacyWorkspaceAssets(me.userId, workspaceId, key);
  }

  /** 204: soft delete; 404 when the workspace has no asset under the key. */
  @Delete('workspaces/file-assets/:workspace_id/:asset_key')
  @HttpCode(204)
  async deleteWorkspaceAsset(
    @CurrentPrincipal() me: Principal,
    @Param('workspace_id', UuidPipe) workspaceId: string,
    @Param('asset_key') key: string,
  ) {
    await this.assets.legacyDelete(me.userId, key, workspaceId);
  }

  /** 204: un-deletes; 404 when the workspace has no asset under the key. */
  @Post('workspaces/file-assets/:workspace_id/:asset_key/restore')
  @HttpCode(204)
  async restoreWorkspaceAsset(
    @CurrentPrincipal() me: Principal,
    @Param('workspace_id', UuidPipe) workspaceId: string,
    @Param('asset_key') key: string,
  ) {
    await this.assets.legacyRestore(me.userId, workspaceId, key);
  }
}
