import type { User } from '../user';
import { CommentJson } from './issue.view';
import type { ReactionJson } from './reaction.service';

/** Plane's `UserLiteSerializer` (`plane/app/serializers/user.py`): the `actor_detail` of a comment. */
export function actorDetailView(u: User) {
  return {
    id: u.id,
    first_name: u.firstName,
    last_name: u.lastName,
    avatar: u.avatar,
    avatar_url: u.avatar,
    is_bot: u.isBot,
    display_name: u.displayName,
  };
}

/**
 * A comment on the App API: Plane's `IssueCommentSerializer` (`plane/app/serializers/issue.py`:
 * the model fields plus `actor_detail` and `comment_reactions`, each a `CommentReactionSerializer`)
 * with `issue_id`, `project_id` and `workspace_id` beside `issue`, `project` and `workspace`. With
 * `fields=`, the `_id` keys follow the picked ones; `actor_detail` (null without `actor`) and
 * `comment_reactions` are always there.
 */
export function appCommentView(c: Partial<CommentJson>, actor: User | undefined, reactions: ReactionJson[]) {
  return {
    ...c,
    ...(c.issue !== undefined ? { issue_id: c.issue } : {}),
    ...(c.project !== undefined ? { project_id: c.project } : {}),
    ...(c.workspace !== undefined ? { workspace_id: c.workspace } : {}),
    actor_detail: actor ? actorDetailView(actor) : null,
    comment_reactions: reactions,
  };
}
export type AppCommentJson = ReturnType<typeof appCommentView>;
