import { iso } from '../kernel/time';
import { PageVersion } from './page-version.entity';
import { Page } from './page.entity';

/** What a page's JSON needs beyond its row: the caller's favourite, its labels and projects. */
export interface PageExtras {
  isFavorite: boolean;
  labelIds: string[];
  projectIds: string[];
}

/** `archived_at` as Plane's `DateField` gives it (`YYYY-MM-DD`), or null. */
function day(value: string | Date | null): string | null {
  if (value === null) return null;
  return typeof value === 'string' ? value.slice(0, 10) : value.toISOString().slice(0, 10);
}

/**
 * A page as Plane's `PageSerializer` (`plane/app/serializers/page.py`): its fields, foreign keys as
 * ids, `is_favorite` (the caller's), `label_ids` and `project_ids`.
 */
export function pageView(p: Page, x: PageExtras) {
  return {
    id: p.id,
    name: p.name,
    owned_by: p.ownedById,
    access: p.access,
    color: p.color,
    parent: p.parentId,
    is_favorite: x.isFavorite,
    is_locked: p.isLocked,
    archived_at: day(p.archivedAt),
    workspace: p.workspaceId,
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    created_by: p.createdById,
    updated_by: p.updatedById,
    view_props: p.viewProps,
    logo_props: p.logoProps,
    label_ids: x.labelIds,
    project_ids: x.projectIds,
  };
}
export type PageJson = ReturnType<typeof pageView>;

/** Plane's `PageDetailSerializer`: `PageSerializer` and `description_html`. */
export function pageDetailView(p: Page, x: PageExtras) {
  return { ...pageView(p, x), description_html: p.descriptionHtml };
}
export type PageDetailJson = ReturnType<typeof pageDetailView>;

/** Plane's `PageVersionSerializer` (the list: no descriptions). */
export function pageVersionView(v: PageVersion) {
  return {
    id: v.id,
    workspace: v.workspaceId,
    page: v.pageId,
    last_saved_at: iso(v.lastSavedAt),
    owned_by: v.ownedById,
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
    created_by: v.createdById,
    updated_by: v.updatedById,
  };
}
export type PageVersionJson = ReturnType<typeof pageVersionView>;

/**
 * Plane's `PageVersionDetailSerializer`: the version with its descriptions; `description_binary`
 * base64 (how Django's `BinaryField` serialises), null when there is none.
 */
export function pageVersionDetailView(v: PageVersion) {
  return {
    ...pageVersionView(v),
    description_binary: v.descriptionBinary ? Buffer.from(v.descriptionBinary).toString('base64') : null,
    description_html: v.descriptionHtml,
    description_json: v.descriptionJson,
  };
}
export type PageVersionDetailJson = ReturnType<typeof pageVersionDetailView>;
