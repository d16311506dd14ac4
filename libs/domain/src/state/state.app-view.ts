import { StateJson } from './state.view';

/**
 * A state on the App API: Plane's `StateSerializer` (`plane/app/serializers/state.py`: `id`,
 * `project_id`, `workspace_id`, `name`, `color`, `group`, `default`, `description`, `sequence`)
 * beside the v1 keys.
 */
export function appStateView(s: StateJson) {
  return { ...s, project_id: s.project, workspace_id: s.workspace };
}
export type AppStateJson = ReturnType<typeof appStateView>;
