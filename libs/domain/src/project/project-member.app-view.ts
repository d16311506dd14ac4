import { ProjectMemberJson } from './project-member.view';

/**
 * A project membership as the App API lists and bulk-adds them: Plane's `ProjectMemberRoleSerializer`
 * (`plane/app/serializers/project.py`; `ProjectMemberViewSet.list` and `create`), whose `member` is
 * the user's id; the web app keys its member map by it. The other keys of the full row stay.
 */
export function appProjectMemberRoleView(m: ProjectMemberJson) {
  return { ...m, member: m.member.id };
}
export type AppProjectMemberRoleJson = ReturnType<typeof appProjectMemberRoleView>;
