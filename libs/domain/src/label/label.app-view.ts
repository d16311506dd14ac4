import { LabelJson } from './label.view';

/**
 * A label on the App API: Plane's `LabelSerializer` (`plane/app/serializers/issue.py`: `parent`,
 * `name`, `color`, `id`, `project_id`, `workspace_id`, `sort_order`) beside the v1 keys.
 */
export function appLabelView(l: LabelJson) {
  return { ...l, project_id: l.project, workspace_id: l.workspace };
}
export type AppLabelJson = ReturnType<typeof appLabelView>;
