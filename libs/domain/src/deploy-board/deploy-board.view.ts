import { Project } from '../project';
import { iso } from '../kernel/time';
import { User } from '../user';
import { Workspace } from '../workspace';
import { DeployBoard } from './deploy-board.entity';

/** What the board's readers may know of its project (Plane's `project_details`). */
export function boardProjectView(p: Project) {
  return {
    id: p.id,
    identifier: p.identifier,
    name: p.name,
    cover_image: p.coverImage,
    cover_image_url: p.coverImage,
    logo_props: p.logoProps,
    description: p.description,
  };
}

/** Plane's `workspace_detail` of a DeployBoard. */
export function boardWorkspaceView(w: Workspace) {
  return { name: w.name, slug: w.slug, id: w.id, logo_url: w.logo };
}

/**
 * Plane's DeployBoardSerializer: every column plus `project_details` and `workspace_detail`
 * (`plane/app/serializers/project.py`). The public variant (`/settings/`) leaves out
 * who created and updated the board.
 */
export function deployBoardView(
  b: DeployBoard,
  project: Project,
  workspace: Workspace,
  audience: 'app' | 'public' = 'app',
) {
  return {
    id: b.id,
    workspace: b.workspaceId,
    project: b.projectId,
    entity_name: b.entityName,
    entity_identifier: b.entityIdentifier,
    anchor: b.anchor,
    is_comments_enabled: b.isCommentsEnabled,
    is_reactions_enabled: b.isReactionsEnabled,
    is_votes_enabled: b.isVotesEnabled,
    intake: b.intakeId,
    view_props: b.viewProps,
    is_activity_enabled: b.isActivityEnabled,
    is_disabled: b.isDisabled,
    project_details: boardProjectView(project),
    workspace_detail: boardWorkspaceView(workspace),
    created_at: iso(b.createdAt),
    updated_at: iso(b.updatedAt),
    ...(audience === 'app'
      ? { deleted_at: iso(b.deletedAt), created_by: b.createdById, updated_by: b.updatedById }
      : {}),
  };
}
export type DeployBoardJson = ReturnType<typeof deployBoardView>;

/**
 * What a public board shows of a person: names and avatar, never the email (Plane's UserLite
 * carries it; the public API must not).
 */
export function publicActorView(u: User | undefined | null) {
  if (!u) return null;
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    avatar: u.avatar,
    avatar_url: u.avatar,
    display_name: u.displayName,
  };
}
export type PublicActorJson = NonNullable<ReturnType<typeof publicActorView>>;
