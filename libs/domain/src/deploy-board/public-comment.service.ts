import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IssueChildrenService, ReactionService } from '../issue';
import type { CommentReaction, IssueComment } from '../issue';
import { ProjectMemberService } from '../project';
import type { Project } from '../project';
import { iso } from '../kernel/time';
import { PublicActorJson } from './deploy-board.view';
import { PublicBoardAccess } from './public-board-access';

/** A visitor's comment (Plane's `comment_html`, `comment_json`). */
export interface PublicCommentInput {
  comment_html?: string;
  comment_json?: Record<string, unknown>;
}

/**
 * Comments on a published board's work items and their reactions (Plane `CommentPublicViewSet`,
 * `CommentReactionPublicViewSet`): only EXTERNAL comments are listed; a signed-in visitor writes
 * EXTERNAL comments and edits or deletes only their own, while the board has comments on.
 *
 * The writes are the issue room's (`IssueChildrenService.writeComment`, `editComment`,
 * `deleteComment`, with their history rows) in this service's transaction, after the work item is
 * checked against the board's visibility (no triage) inside it.
 */
@Injectable()
export class PublicCommentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: PublicBoardAccess,
    private readonly reactionRules: ReactionService,
    private readonly issueComments: IssueChildrenService,
    private readonly members: ProjectMemberService,
  ) {}

  /** The work item's EXTERNAL comments, oldest first; `[]` while the board has comments off (Plane). */
  async comments(anchor: string, issueId: string) {
    const { board, project } = await this.access.board(anchor);
    await this.access.findIssue(project.id, issueId);
    if (!board.isCommentsEnabled) return [];
    const rows = await this.issueComments.externalComments(project.id, issueId);
    return this.renderComments(project.id, rows);
  }

  /** One EXTERNAL comment; 404 `NOT_FOUND` otherwise (also while comments are off). */
  async comment(anchor: string, issueId: string, commentId: string) {
    const { board, project } = await this.access.board(anchor);
    await this.access.findIssue(project.id, issueId);
    if (!board.isCommentsEnabled) throw new MeridianError('NOT_FOUND');
    const c = await this.issueComments.externalComment(project.id, commentId, { issueId });
    if (!c) throw new MeridianError('NOT_FOUND');
    return (await this.renderComments(project.id, [c]))[0];
  }

  /** A signed-in user comments (access forced to EXTERNAL): 201; 403 `BOARD_COMMENTS_DISABLED`. */
  async createComment(anchor: string, issueId: string, userId: string, input: PublicCommentInput) {
    const { board, project } = await this.access.board(anchor);
    if (!board.isCommentsEnabled) throw new MeridianError('BOARD_COMMENTS_DISABLED');
    const comment = await this.dataSource.transaction(async (em) => {
      await this.access.findIssue(project.id, issueId, em);
      return this.issueComments.writeComment(em, this.ctx(project, userId), issueId, {
        comment_html: input.comment_html,
        comment_json: input.comment_json,
        access: 'EXTERNAL',
      });
    });
    return (await this.renderComments(project.id, [comment]))[0];
  }

  /** The author edits their comment; another's (or an unknown one) is a 404 `NOT_FOUND` (Plane). */
  async updateComment(anchor: string, issueId: string, commentId: string, userId: string, input: PublicCommentInput) {
    const { board, project } = await this.access.board(anchor);
    if (!board.isCommentsEnabled) throw new MeridianError('BOARD_COMMENTS_DISABLED');
    await this.dataSource.transaction(async (em) => {
      const c = await this.ownComment(em, project.id, issueId, commentId, userId);
      await this.issueComments.editComment(em, this.ctx(project, userId), c, {
        comment_html: input.comment_html,
        comment_json: input.comment_json,
      });
    });
    const c = await this.issueComments.liveComment(commentId);
    return (await this.renderComments(project.id, [c]))[0];
  }

  /** The author deletes their comment: soft delete; 404 `NOT_FOUND` for another's. */
  async removeComment(anchor: string, issueId: string, commentId: string, userId: string): Promise<void> {
    const { board, project } = await this.access.board(anchor);
    if (!board.isCommentsEnabled) throw new MeridianError('BOARD_COMMENTS_DISABLED');
    await this.dataSource.transaction(async (em) => {
      const c = await this.ownComment(em, project.id, issueId, commentId, userId);
      // a concurrent delete of the same comment committed first: 404, as the work item's routes
      await this.issueComments.deleteComment(em, this.ctx(project, userId), c);
    });
  }

  // ---- comment reactions (Plane `CommentReactionPublicViewSet`) ------------------------------

  /**
   * The reactions on an EXTERNAL comment of a work item the board shows, newest first (Plane's
   * order): `[{id, reaction, actor, actor_detail, comment, project, workspace, created_at, …}]`; `[]`
   * while reactions are off (Plane's empty queryset). 404 `NOT_FOUND` for any other comment.
   */
  async commentReactions(anchor: string, commentId: string) {
    const { board, project } = await this.access.board(anchor);
    await this.access.publicComment(project.id, commentId);
    if (!board.isReactionsEnabled) return [];
    const rows = await this.reactionRules.commentReactionsNewestFirst(commentId);
    const actors = await this.access.actors(rows.map((r) => r.actorId));
    return rows.map((r) => commentReactionView(r, actors.get(r.actorId) ?? null));
  }

  /**
   * Adds the caller's reaction to a public comment: 201 with it, or 200 with the one they already
   * have; 403 `BOARD_REACTIONS_DISABLED`; 404 `NOT_FOUND` for a comment the board does not show.
   */
  async addCommentReaction(anchor: string, commentId: string, userId: string, reaction: string) {
    const { board, project } = await this.access.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.access.publicComment(project.id, commentId);
    const { created, reaction: json } = await this.reactionRules.addCommentReaction(
      { workspaceId: project.workspaceId, projectId: project.id, userId, role: null },
      commentId,
      reaction,
    );
    const actors = await this.access.actors([userId]);
    return { created, reaction: { ...json, actor_detail: actors.get(userId) ?? null } };
  }

  /** Removes the caller's reaction with this code from a public comment: 204; 404 if they have none. */
  async removeCommentReaction(anchor: string, commentId: string, userId: string, reaction: string): Promise<void> {
    const { board, project } = await this.access.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.access.publicComment(project.id, commentId);
    await this.reactionRules.removeCommentReaction(
      { workspaceId: project.workspaceId, projectId: project.id, userId, role: null },
      commentId,
      reaction,
    );
  }

  private async ownComment(
    em: EntityManager,
    projectId: string,
    issueId: string,
    commentId: string,
    userId: string,
  ): Promise<IssueComment> {
    await this.access.findIssue(projectId, issueId, em);
    const c = await this.issueComments.externalComment(projectId, commentId, { issueId, actorId: userId }, em);
    if (!c) throw new MeridianError('NOT_FOUND');
    return c;
  }

  private ctx(project: Project, userId: string) {
    return { workspaceId: project.workspaceId, projectId: project.id, userId };
  }

  private async renderComments(projectId: string, rows: IssueComment[]) {
    const actors = await this.access.actors(rows.map((c) => c.actorId).filter((v): v is string => !!v));
    const memberIds = new Set(
      rows.length ? (await this.members.activeMemberships(projectId)).map((m) => m.memberId) : [],
    );
    return rows.map((c) => ({
      id: c.id,
      comment_html: c.commentHtml,
      comment_stripped: c.commentStripped,
      comment_json: c.commentJson,
      access: c.access,
      edited_at: iso(c.editedAt),
      actor: c.actorId,
      actor_detail: c.actorId ? (actors.get(c.actorId) ?? null) : null,
      issue: c.issueId,
      project: c.projectId,
      workspace: c.workspaceId,
      is_member: !!c.actorId && memberIds.has(c.actorId),
      created_at: iso(c.createdAt),
      updated_at: iso(c.updatedAt),
    }));
  }
}

function commentReactionView(r: CommentReaction, actor: PublicActorJson | null) {
  return {
    id: r.id,
    reaction: r.reaction,
    actor: r.actorId,
    actor_detail: actor,
    comment: r.commentId,
    project: r.projectId,
    workspace: r.workspaceId,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}
