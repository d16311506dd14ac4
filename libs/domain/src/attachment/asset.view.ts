import { FileAsset } from './file-asset.entity';
import { attachmentView } from './attachment.view';

/** Plane's `FileAsset.EntityTypeContext` (`plane/db/models/asset.py`). */
export const ASSET_ENTITY_TYPES = [
  'ISSUE_ATTACHMENT',
  'ISSUE_DESCRIPTION',
  'COMMENT_DESCRIPTION',
  'PAGE_DESCRIPTION',
  'USER_COVER',
  'USER_AVATAR',
  'WORKSPACE_LOGO',
  'PROJECT_COVER',
  'DRAFT_ISSUE_ATTACHMENT',
  'DRAFT_ISSUE_DESCRIPTION',
] as const;
export type AssetEntityType = (typeof ASSET_ENTITY_TYPES)[number];

/** The entity types read through the public `/api/assets/v2/static/{id}/` (Plane's `StaticFileAssetEndpoint`). */
export const STATIC_ENTITY_TYPES: readonly string[] = ['USER_AVATAR', 'USER_COVER', 'WORKSPACE_LOGO', 'PROJECT_COVER'];

/** The images in editors' descriptions, read through the workspace or project asset routes. */
export const DESCRIPTION_ENTITY_TYPES: readonly string[] = [
  'ISSUE_DESCRIPTION',
  'COMMENT_DESCRIPTION',
  'PAGE_DESCRIPTION',
  'DRAFT_ISSUE_DESCRIPTION',
];

/** Content types of avatars, covers, logos and description images (Plane's v2 asset views: `allowed_types`). */
export const IMAGE_MIME_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/jpg', 'image/gif'];

/** The path of the static read of an asset: `/api/assets/v2/static/{id}/`. */
export const STATIC_ASSET_PATH = '/api/assets/v2/static/';

/**
 * Plane's `FileAsset.asset_url`: where the web app reads the asset: the public static read for
 * avatars, covers and logos, the attachment route for attachments, the project (or, for an image
 * outside any project, the workspace) asset route for description images; null otherwise.
 */
export function assetUrl(a: FileAsset, slug: string | null): string | null {
  if (STATIC_ENTITY_TYPES.includes(a.entityType)) return `${STATIC_ASSET_PATH}${a.id}/`;
  if (slug === null) return null;
  const ws = `/api/assets/v2/workspaces/${slug}`;
  if (a.entityType === 'ISSUE_ATTACHMENT')
    return `${ws}/projects/${a.projectId}/issues/${a.issueId}/attachments/${a.id}/`;
  if (DESCRIPTION_ENTITY_TYPES.includes(a.entityType))
    return a.projectId ? `${ws}/projects/${a.projectId}/${a.id}/` : `${ws}/${a.id}/`;
  return null;
}

/** The asset id behind a static read URL Meridian handed out (`/api/assets/v2/static/{id}/`), else null. */
export function staticAssetId(url: string | null | undefined): string | null {
  const m = url ? /^\/api\/assets\/v2\/static\/([0-9a-f-]{36})\/$/i.exec(url) : null;
  return m ? m[1].toLowerCase() : null;
}

/** Plane's `IssueAttachmentSerializer` and `FileAssetSerializer` (the App API): every field and `asset_url`. */
export function appAttachmentView(a: FileAsset, slug: string | null): Record<string, unknown> {
  return { ...attachmentView(a), asset_url: assetUrl(a, slug) };
}

/** A file name fit for a storage key: no path separators or control characters; '' when nothing is left. */
export function storageName(name: string): string {
  return [...name]
    .map((c) => (c === '/' || c === '\\' || c.charCodeAt(0) < 32 ? '_' : c))
    .join('')
    .trim();
}
