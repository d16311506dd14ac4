import type { ProjectJson } from './project.service';

/** What the App API adds to a project: one batch per page (`ProjectRepository.appExtras`). */
export interface AppProjectExtras {
  /** active project members who are not bots */
  members: string[];
  /** the live deploy board's anchor, or null */
  anchor: string | null;
  /** the caller's own `sort_order` in the project, or null when not a member */
  sort_order: number | null;
  /** whether the caller has the project among their favourites */
  is_favorite: boolean;
}

/**
 * A project on the App API: Plane's `ProjectListSerializer` (`plane/app/serializers/project.py`,
 * `fields = "__all__"` plus `is_favorite`, `sort_order`, `member_role`, `anchor`, `members`,
 * `cover_image_url`, `inbox_view`) over `ProjectViewSet.get_queryset` (`plane/app/views/project/base.py`).
 * The counts and `is_member` of the v1 shape stay. `is_favorite`: the caller has the project among
 * their favourites (`user_favorites`).
 */
export function appProjectView(p: ProjectJson, extras: AppProjectExtras) {
  return {
    ...p,
    is_favorite: extras.is_favorite,
    sort_order: extras.sort_order,
    anchor: extras.anchor,
    members: extras.members,
  };
}
export type AppProjectJson = ReturnType<typeof appProjectView>;
