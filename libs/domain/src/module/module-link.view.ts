import { iso } from '../kernel/time';
import { ModuleLink } from './module-link.entity';

/** Plane's `ModuleLinkSerializer` (`plane/app/serializers/module.py`, fields `__all__`). */
export function moduleLinkView(l: ModuleLink) {
  return {
    id: l.id,
    title: l.title,
    url: l.url,
    metadata: l.metadata,
    module: l.moduleId,
    project: l.projectId,
    workspace: l.workspaceId,
    created_at: iso(l.createdAt),
    updated_at: iso(l.updatedAt),
    deleted_at: iso(l.deletedAt),
    created_by: l.createdById,
    updated_by: l.updatedById,
  };
}
export type ModuleLinkJson = ReturnType<typeof moduleLinkView>;
