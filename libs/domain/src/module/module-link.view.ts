import { rowStamps } from '../kernel/time';
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
    ...rowStamps(l),
  };
}
export type ModuleLinkJson = ReturnType<typeof moduleLinkView>;
