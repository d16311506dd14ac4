import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { IssueChildrenService, IssueQueryService } from '../issue';
import { ProjectMemberService, ProjectService } from '../project';
import { UserProfileService } from '../user';
import { WorkspaceService } from '../workspace';
import { AssetPatch, AssetScope, AttachmentRepository } from './attachment.repository';
import { AttachmentService } from './attachment.service';
import { ASSET_ENTITY_TYPES, assetUrl, DESCRIPTION_ENTITY_TYPES, IMAGE_MIME_TYPES, staticAssetId } from './asset.view';
import { FileAsset, FileAttributes } from './file-asset.entity';

/** `POST` body of the v2 asset routes (the web app's `TFileEntityInfo` and `TFileMetaDataLite`). */
export interface CreateAssetInput {
  name: string;
  /** default `image/jpeg` (Plane) */
  type?: string;
  size: number;
  entity_type: string;
  /** the entity the asset belongs to; '' when it does not exist yet (linked later by the bulk route) */
  entity_identifier?: string | null;
}

/** The caller at a workspace route: the workspace of `{slug}` and their workspace role. */
export interface WorkspaceAssetScope {
  workspaceId: string;
  slug: string;
  userId: string;
  role: number;
}

/** The caller at a project route: also the project of `{project_id}` and their project role. */
export interface ProjectAssetScope extends WorkspaceAssetScope {
  projectId: string;
  projectRole: number | null;
}

/** The image columns an uploaded asset fills (Plane's `avatar_asset`, `cover_image_asset`, `logo_asset`). */
export type ImageSlot = 'user.avatar' | 'user.coverImage' | 'workspace.logo' | 'project.coverImage';

const ADMIN = 20;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A published board's project, as its visitors' uploads need it (Plane `plane/space/views/asset.py`). */
export interface BoardAssetScope {
  workspaceId: string;
  projectId: string;
  anchor: string;
  /** the signed-in visitor (writes only) */
  userId: string;
}

/** Entity types each route creates (the others → 400 INVALID_ENTITY_TYPE). */
export const USER_TYPES = ['USER_AVATAR', 'USER_COVER'];
export const WORKSPACE_TYPES = [
  'WORKSPACE_LOGO',
  'PROJECT_COVER',
  'USER_AVATAR',
  'USER_COVER',
  ...DESCRIPTION_ENTITY_TYPES,
];
export const PROJECT_TYPES = ['PROJECT_COVER', ...DESCRIPTION_ENTITY_TYPES];
/** What a board's visitor uploads: images in a comment or in a work item they submit. */
export const BOARD_TYPES = ['COMMENT_DESCRIPTION', 'ISSUE_DESCRIPTION'];

/**
 * What the upload services share (`AssetService`: the v2 user, workspace and project routes;
 * `BoardAssetService`: a published board's visitors; `LegacyAssetService`: the pre-v2 routes): the
 * checks of a new image (entity type, MIME type, size), the new rows, where an asset points
 * (`link`), who may change a logo or cover, the PATCH that marks an upload done, and putting an
 * image in place. Errors as `AssetService` documents them.
 */
@Injectable()
export class AssetCore {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly files: AttachmentService,
    private readonly repo: AttachmentRepository,
    private readonly issues: IssueQueryService,
    private readonly comments: IssueChildrenService,
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly projectMembers: ProjectMemberService,
  ) {}

  /** The entity type must be one the route takes, the type an image, the size within the limit. */
  checkImage(input: CreateAssetInput, entityTypes: readonly string[]): { type: string; name: string } {
    if (
      !(ASSET_ENTITY_TYPES as readonly string[]).includes(input.entity_type) ||
      !entityTypes.includes(input.entity_type)
    )
      throw new MeridianError('INVALID_ENTITY_TYPE', undefined, { allowed_entity_types: entityTypes });
    const type = (input.type ?? '').trim().toLowerCase() || 'image/jpeg';
    if (!IMAGE_MIME_TYPES.includes(type))
      throw new MeridianError(
        'ATTACHMENT_TYPE_NOT_ALLOWED',
        'Invalid file type. Only JPEG, PNG, WebP and GIF files are allowed.',
        {
          allowed_types: IMAGE_MIME_TYPES,
        },
      );
    this.files.assertSize(input.size);
    return { type, name: this.files.keyName(input.name) };
  }

  /** A new avatar or cover image row of the user (not uploaded). */
  insertUserAsset(userId: string, input: CreateAssetInput, type: string, name: string): Promise<FileAsset> {
    return this.repo.insert(
      this.repo.manager,
      this.repo.manager.create(FileAsset, {
        ...this.row(input, type, `user-${hex()}-${name}`, userId),
        workspaceId: null,
        userId,
        entityIdentifier: userId,
      }),
    );
  }

  /**
   * A new asset row of the workspace (not uploaded): a logo only by a workspace Admin (403) and for
   * this workspace (404), a project cover only by that project's or the workspace's Admins.
   */
  insertWorkspaceAsset(
    scope: WorkspaceAssetScope,
    input: CreateAssetInput,
    type: string,
    name: string,
  ): Promise<FileAsset> {
    const id = (input.entity_identifier ?? '').trim() || null;
    return this.dataSource.transaction(async (em) => {
      const link: AssetPatch = { entityIdentifier: id };
      if (input.entity_type === 'WORKSPACE_LOGO') {
        if (id !== null && id.toLowerCase() !== scope.workspaceId) throw new MeridianError('NOT_FOUND');
        if (scope.role < ADMIN) throw new MeridianError('PERMISSION_DENIED');
        link.entityIdentifier = scope.workspaceId;
      } else if (input.entity_type === 'PROJECT_COVER' && id !== null) {
        await this.assertCoverEditor(em, scope, id);
        link.projectId = id.toLowerCase();
      }
      return this.repo.insert(
        em,
        em.create(FileAsset, {
          ...this.row(input, type, `${scope.workspaceId}/${hex()}-${name}`, scope.userId),
          workspaceId: scope.workspaceId,
          userId: scope.userId,
          ...link,
        }),
      );
    });
  }

  row(input: CreateAssetInput, type: string, key: string, userId: string): Partial<FileAsset> {
    const name = input.name.trim();
    return {
      attributes: { name, type, size: input.size },
      asset: key.slice(0, 800),
      size: input.size,
      entityType: input.entity_type,
      createdById: userId,
      updatedById: userId,
    };
  }

  async created(asset: FileAsset, slug: string | null): Promise<Record<string, unknown>> {
    return {
      upload_data: await this.files.uploadTarget(asset, true),
      asset_id: asset.id,
      asset_url: assetUrl(asset, slug),
    };
  }

  /**
   * Where the new asset points: a work item (`ISSUE_DESCRIPTION`, `ISSUE_ATTACHMENT`) or comment
   * (`COMMENT_DESCRIPTION`) of the project, else 404; the project itself for a cover (project or
   * workspace Admin, else 403); other types keep the identifier as given.
   */
  async link(em: EntityManager, scope: ProjectAssetScope, type: string, id: string | null): Promise<AssetPatch> {
    if (type === 'PROJECT_COVER') {
      await this.assertCoverEditor(em, scope, scope.projectId);
      return { entityIdentifier: scope.projectId };
    }
    if (id === null) return { entityIdentifier: null };
    if (
      !UUID.test(id) &&
      (type === 'ISSUE_DESCRIPTION' || type === 'ISSUE_ATTACHMENT' || type === 'COMMENT_DESCRIPTION')
    )
      throw new MeridianError('NOT_FOUND');
    const key = id.toLowerCase();
    if (type === 'ISSUE_DESCRIPTION' || type === 'ISSUE_ATTACHMENT') {
      const guest = (scope.projectRole ?? 0) <= 5 ? scope.userId : undefined;
      if (!(await this.issues.nonDraftIssue(scope.projectId, key, { em, guestViewerId: guest })))
        throw new MeridianError('NOT_FOUND');
      return { issueId: key, entityIdentifier: key };
    }
    if (type === 'COMMENT_DESCRIPTION') {
      if (!(await this.comments.commentOfProject(scope.projectId, key, em))) throw new MeridianError('NOT_FOUND');
      return { commentId: key, entityIdentifier: key };
    }
    return { entityIdentifier: id };
  }

  /** A project's cover is changed by its Admins and the workspace's (Plane: project update is Admin-only). */
  async assertCoverEditor(em: EntityManager, scope: WorkspaceAssetScope, projectId: string): Promise<void> {
    if (!UUID.test(projectId)) throw new MeridianError('NOT_FOUND');
    const role = await this.projectMembers.roleInLiveProject(
      scope.workspaceId,
      projectId.toLowerCase(),
      scope.userId,
      em,
    );
    if (role === undefined) throw new MeridianError('NOT_FOUND');
    if ((role ?? 0) < ADMIN && scope.role < ADMIN) throw new MeridianError('PERMISSION_DENIED');
  }

  /** A logo is the workspace Admins'; a project's cover its Admins'; other assets any member's. */
  async assertMayChange(em: EntityManager, scope: WorkspaceAssetScope, a: FileAsset): Promise<void> {
    if (a.entityType === 'WORKSPACE_LOGO' && scope.role < ADMIN) throw new MeridianError('PERMISSION_DENIED');
    if (a.entityType === 'PROJECT_COVER' && a.projectId) await this.assertCoverEditor(em, scope, a.projectId);
  }

  /**
   * PATCH: the asset in `where` (else 404), its file stored (else 400 ATTACHMENT_NOT_UPLOADED),
   * marked uploaded with the client's `attributes` if given, and `then` in the same transaction.
   */
  async complete(
    assetId: string,
    where: AssetScope,
    actorId: string,
    attributes: Partial<FileAttributes> | undefined,
    then?: (em: EntityManager, a: FileAsset) => Promise<void>,
  ): Promise<void> {
    const pending = await this.found(this.repo.manager, assetId, where);
    if (!pending.isUploaded) await this.files.assertStored(pending);
    await this.dataSource.transaction(async (em) => {
      const a = await this.found(em, assetId, where, true);
      const patch: AssetPatch = { isUploaded: true, updatedById: actorId };
      // only the display name: the type and size stay those the upload was signed for
      if (attributes?.name) patch.attributes = { ...a.attributes, name: attributes.name };
      await this.repo.update(em, [a.id], patch);
      if (then) await then(em, a);
    });
  }

  /**
   * Puts the asset's URL in the image column; the asset it replaces is soft-deleted when it is one of
   * Meridian's inside `owner` (the same user, workspace or project: never someone else's).
   */
  async putImage(
    em: EntityManager,
    slot: ImageSlot,
    id: string,
    a: FileAsset,
    userId: string,
    owner: AssetScope,
  ): Promise<void> {
    const previous = staticAssetId(await this.imageOf(em, slot, id));
    if (previous && previous !== a.id) {
      const old = await this.repo.findAsset(em, previous, owner);
      if (old?.entityType === a.entityType) await this.repo.softDelete(em, [old.id], userId);
    }
    await this.setImage(em, slot, id, assetUrl(a, null));
  }

  /** The URL an image column holds (null when unset or the row is gone), through its room's door. */
  imageOf(em: EntityManager, slot: ImageSlot, id: string): Promise<string | null> {
    switch (slot) {
      case 'user.avatar':
        return this.users.image(id, 'avatar', em);
      case 'user.coverImage':
        return this.users.image(id, 'coverImage', em);
      case 'workspace.logo':
        return this.workspaces.logo(id, em);
      case 'project.coverImage':
        return this.projects.coverImage(id, em);
    }
  }

  /** Sets an image column through its room's door; `onlyIf`: only while it still holds that URL. */
  setImage(em: EntityManager, slot: ImageSlot, id: string, url: string | null, onlyIf?: string): Promise<void> {
    switch (slot) {
      case 'user.avatar':
        return this.users.setImage(id, 'avatar', url, onlyIf, em);
      case 'user.coverImage':
        return this.users.setImage(id, 'coverImage', url, onlyIf, em);
      case 'workspace.logo':
        return this.workspaces.setLogo(id, url, onlyIf, em);
      case 'project.coverImage':
        return this.projects.setCoverImage(id, url, onlyIf, em);
    }
  }

  async found(
    em: EntityManager,
    assetId: string,
    where: { userId?: string; workspaceId?: string; projectId?: string; withDeleted?: boolean },
    lock = false,
  ): Promise<FileAsset> {
    const a = await this.repo.findAsset(em, assetId, where, lock);
    if (!a) throw new MeridianError('NOT_FOUND');
    return a;
  }

  async assertMember(workspaceId: string, userId: string): Promise<void> {
    if (!UUID.test(workspaceId) || !(await this.workspaces.isActiveMember(workspaceId.toLowerCase(), userId)))
      throw new MeridianError('WORKSPACE_NOT_FOUND');
  }
}

/** 32 random hex digits, the unique part of a new asset's storage key. */
export function hex(): string {
  return randomUUID().replace(/-/g, '');
}
