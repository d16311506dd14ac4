import { iso } from '../kernel/time';
import { Label } from './label.entity';

/** Plane's LabelSerializer (`plane/api/serializers/issue.py`). */
export function labelView(l: Label) {
  return {
    id: l.id,
    name: l.name,
    description: l.description,
    color: l.color,
    parent: l.parentId,
    sort_order: l.sortOrder,
    external_source: l.externalSource,
    external_id: l.externalId,
    project: l.projectId,
    workspace: l.workspaceId,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    deleted_at: iso(l.deletedAt),
    created_by: l.createdById,
    updated_by: l.updatedById,
  };
}
export type LabelJson = ReturnType<typeof labelView>;
