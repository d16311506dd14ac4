import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ReactionService } from '../issue';
import type { IssueReaction, IssueVote } from '../issue';
import { iso } from '../kernel/time';
import { PublicActorJson } from './deploy-board.view';
import { PublicBoardAccess } from './public-board-access';

/**
 * Reactions and votes on a published board's work items (Plane `IssueReactionPublicViewSet`,
 * `IssueVotePublicViewSet`): lists for anyone, writes by signed-in visitors while the board enables
 * them (403 `BOARD_REACTIONS_DISABLED`, `BOARD_VOTES_DISABLED`). Unlike Plane 0.25.3 the lists are
 * real and votes honour `is_votes_enabled`.
 */
@Injectable()
export class PublicReactionService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly access: PublicBoardAccess,
    private readonly reactionRules: ReactionService,
  ) {}

  // ---- reactions -------------------------------------------------------------------------------

  /** The work item's reactions, oldest first: `[{id, reaction, actor, actor_detail, issue, created_at}]`. */
  async reactions(anchor: string, issueId: string) {
    const { project } = await this.access.board(anchor);
    await this.access.findIssue(project.id, issueId);
    const rows = await this.reactionRules.issueReactions(issueId);
    const actors = await this.access.actors(rows.map((r) => r.actorId));
    return rows.map((r) => reactionView(r, actors.get(r.actorId) ?? null));
  }

  /**
   * Adds the caller's reaction (an emoji code): 201 with it, or 200 with the existing one when the
   * caller already reacted so; 403 `BOARD_REACTIONS_DISABLED`.
   */
  async addReaction(
    anchor: string,
    issueId: string,
    userId: string,
    reaction: string,
  ): Promise<{ created: boolean; reaction: ReturnType<typeof reactionView> }> {
    const { board, project } = await this.access.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.access.findIssue(project.id, issueId);
    const { created, row } = await this.reactionRules.putIssueReaction(
      { workspaceId: project.workspaceId, projectId: project.id, userId },
      issueId,
      reaction,
    );
    const actors = await this.access.actors([userId]);
    return { created, reaction: reactionView(row, actors.get(userId) ?? null) };
  }

  /** Removes the caller's reaction with this code: 204; 404 `NOT_FOUND` if they have none. */
  async removeReaction(anchor: string, issueId: string, userId: string, reaction: string): Promise<void> {
    const { board, project } = await this.access.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.access.findIssue(project.id, issueId);
    await this.reactionRules.deleteIssueReaction(userId, issueId, reaction);
  }

  // ---- votes -----------------------------------------------------------------------------------

  /** The work item's votes: `[{id, vote, actor, actor_detail, issue, created_at}]`. */
  async votes(anchor: string, issueId: string) {
    const { project } = await this.access.board(anchor);
    await this.access.findIssue(project.id, issueId);
    const rows = await this.reactionRules.votes(issueId);
    const actors = await this.access.actors(rows.map((r) => r.actorId));
    return rows.map((r) => voteView(r, actors.get(r.actorId) ?? null));
  }

  /** Sets the caller's vote (+1 or −1; one per user, a new vote replaces theirs): 201; 403 `BOARD_VOTES_DISABLED`. */
  async vote(anchor: string, issueId: string, userId: string, vote: 1 | -1) {
    const { board, project } = await this.access.board(anchor);
    if (!board.isVotesEnabled) throw new MeridianError('BOARD_VOTES_DISABLED');
    const row = await this.dataSource.transaction(async (em) => {
      await this.access.findIssue(project.id, issueId, em, true);
      return this.reactionRules.putVote(
        em,
        { workspaceId: project.workspaceId, projectId: project.id, userId },
        issueId,
        vote,
      );
    });
    const actors = await this.access.actors([userId]);
    return voteView(row, actors.get(userId) ?? null);
  }

  /** Removes the caller's vote: 204; 404 `NOT_FOUND` if they have none. */
  async removeVote(anchor: string, issueId: string, userId: string): Promise<void> {
    const { board, project } = await this.access.board(anchor);
    if (!board.isVotesEnabled) throw new MeridianError('BOARD_VOTES_DISABLED');
    await this.access.findIssue(project.id, issueId);
    await this.reactionRules.removeVote(userId, issueId);
  }
}

function reactionView(r: IssueReaction, actor: PublicActorJson | null) {
  return {
    id: r.id,
    reaction: r.reaction,
    actor: r.actorId,
    actor_detail: actor,
    issue: r.issueId,
    created_at: iso(r.createdAt),
  };
}

function voteView(v: IssueVote, actor: PublicActorJson | null) {
  return {
    id: v.id,
    vote: v.vote,
    actor: v.actorId,
    actor_detail: actor,
    issue: v.issueId,
    created_at: iso(v.createdAt),
  };
}
