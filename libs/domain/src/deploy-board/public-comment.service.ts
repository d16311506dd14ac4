import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import {
  CommentReaction,
  IssueComment,
  ReactionService,
  softDeleteComment,
  stripHtml,
  writeActivities,
} from '../issue';
import type { Project } from '../project';
import { iso } from '../kernel/time';
import { PublicActorJson } from './deploy-board.view';
import { PublicBoardAccess } from './public-board-access';
import { PublicBoardRepository } from './public-board.repository';

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
 * The writes repeat the shape of the issue room's comment creation (`IssueChildrenService`) but not
 * its call: that method runs its own transaction and its own visibility check (a member's), where a
 * board checks the work item against the board's visibility (no triage) inside the same
 * transaction. Reusing it needs an issue-room method that takes the caller's manager.
 */
@Injectable()
export class PublicCommentService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly publicRows: PublicBoardRepository,
    private readonly access: PublicBoardAccess,
    private readonly reactionRules: ReactionService,
  ) {}

  /** The work item's EXTERNAL comments, oldest first; `[]` while the board has comments off (Plane). */
  async comments(anchor: string, issueId: string) {
    const { board, project } = await this.access.board(anchor);
    await this.access.findIssue(this.publicRows.manager, project.id, issueId);
    if (!board.isCommentsEnabled) return [];
    const rows = await this.publicRows.externalComments(project.id, issueId);
    return this.renderComments(project.id, rows);
  }

  /** One EXTERNAL comment; 404 `NOT_FOUND` otherwise (also while comments are off). */
  async comment(anchor: string, issueId: string, commentId: string) {
    const { board, project } = await this.access.board(anchor);
    await this.access.findIssue(this.publicRows.manager, project.id, issueId);
    if (!board.isCommentsEnabled) throw new MeridianError('NOT_FOUND');
    const c = await this.publicRows.externalComment(this.publicRows.manager, project.id, commentId, { issueId });
    if (!c) throw new MeridianError('NOT_FOUND');
    return (await this.renderComments(project.id, [c]))[0];
  }

  /** A signed-in user comments (access forced to EXTERNAL): 201; 403 `BOARD_COMMENTS_DISABLED`. */
  async createComment(anchor: string, issueId: string, userId: string, input: PublicCommentInput) {
    const { board, project } = await this.access.board(anchor);
    if (!board.isCommentsEnabled) throw new MeridianError('BOARD_COMMENTS_DISABLED');
    const comment = await this.dataSource.transaction(async (em) => {
      await this.access.findIssue(em, project.id, issueId);
      const html = input.comment_html || '<p></p>';
      const c = await this.publicRows.insertComment(
        em,
        em.create(IssueComment, {
          workspaceId: project.workspaceId,
          projectId: project.id,
          issueId,
          commentHtml: html,
          commentStripped: stripHtml(html),
          commentJson: input.comment_json ?? {},
          attachments: [],
          access: 'EXTERNAL',
          actorId: userId,
          createdById: userId,
          updatedById: userId,
        }),
      );
      await writeActivities(em, this.ctx(project, userId), [
        {
          issueId,
          verb: 'created',
          field: 'comment',
          newValue: html,
          issueCommentId: c.id,
          comment: 'created a comment',
        },
      ]);
      return c;
    });
    return (await this.renderComments(project.id, [comment]))[0];
  }

  /** The author edits their comment; another's (or an unknown one) is a 404 `NOT_FOUND` (Plane). */
  async updateComment(anchor: string, issueId: string, commentId: string, userId: string, input: PublicCommentInput) {
    const { board, project } = await this.access.board(anchor);
    if (!board.isCommentsEnabled) throw new MeridianError('BOARD_COMMENTS_DISABLED');
    await this.dataSource.transaction(async (em) => {
      const c = await this.ownComment(em, project.id, issueId, commentId, userId);
      const patch: Partial<IssueComment> = { updatedById: userId };
      if (input.comment_html !== undefined && input.comment_html !== c.commentHtml) {
        patch.commentHtml = input.comment_html || '<p></p>';
        patch.commentStripped = stripHtml(patch.commentHtml);
        patch.editedAt = new Date();
      }
      if (input.comment_json !== undefined) patch.commentJson = input.comment_json;
      await this.publicRows.updateComment(em, c.id, patch);
      if (patch.commentHtml !== undefined) {
        await writeActivities(em, this.ctx(project, userId), [
          {
            issueId,
            verb: 'updated',
            field: 'comment',
            oldValue: c.commentHtml,
            newValue: patch.commentHtml,
            issueCommentId: c.id,
            comment: 'updated a comment',
          },
        ]);
      }
    });
    const c = await this.publicRows.comment(commentId);
    return (await this.renderComments(project.id, [c]))[0];
  }

  /** The author deletes their comment: soft delete; 404 `NOT_FOUND` for another's. */
  async removeComment(anchor: string, issueId: string, commentId: string, userId: string): Promise<void> {
    const { board, project } = await this.access.board(anchor);
    if (!board.isCommentsEnabled) throw new MeridianError('BOARD_COMMENTS_DISABLED');
    await this.dataSource.transaction(async (em) => {
      const c = await this.ownComment(em, project.id, issueId, commentId, userId);
      // a concurrent delete of the same comment committed first: 404, as the work item's routes
      if (!(await softDeleteComment(em, c.id, userId))) throw new MeridianError('NOT_FOUND');
      await writeActivities(em, this.ctx(project, userId), [
        {
          issueId,
          verb: 'deleted',
          field: 'comment',
          oldValue: c.commentHtml,
          issueCommentId: c.id,
          comment: 'deleted a comment',
        },
      ]);
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
    const rows = await this.publicRows.commentReactions(commentId);
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
    await this.access.findIssue(em, projectId, issueId);
    const c = await this.publicRows.externalComment(em, projectId, commentId, { issueId, actorId: userId });
    if (!c) throw new MeridianError('NOT_FOUND');
    return c;
  }

  private ctx(project: Project, userId: string) {
    return { workspaceId: project.workspaceId, projectId: project.id, userId };
  }

  private async renderComments(projectId: string, rows: IssueComment[]) {
    const actors = await this.access.actors(rows.map((c) => c.actorId).filter((v): v is string => !!v));
    const memberIds = rows.length ? await this.publicRows.activeMemberIds(projectId) : new Set<string>();
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
