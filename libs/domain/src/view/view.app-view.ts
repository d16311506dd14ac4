import { iso } from '../kernel/time';
import { IssueView } from './issue-view.entity';

/**
 * A saved view on the App API: Plane's `IssueViewSerializer` (`plane/app/serializers/view.py`,
 * every model field, foreign keys as ids) with `is_favorite` (whether the caller has it among their
 * favourites).
 */
export function appViewView(v: IssueView, isFavorite: boolean) {
  return {
    id: v.id,
    name: v.name,
    description: v.description,
    query: v.query,
    filters: v.filters,
    display_filters: v.displayFilters,
    display_properties: v.displayProperties,
    access: v.access,
    sort_order: v.sortOrder,
    logo_props: v.logoProps,
    is_locked: v.isLocked,
    is_favorite: isFavorite,
    owned_by: v.ownedById,
    workspace: v.workspaceId,
    project: v.projectId,
    created_at: iso(v.createdAt),
    updated_at: iso(v.updatedAt),
    deleted_at: iso(v.deletedAt),
    created_by: v.createdById,
    updated_by: v.updatedById,
  };
}
export type AppViewJson = ReturnType<typeof appViewView>;
