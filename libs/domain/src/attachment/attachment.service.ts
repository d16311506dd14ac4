import { APP_CONFIG, AppConfig, MeridianError, validationError } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { IssueQueryService, writeActivities } from '../issue';
import type { Issue, IssueContext } from '../issue';
import { found } from '../kernel/db-errors';
import { iso } from '../kernel/time';
import { assertProjectWritable } from '../kernel/project-writable';
import { AttachmentRepository } from './attachment.repository';
import { attachmentView } from './attachment.view';
import { appAttachmentView, assetUrl, storageName } from './asset.view';
import { FileAsset } from './file-asset.entity';
import {
  OBJECT_STORAGE,
  ObjectStorage,
  SignedObject,
  SignedOperation,
  UploadTarget,
  UrlSigner,
} from './object-storage';

/**
 * Content types a work item attachment may have (Plane's `ATTACHMENT_MIME_TYPES`, settings/common.py):
 * images, documents, audio, video, archives, 3D, fonts and text.
 */
export const ATTACHMENT_MIME_TYPES: readonly string[] = [
  'image/jpeg',
  'image/png',
  'image/gif',
  'image/svg+xml',
  'image/webp',
  'image/tiff',
  'image/bmp',
  'application/pdf',
  'application/msword',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/vnd.ms-excel',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  'application/vnd.ms-powerpoint',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  'text/plain',
  'application/rtf',
  'application/vnd.oasis.opendocument.spreadsheet',
  'application/vnd.oasis.opendocument.text',
  'application/vnd.oasis.opendocument.presentation',
  'application/vnd.oasis.opendocument.graphics',
  'audio/mpeg',
  'audio/wav',
  'audio/ogg',
  'audio/midi',
  'audio/x-midi',
  'audio/aac',
  'audio/flac',
  'audio/x-m4a',
  'video/mp4',
  'video/mpeg',
  'video/ogg',
  'video/webm',
  'video/quicktime',
  'video/x-msvideo',
  'video/x-ms-wmv',
  'application/zip',
  'application/x-rar-compressed',
  'application/x-tar',
  'application/gzip',
  'model/gltf-binary',
  'model/gltf+json',
  'application/octet-stream',
  'font/ttf',
  'font/otf',
  'font/woff',
  'font/woff2',
  'text/css',
  'text/javascript',
  'application/json',
  'text/xml',
  'text/csv',
  'application/xml',
  'application/x-sql',
  'text/x-python',
  'text/x-java-source',
  'text/x-c',
  'text/x-c++src',
  'text/markdown',
];

/** Lifetime of signed upload and download URLs, in seconds (Plane: 3600 for uploads). */
export const UPLOAD_URL_TTL = 3600;
export const DOWNLOAD_URL_TTL = 300;

export interface CreateAttachmentInput {
  name: string;
  type?: string;
  size: number;
  external_id?: string | null;
  external_source?: string | null;
}

/** A file the server received whole (a multipart upload): its file name, declared content type and bytes. */
export interface ReceivedFile {
  name: string;
  /** the part's `Content-Type`, parameters and case as sent */
  type: string;
  data: Buffer;
}

/** A content type without its parameters, lower case (`Text/Plain; charset=utf-8` → `text/plain`). */
export function mediaType(type: string): string {
  return type.split(';')[0].trim().toLowerCase();
}

/**
 * Which API calls: the v1 routes, or the App's `/api/assets/v2/…/attachments/` (Plane's
 * `IssueAttachmentV2Endpoint`: Guests upload to the work items they may see, the upload is a
 * multipart form as to S3, the answers carry `asset_url`, deleting is for the uploader or an Admin).
 */
export type AttachmentSurface = 'v1' | 'app';

/** A project Guest's id (Plane's Guest rule narrows what they see), else undefined. */
function guestOf(ctx: { userId: string; role: number | null }): string | undefined {
  return (ctx.role ?? 0) <= 5 ? ctx.userId : undefined;
}

function signed(a: FileAsset): SignedObject {
  return { id: a.id, key: a.asset, contentType: a.attributes.type, size: a.size, name: a.attributes.name };
}

/**
 * Work item attachments (Plane `plane/api/views/issue.py` IssueAttachmentEndpoint; the SDK's
 * `plane-node-sdk/dist/api/WorkItems/Attachments.js`):
 * Plane's two-step upload. `create` records the asset (not uploaded) and returns where to upload;
 * `complete` checks the object in storage and marks it uploaded, writing the work item's history
 * (`verb: created, field: attachment`) in the same transaction; `remove` soft-deletes, writes
 * history (`verb: deleted, field: attachment`) and removes the object.
 * Errors: unknown work item or attachment of the project → 404 NOT_FOUND; type not allowed → 400
 * ATTACHMENT_TYPE_NOT_ALLOWED; size over `FILE_SIZE_LIMIT` → 413 ATTACHMENT_TOO_LARGE (Plane clamps
 * silently; Meridian refuses); completing before the object is stored, or with another size → 400
 * ATTACHMENT_NOT_UPLOADED; downloading one not uploaded → 400 ATTACHMENT_NOT_UPLOADED.
 */
@Injectable()
export class AttachmentService {
  readonly signer: UrlSigner;

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    @Inject(OBJECT_STORAGE) private readonly storage: ObjectStorage,
    private readonly attachments: AttachmentRepository,
    private readonly issues: IssueQueryService,
  ) {
    this.signer = new UrlSigner(config.secret.key);
  }

  /** bytes */
  get sizeLimit(): number {
    return Number(this.config.instanceEnv.FILE_SIZE_LIMIT ?? 5_242_880);
  }

  /**
   * Uploaded, live attachments of the work item, oldest first: a bare array. With `app` (the App
   * API), Plane's `IssueAttachmentSerializer` with `asset_url`, on a work item the caller may see.
   */
  async list(
    projectId: string,
    issueId: string,
    app?: { slug: string; userId: string; role: number | null },
  ): Promise<Record<string, unknown>[]> {
    await this.issue(this.dataSource.manager, projectId, issueId, app && guestOf(app));
    const rows = await this.attachments.listAttachments(projectId, issueId);
    return app ? rows.map((a) => appAttachmentView(a, app.slug)) : rows.map(attachmentView);
  }

  /**
   * `expand=issue_attachments` on the App API's work item detail (Plane's `DynamicBaseSerializer`,
   * `plane/app/serializers/base.py`): the work item's uploaded attachments, oldest first, each
   * Plane's `IssueAttachmentLiteSerializer` `{id, asset, attributes, created_by, updated_at,
   * updated_by, asset_url}`. The caller has already read the work item (no visibility check here).
   * Plane lists uploads not yet confirmed too; Meridian leaves them out, as its `attachments/` list does.
   */
  async expandedAttachments(projectId: string, issueId: string, slug: string): Promise<Record<string, unknown>[]> {
    const rows = await this.attachments.listAttachments(projectId, issueId);
    return rows.map((a) => ({
      id: a.id,
      asset: a.asset,
      attributes: a.attributes,
      created_by: a.createdById,
      updated_at: iso(a.updatedAt),
      updated_by: a.updatedById,
      asset_url: assetUrl(a, slug),
    }));
  }

  /**
   * `{upload_data: {url, method, fields}, asset_id, attachment, asset_url}` (200, as Plane). The App
   * surface needs a `type` (Plane: 400 without one); v1 takes `application/octet-stream` then.
   */
  async create(
    ctx: IssueContext,
    slug: string,
    issueId: string,
    input: CreateAttachmentInput,
    surface: AttachmentSurface = 'v1',
  ): Promise<Record<string, unknown>> {
    const app = surface === 'app';
    const type = (input.type ?? '').trim().toLowerCase() || (app ? '' : 'application/octet-stream');
    if (!ATTACHMENT_MIME_TYPES.includes(type))
      throw new MeridianError('ATTACHMENT_TYPE_NOT_ALLOWED', undefined, { allowed_types: ATTACHMENT_MIME_TYPES });
    this.assertSize(input.size);
    const name = this.keyName(input.name);
    const asset = await this.insert(ctx, issueId, { ...input, name, type }, name, app ? guestOf(ctx) : undefined);
    const upload = await this.uploadTarget(asset, app);
    if (app)
      return {
        upload_data: upload,
        asset_id: asset.id,
        attachment: appAttachmentView(asset, slug),
        asset_url: assetUrl(asset, slug),
      };
    return {
      upload_data: upload,
      asset_id: asset.id,
      attachment: attachmentView(asset),
      asset_url: `/api/v1/workspaces/${slug}/projects/${ctx.projectId}/work-items/${issueId}/attachments/${asset.id}/`,
    };
  }

  /**
   * Plane's pre-v2 multipart upload (`IssueAttachmentEndpoint.post`): the file arrives whole, is
   * stored, and the attachment is marked uploaded with its history in one go; answers Plane's
   * `IssueAttachmentSerializer` with `asset_url`. `file.type` from Plane's `ATTACHMENT_MIME_TYPES`
   * (else 400 ATTACHMENT_TYPE_NOT_ALLOWED); over `FILE_SIZE_LIMIT` → 413 ATTACHMENT_TOO_LARGE; a work
   * item outside the project, or one a Guest may not see → 404. `displayName` (the client's
   * `attributes.name`) names it; the storage key takes the file's own name.
   */
  async upload(
    ctx: IssueContext,
    slug: string,
    issueId: string,
    file: ReceivedFile,
    displayName?: string,
  ): Promise<Record<string, unknown>> {
    const type = mediaType(file.type);
    if (!ATTACHMENT_MIME_TYPES.includes(type))
      throw new MeridianError('ATTACHMENT_TYPE_NOT_ALLOWED', undefined, { allowed_types: ATTACHMENT_MIME_TYPES });
    this.assertSize(file.data.length);
    const keyName = this.keyName(file.name);
    const name = displayName?.trim() || file.name.trim();
    const guest = guestOf(ctx);
    const pending = await this.insert(ctx, issueId, { name, type, size: file.data.length }, keyName, guest);
    await this.storeReceived(pending, file.data, ctx.userId);
    const saved = await this.markUploaded(ctx, issueId, pending.id, guest);
    return appAttachmentView(saved, slug);
  }

  /**
   * Stores the bytes of a file received whole for a new asset row (not yet uploaded). If storing
   * fails, the row is soft-deleted (it would never be uploaded) and the error goes on.
   */
  async storeReceived(a: FileAsset, data: Buffer, userId: string): Promise<void> {
    try {
      await this.storage.put(a.asset, data, a.attributes.type);
    } catch (err) {
      await this.attachments.softDelete(this.dataSource.manager, [a.id], userId).catch(() => undefined);
      throw err;
    }
  }

  /** 422 unless `size` is a whole number of bytes from 1; 413 ATTACHMENT_TOO_LARGE over `FILE_SIZE_LIMIT`. */
  assertSize(size: number): void {
    if (!Number.isInteger(size) || size < 1)
      throw validationError({ size: ['Must be a whole number of bytes, at least 1.'] });
    if (size > this.sizeLimit)
      throw new MeridianError('ATTACHMENT_TOO_LARGE', undefined, { file_size_limit: this.sizeLimit });
  }

  /** The file name for the storage key (no path separators or control characters); 422 when blank. */
  keyName(name: string): string {
    const clean = storageName(name);
    if (!clean) throw validationError({ name: ['This field may not be blank.'] });
    return clean;
  }

  /**
   * Where the client uploads the asset's file (signed for an hour); `form`: a multipart POST. A URL
   * Meridian serves itself (local store) is on `API_BASE_URL`, never the request's `Host`.
   */
  uploadTarget(a: FileAsset, form: boolean): Promise<UploadTarget> {
    return this.storage.uploadTarget(signed(a), UPLOAD_URL_TTL, this.config.apiBaseUrl, form);
  }

  /** A signed read URL of the asset's file (5 minutes), on `API_BASE_URL` for the local store. */
  readUrl(a: FileAsset): Promise<string> {
    return this.storage.downloadUrl(signed(a), DOWNLOAD_URL_TTL, this.config.apiBaseUrl);
  }

  /** 400 ATTACHMENT_NOT_UPLOADED unless the asset's object is in storage with the declared size. */
  async assertStored(a: FileAsset): Promise<void> {
    const size = await this.storage.size(a.asset);
    if (size === null)
      throw new MeridianError('ATTACHMENT_NOT_UPLOADED', 'The file has not been uploaded to storage yet.');
    if (size !== a.size)
      throw new MeridianError('ATTACHMENT_NOT_UPLOADED', `The stored file has ${size} bytes, ${a.size} were declared.`);
  }

  /**
   * `PATCH {is_uploaded: true}` (or no body): verifies the object is stored with the declared size,
   * marks the asset uploaded and writes history the first time. Returns the attachment.
   */
  async complete(
    ctx: IssueContext,
    issueId: string,
    assetId: string,
    surface: AttachmentSurface = 'v1',
  ): Promise<Record<string, unknown>> {
    const guest = surface === 'app' ? guestOf(ctx) : undefined;
    const pending = await this.asset(this.dataSource.manager, ctx.projectId, issueId, assetId, false, guest);
    if (!pending.isUploaded) await this.assertStored(pending);
    return attachmentView(await this.markUploaded(ctx, issueId, assetId, guest));
  }

  /** A signed download URL for an uploaded attachment (the route answers 302 to it). */
  async downloadUrl(
    projectId: string,
    issueId: string,
    assetId: string,
    viewer?: { userId: string; role: number | null },
  ): Promise<string> {
    const a = await this.asset(this.dataSource.manager, projectId, issueId, assetId, false, viewer && guestOf(viewer));
    if (!a.isUploaded) throw new MeridianError('ATTACHMENT_NOT_UPLOADED');
    return this.readUrl(a);
  }

  /**
   * Soft delete with history, then the object is removed from storage. On the App surface only its
   * uploader or a project Admin may (Plane: `allow_permission([ADMIN], creator=True)`), else 403.
   */
  async remove(ctx: IssueContext, issueId: string, assetId: string, surface: AttachmentSurface = 'v1'): Promise<void> {
    const app = surface === 'app';
    const removed = await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const a = await this.asset(em, ctx.projectId, issueId, assetId, true, app ? guestOf(ctx) : undefined);
      if (app && a.createdById !== ctx.userId && (ctx.role ?? 0) < 20) throw new MeridianError('PERMISSION_DENIED');
      await this.attachments.update(em, [a.id], { isDeleted: true, deletedAt: new Date(), updatedById: ctx.userId });
      if (a.isUploaded) {
        await writeActivities(em, ctx, [
          {
            issueId,
            verb: 'deleted',
            field: 'attachment',
            oldValue: a.attributes.name,
            oldIdentifier: a.id,
            comment: 'deleted an attachment',
          },
        ]);
      }
      return a;
    });
    await this.storage.delete(removed.asset);
  }

  /**
   * The live asset behind a signed URL (`op`), after checking `expires` and `signature`.
   * 403 INVALID_SIGNATURE / SIGNED_URL_EXPIRED, 404 NOT_FOUND for an unknown or deleted asset.
   */
  async signedAsset(
    op: SignedOperation,
    assetId: string,
    expires?: string,
    signature?: string,
  ): Promise<SignedObject & { uploaded: boolean }> {
    const verdict = this.signer.verify(op, assetId, expires, signature);
    if (verdict === 'invalid') throw new MeridianError('INVALID_SIGNATURE');
    if (verdict === 'expired') throw new MeridianError('SIGNED_URL_EXPIRED');
    const a = await this.attachments.findById(this.attachments.manager, assetId);
    if (!a) throw new MeridianError('NOT_FOUND');
    return { ...signed(a), uploaded: a.isUploaded };
  }

  /**
   * Stores the bytes of a signed upload: at most the declared size, else 413 ATTACHMENT_TOO_LARGE.
   * `formType`: a form upload's `Content-Type` field, which must be the declared type (as an S3
   * presigned POST's policy demands), else 400 ATTACHMENT_TYPE_NOT_ALLOWED.
   */
  async storeUpload(obj: SignedObject & { uploaded: boolean }, data: Buffer, formType?: string): Promise<void> {
    if (obj.uploaded) throw new MeridianError('CONFLICT', 'The attachment is already uploaded.');
    if (formType !== undefined && formType.trim().toLowerCase() !== obj.contentType)
      throw new MeridianError('ATTACHMENT_TYPE_NOT_ALLOWED', `The form's Content-Type must be ${obj.contentType}.`);
    if (data.length > obj.size)
      throw new MeridianError('ATTACHMENT_TOO_LARGE', `The declared size is ${obj.size} bytes.`);
    await this.storage.put(obj.key, data, obj.contentType);
  }

  /** The stored bytes of a signed download; 404 when the object is gone. */
  async readDownload(obj: SignedObject): Promise<Buffer> {
    const data = await this.storage.get(obj.key);
    if (!data) throw new MeridianError('NOT_FOUND');
    return data;
  }

  /** A new attachment row of the work item (not uploaded yet); 404 for a work item outside the project or hidden from a Guest. */
  private insert(
    ctx: IssueContext,
    issueId: string,
    input: CreateAttachmentInput & { type: string },
    keyName: string,
    guestViewerId?: string,
  ): Promise<FileAsset> {
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      await this.issue(em, ctx.projectId, issueId, guestViewerId);
      if (input.external_id && input.external_source) {
        const clash = await this.attachments.findByExternalId(em, issueId, input.external_id, input.external_source);
        if (clash) throw new MeridianError('EXTERNAL_ID_TAKEN', undefined, { id: clash.id });
      }
      const key = `${ctx.workspaceId}/${randomUUID().replace(/-/g, '')}-${keyName}`.slice(0, 800);
      return this.attachments.insert(
        em,
        em.create(FileAsset, {
          workspaceId: ctx.workspaceId,
          projectId: ctx.projectId,
          issueId,
          attributes: { name: input.name, type: input.type, size: input.size },
          asset: key,
          entityType: 'ISSUE_ATTACHMENT',
          entityIdentifier: issueId,
          size: input.size,
          externalId: input.external_id ?? null,
          externalSource: input.external_source ?? null,
          userId: ctx.userId,
          createdById: ctx.userId,
          updatedById: ctx.userId,
        }),
      );
    });
  }

  /** Marks a stored attachment uploaded and writes the work item's history, once; the row after. */
  private markUploaded(
    ctx: IssueContext,
    issueId: string,
    assetId: string,
    guestViewerId?: string,
  ): Promise<FileAsset> {
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const a = await this.asset(em, ctx.projectId, issueId, assetId, true, guestViewerId);
      if (a.isUploaded) return a;
      await this.attachments.update(em, [a.id], { isUploaded: true, updatedById: ctx.userId });
      await writeActivities(em, ctx, [
        {
          issueId,
          verb: 'created',
          field: 'attachment',
          newValue: a.attributes.name,
          newIdentifier: a.id,
          comment: 'uploaded a new attachment',
        },
      ]);
      return found(this.attachments.findById(em, a.id));
    });
  }

  private async issue(em: EntityManager, projectId: string, issueId: string, guestViewerId?: string): Promise<Issue> {
    const issue = await this.issues.nonDraftIssue(projectId, issueId, { em, guestViewerId });
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  private async asset(
    em: EntityManager,
    projectId: string,
    issueId: string,
    assetId: string,
    lock = false,
    guestViewerId?: string,
  ): Promise<FileAsset> {
    await this.issue(em, projectId, issueId, guestViewerId);
    const a = await this.attachments.findAttachment(em, projectId, issueId, assetId, lock);
    if (!a) throw new MeridianError('NOT_FOUND');
    return a;
  }
}
