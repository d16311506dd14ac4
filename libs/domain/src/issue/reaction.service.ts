import { MeridianError, Page, PageRequest } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { IssueReaction } from './issue-reaction.entity';
import { IssueVote } from './issue-vote.entity';
import { found, isUniqueViolation } from '../kernel/db-errors';
import { assertProjectWritable } from '../kernel/project-writable';
import { iso } from '../kernel/time';
import { CommentReaction } from './comment-reaction.entity';
import { IssueComment } from './issue-comment.entity';
import { ChangeContext } from './activity-writer';
import { IssueContext } from './issue-command.service';
import { IssueRepository } from './issue.repository';

/** Plane's IssueReactionSerializer / CommentReactionSerializer: the model fields. */
export function reactionView(r: IssueReaction | CommentReaction) {
  return {
    id: r.id,
    reaction: r.reaction,
    actor: r.actorId,
    ...(r instanceof CommentReaction ? { comment: r.commentId } : { issue: (r as IssueReaction).issueId }),
    project: r.projectId,
    workspace: r.workspaceId,
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
    deleted_at: iso(r.deletedAt),
    created_by: r.createdById,
    updated_by: r.updatedById,
  };
}
export type ReactionJson = ReturnType<typeof reactionView>;

/**
 * Emoji reactions of project members on work items and on comments (Plane's `IssueReactionViewSet`,
 * `CommentReactionViewSet`). A user has each emoji at most once on an item; adding it again answers
 * the existing one. The work item must be an open one of the project (not archived, deleted or a
 * draft; an intake item waiting for triage counts, as in Plane, whose `IssueReactionViewSet` does not
 * filter by intake status and whose web app shows reactions on a pending intake item), the comment
 * a comment of one (else 404 `NOT_FOUND`).
 */
@Injectable()
export class ReactionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: IssueRepository,
  ) {}

  /** The work item's reactions, oldest first; paginated. */
  async listIssueReactions(projectId: string, issueId: string, page: PageRequest): Promise<Page<ReactionJson>> {
    await this.openIssue(projectId, issueId);
    return (await this.repo.issueReactionsPage(issueId, page)).map(reactionView);
  }

  /** `{reaction}` → `{created, reaction}`: a new one (201) or the caller's existing one (200). */
  async addIssueReaction(
    ctx: IssueContext,
    issueId: string,
    reaction: string,
  ): Promise<{ created: boolean; reaction: ReactionJson }> {
    await this.openIssue(ctx.projectId, issueId);
    const { created, row } = await this.putIssueReaction(ctx, issueId, reaction);
    return { created, reaction: reactionView(row) };
  }

  /** Removes the caller's reaction with this code (204); 404 if they have none. */
  async removeIssueReaction(ctx: IssueContext, issueId: string, reaction: string): Promise<void> {
    await this.openIssue(ctx.projectId, issueId);
    await this.deleteIssueReaction(ctx.userId, issueId, reaction);
  }

  /**
   * The rule every issue reaction write follows (App API and public boards): the caller's reaction
   * with this code, made now (`created`) or the one they already have; the caller checks access
   * first. Writes inside an archived project are 400 `PROJECT_ARCHIVED`.
   */
  async putIssueReaction(
    ctx: ChangeContext,
    issueId: string,
    reaction: string,
  ): Promise<{ created: boolean; row: IssueReaction }> {
    return this.put(IssueReaction, { issueId }, ctx, reaction, 'uq_issue_reactions_actor_reaction_live');
  }

  /** Removes the user's reaction with this code; 404 `NOT_FOUND` when they have none. */
  async deleteIssueReaction(userId: string, issueId: string, reaction: string): Promise<void> {
    await this.remove(IssueReaction, { issueId }, userId, reaction);
  }

  /** The comment's reactions, oldest first; paginated. */
  async listCommentReactions(projectId: string, commentId: string, page: PageRequest): Promise<Page<ReactionJson>> {
    await this.comment(this.dataSource.manager, projectId, commentId);
    return (await this.repo.commentReactionsPage(commentId, page)).map(reactionView);
  }

  async addCommentReaction(
    ctx: IssueContext,
    commentId: string,
    reaction: string,
  ): Promise<{ created: boolean; reaction: ReactionJson }> {
    await this.comment(this.dataSource.manager, ctx.projectId, commentId);
    const { created, row } = await this.put(
      CommentReaction,
      { commentId },
      ctx,
      reaction,
      'uq_comment_reactions_actor_reaction_live',
    );
    return { created, reaction: reactionView(row) };
  }

  async removeCommentReaction(ctx: IssueContext, commentId: string, reaction: string): Promise<void> {
    await this.comment(this.dataSource.manager, ctx.projectId, commentId);
    await this.remove(CommentReaction, { commentId }, ctx.userId, reaction);
  }

  // ---- for the published boards (the deploy-board room checks the board and the work item first)

  /** The work item's reactions, oldest first (entities, unpaginated). */
  issueReactions(issueId: string): Promise<IssueReaction[]> {
    return this.repo.issueReactions(issueId);
  }

  /** The comment's reactions, newest first (entities, unpaginated; Plane's order on a board). */
  commentReactionsNewestFirst(commentId: string): Promise<CommentReaction[]> {
    return this.repo.commentReactionsNewestFirst(commentId);
  }

  /** The work item's votes, oldest first (entities). */
  votes(issueId: string): Promise<IssueVote[]> {
    return this.repo.votes(issueId);
  }

  /**
   * Sets the user's vote on the work item (+1 or -1; one per user, a new vote replaces theirs) in
   * the caller's transaction, which has locked the work item (so two votes of one user cannot race);
   * the vote row.
   */
  async putVote(em: EntityManager, ctx: ChangeContext, issueId: string, vote: 1 | -1): Promise<IssueVote> {
    const existing = await this.repo.findVote(em, issueId, ctx.userId);
    if (existing) {
      await this.repo.updateVote(em, existing.id, { vote, updatedById: ctx.userId });
      return this.repo.voteById(em, existing.id);
    }
    return this.repo.insertVote(
      em,
      em.create(IssueVote, {
        workspaceId: ctx.workspaceId,
        projectId: ctx.projectId,
        issueId,
        actorId: ctx.userId,
        vote,
        createdById: ctx.userId,
        updatedById: ctx.userId,
      }),
    );
  }

  /** Removes the user's vote on the work item (soft delete); 404 `NOT_FOUND` when they have none. */
  async removeVote(userId: string, issueId: string): Promise<void> {
    const row = await this.repo.findVote(this.repo.manager, issueId, userId);
    if (!row) throw new MeridianError('NOT_FOUND');
    await this.repo.updateVote(this.repo.manager, row.id, { deletedAt: new Date(), updatedById: userId });
  }

  // ---- helpers -------------------------------------------------------------------------------

  private async put<T extends IssueReaction | CommentReaction>(
    entity: new () => T,
    target: Record<string, string>,
    ctx: ChangeContext,
    reaction: string,
    index: string,
  ): Promise<{ created: boolean; row: T }> {
    const where = { ...target, actorId: ctx.userId, reaction } as never;
    try {
      return await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const existing = await this.repo.findReaction(em, entity, where);
        if (existing) return { created: false, row: existing };
        const row = await this.repo.insertReaction(em, entity, {
          ...target,
          workspaceId: ctx.workspaceId,
          projectId: ctx.projectId,
          actorId: ctx.userId,
          reaction,
          createdById: ctx.userId,
          updatedById: ctx.userId,
        });
        return { created: true, row };
      });
    } catch (err) {
      if (!isUniqueViolation(err, index)) throw err;
      return { created: false, row: await found(this.repo.findReaction(this.repo.manager, entity, where)) };
    }
  }

  private async remove<T extends IssueReaction | CommentReaction>(
    entity: new () => T,
    target: Record<string, string>,
    userId: string,
    reaction: string,
  ): Promise<void> {
    const row = await this.repo.findReaction(this.repo.manager, entity, { ...target, actorId: userId, reaction });
    if (!row) throw new MeridianError('NOT_FOUND');
    await this.repo.softDeleteReaction(this.repo.manager, entity, row.id, userId);
  }

  /** An open work item of the project (intake items waiting for triage included), else 404 `NOT_FOUND`. */
  private async openIssue(projectId: string, issueId: string): Promise<void> {
    if (!(await this.repo.findOpen(this.dataSource.manager, projectId, issueId))) throw new MeridianError('NOT_FOUND');
  }

  /** A comment of a visible work item of the project. */
  private async comment(em: EntityManager, projectId: string, commentId: string): Promise<IssueComment> {
    const c = await this.repo.findCommentOnOpenIssue(em, projectId, commentId);
    if (!c) throw new MeridianError('NOT_FOUND');
    return c;
  }
}
