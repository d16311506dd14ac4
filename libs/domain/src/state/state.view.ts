import { iso } from '../kernel/time';
import { State } from './state.entity';

/** Plane's StateSerializer (`plane/api/serializers/state.py`). */
export function stateView(s: State) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    color: s.color,
    slug: s.slug,
    sequence: s.sequence,
    group: s.group,
    is_triage: s.isTriage,
    default: s.default,
    external_source: s.externalSource,
    external_id: s.externalId,
    project: s.projectId,
    workspace: s.workspaceId,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    deleted_at: iso(s.deletedAt),
    created_by: s.createdById,
    updated_by: s.updatedById,
  };
}
export type StateJson = ReturnType<typeof stateView>;

/** The nested state of `expand=state`. */
export function stateLiteView(s: State) {
  return { id: s.id, name: s.name, color: s.color, group: s.group };
}
