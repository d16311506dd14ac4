import type { FavoriteRow } from './favorite.repository';

/**
 * Plane's `UserFavoriteSerializer` (`plane/app/serializers/favorite.py`): the favourite and its
 * `entity_data` (`{id, name, logo_props}` for a project, with `project_id` for a cycle, module or
 * saved view; null for a folder).
 */
export function favoriteView(f: FavoriteRow) {
  return {
    id: f.id,
    entity_type: f.entity_type,
    entity_identifier: f.entity_identifier,
    entity_data:
      f.e_id === null
        ? null
        : f.entity_type === 'project'
          ? { id: f.e_id, name: f.e_name, logo_props: f.e_logo_props ?? {} }
          : { id: f.e_id, name: f.e_name, logo_props: f.e_logo_props ?? {}, project_id: f.e_project_id },
    name: f.name,
    is_folder: f.is_folder,
    sequence: Number(f.sequence),
    parent: f.parent_id,
    workspace_id: f.workspace_id,
    project_id: f.project_id,
  };
}
export type FavoriteJson = ReturnType<typeof favoriteView>;
