import {
  ApiKeyAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  MeridianError,
  Principal,
  ProjectAccess,
  Public,
  UuidPipe,
  validationError,
  WorkspaceAccess,
} from '#common';
import { AttachmentService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Put, Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { FORM_OVERHEAD, parseForm, readBody } from '../shared/multipart';
import { CompleteAttachmentDto, CreateAttachmentDto } from './dto/attachment.dto';

const PROJECT = 'workspaces/:slug/projects/:project_id';

/**
 * Work item attachments (Plane `plane/api/views/issue.py` IssueAttachmentEndpoint; the SDK's
 * `plane-node-sdk/dist/api/WorkItems/Attachments.js`), under Plane 0.25.3's
 * `issues/{id}/issue-attachments/` and Plane CE's `work-items/{id}/attachments/`.
 * Reads need a project membership, writes role ≥ 15. Another project's work item or attachment → 404.
 */
@Controller([`${PROJECT}/work-items/:issue_id/attachments`, `${PROJECT}/issues/:issue_id/issue-attachments`])
@ApiKeyAuth()
export class WorkItemAttachmentsController {
  constructor(private readonly attachments: AttachmentService) {}

  /** Uploaded attachments, a bare array (Plane's serializer fields). */
  @Get()
  list(@CurrentProject() project: ProjectAccess, @Param('issue_id', UuidPipe) issueId: string) {
    return this.attachments.list(project.projectId, issueId);
  }

  /**
   * Step 1 of the upload: 200 `{upload_data: {url, method, fields}, asset_id, attachment, asset_url}`.
   * With the local store, `upload_data.url` is Meridian's own signed URL: `PUT` the raw bytes there
   * within an hour. 400 ATTACHMENT_TYPE_NOT_ALLOWED, 413 ATTACHMENT_TOO_LARGE, 422 for a bad body.
   */
  @Post()
  @HttpCode(200)
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('slug') slug: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CreateAttachmentDto,
  ) {
    return this.attachments.create(
      { workspaceId: ws.workspaceId, projectId: project.projectId, userId: me.userId, role: project.role },
      slug,
      issueId,
      body,
    );
  }

  /**
   * Step 2: `{is_uploaded: true}` (or no body) → 200 with the attachment, once its file is in storage
   * with the declared size (400 ATTACHMENT_NOT_UPLOADED otherwise). Writes history the first time.
   */
  @Patch(':asset_id')
  complete(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('asset_id', UuidPipe) assetId: string,
    @Body() body: CompleteAttachmentDto,
  ) {
    if (body.is_uploaded === false)
      throw validationError({ is_uploaded: ['An uploaded attachment cannot be marked as not uploaded.'] });
    return this.attachments.complete(
      { workspaceId: ws.workspaceId, projectId: project.projectId, userId: me.userId, role: project.role },
      issueId,
      assetId,
    );
  }

  /** 302 to a signed download URL valid for 5 minutes; 400 ATTACHMENT_NOT_UPLOADED before step 2. */
  @Get(':asset_id')
  async retrieve(
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('asset_id', UuidPipe) assetId: string,
    @Res() res: Response,
  ) {
    res.redirect(302, await this.attachments.downloadUrl(project.projectId, issueId, assetId));
  }

  /** 204: soft delete with history; the file is removed from storage. */
  @Delete(':asset_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('asset_id', UuidPipe) assetId: string,
  ) {
    await this.attachments.remove(
      { workspaceId: ws.workspaceId, projectId: project.projectId, userId: me.userId, role: project.role },
      issueId,
      assetId,
    );
  }
}

/**
 * The local store's signed transfer URLs (`/api/v1/assets/{id}/upload/` and `download/`), handed
 * out by the attachment routes. Public: the HMAC signature (`expires`, `signature`) is the
 * credential; a missing or tampered one → 403 INVALID_SIGNATURE, an expired one → 403
 * SIGNED_URL_EXPIRED, an unknown or deleted asset → 404 NOT_FOUND.
 */
@Controller('assets/:asset_id')
@Public()
export class AssetTransferController {
  constructor(private readonly attachments: AttachmentService) {}

  /** `PUT` the raw bytes (at most the declared size, else 413 ATTACHMENT_TOO_LARGE) → 204. */
  @Put('upload')
  @HttpCode(204)
  async upload(
    @Param('asset_id', UuidPipe) assetId: string,
    @Query('expires') expires: string | undefined,
    @Query('signature') signature: string | undefined,
    @Req() req: Request,
  ) {
    const obj = await this.attachments.signedAsset('upload', assetId, expires, signature);
    if (req.readableEnded)
      throw new MeridianError(
        'UNSUPPORTED_MEDIA_TYPE',
        'Send the file as a raw body (for example application/octet-stream).',
      );
    const data = await readBody(req, obj.size);
    if (data === null) throw new MeridianError('ATTACHMENT_TOO_LARGE', `The declared size is ${obj.size} bytes.`);
    await this.attachments.storeUpload(obj, data);
  }

  /**
   * The same upload as a multipart form, as the web app posts to an S3 presigned POST: the form's
   * fields (`Content-Type`, which must be the declared type, else 400 ATTACHMENT_TYPE_NOT_ALLOWED;
   * `key`) and the file as `file` (at most the declared size, else 413 ATTACHMENT_TOO_LARGE) → 204.
   * Anything but `multipart/form-data` with a `file` part → 415 UNSUPPORTED_MEDIA_TYPE.
   */
  @Post('upload')
  @HttpCode(204)
  async uploadForm(
    @Param('asset_id', UuidPipe) assetId: string,
    @Query('expires') expires: string | undefined,
    @Query('signature') signature: string | undefined,
    @Req() req: Request,
  ) {
    const obj = await this.attachments.signedAsset('upload', assetId, expires, signature);
    const contentType = req.headers['content-type'] ?? '';
    if (!/^multipart\/form-data\s*;/i.test(contentType) || req.readableEnded)
      throw new MeridianError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with a `file` part.');
    // the form's fields and boundaries take a few hundred bytes beyond the file
    const body = await readBody(req, obj.size + FORM_OVERHEAD);
    if (body === null) throw new MeridianError('ATTACHMENT_TOO_LARGE', `The declared size is ${obj.size} bytes.`);
    const form = await parseForm(body, contentType);
    const file = form?.get('file');
    if (!form || !file || typeof file === 'string')
      throw new MeridianError('UNSUPPORTED_MEDIA_TYPE', 'Send the file as multipart/form-data with a `file` part.');
    const declared = form.get('Content-Type');
    await this.attachments.storeUpload(
      obj,
      Buffer.from(await file.arrayBuffer()),
      typeof declared === 'string' ? declared : undefined,
    );
  }

  /** The file, with its content type and an attachment disposition naming the original file. */
  @Get('download')
  async download(
    @Param('asset_id', UuidPipe) assetId: string,
    @Query('expires') expires: string | undefined,
    @Query('signature') signature: string | undefined,
    @Res() res: Response,
  ) {
    const obj = await this.attachments.signedAsset('download', assetId, expires, signature);
    const data = await this.attachments.readDownload(obj);
    res.setHeader('Content-Type', obj.contentType);
    res.setHeader('Content-Disposition', `attachment; filename*=UTF-8''${encodeURIComponent(obj.name)}`);
    res.setHeader('Cache-Control', 'private, no-store');
    res.status(200).end(data);
  }
}
