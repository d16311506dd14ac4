import { iso } from '../kernel/time';
import { FileAsset } from './file-asset.entity';

/** `FileAsset` as Plane's serializer writes it; `asset` is the storage key. */
export function attachmentView(a: FileAsset): Record<string, unknown> {
  return {
    id: a.id,
    created_at: iso(a.createdAt),
    updated_at: iso(a.updatedAt),
    deleted_at: iso(a.deletedAt),
    attributes: a.attributes,
    asset: a.asset,
    entity_type: a.entityType,
    entity_identifier: a.entityIdentifier,
    is_deleted: a.isDeleted,
    is_archived: a.isArchived,
    external_id: a.externalId,
    external_source: a.externalSource,
    size: a.size,
    is_uploaded: a.isUploaded,
    storage_metadata: a.storageMetadata,
    created_by: a.createdById,
    updated_by: a.updatedById,
    user: a.userId,
    workspace: a.workspaceId,
    draft_issue: null,
    project: a.projectId,
    issue: a.issueId,
    comment: a.commentId,
    page: null,
  };
}
