import { iso } from '../kernel/time';
import { Sticky } from './sticky.entity';

/** Plane CE's sticky JSON (the SDK's `Sticky`); `description_binary` is not kept (always null). */
export function stickyView(s: Sticky) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    description_html: s.descriptionHtml,
    description_stripped: s.descriptionStripped,
    description_binary: null,
    logo_props: s.logoProps,
    color: s.color,
    background_color: s.backgroundColor,
    workspace: s.workspaceId,
    owner: s.ownerId,
    sort_order: s.sortOrder,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    deleted_at: iso(s.deletedAt),
    created_by: s.createdById,
    updated_by: s.updatedById,
  };
}
export type StickyJson = ReturnType<typeof stickyView>;
