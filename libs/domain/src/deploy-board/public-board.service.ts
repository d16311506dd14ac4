import { MeridianError, Page, PageRequest } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { Cycle, CycleIssue } from '../cycle';
import { softDeleteComment, stripHtml, writeActivities } from '../issue';
import { IssueComment } from '../issue';
import { Issue, IssueAssignee, IssueLabel } from '../issue';
import { ISSUE_ORDER_KEYS, IssueOrderKey, PRIORITIES, VISIBLE_ISSUE } from '../issue';
import type { GroupedIssues } from '../issue';
import { Label } from '../label';
import { Module, ModuleIssue } from '../module';
import { ProjectMember } from '../project';
import { Project } from '../project';
import { iso } from '../kernel/time';
import { found } from '../kernel/db-errors';
import { State, STATE_GROUPS } from '../state';
import { User } from '../user';
import { Workspace } from '../workspace';
import { ReactionService } from '../issue';
import { CommentReaction, IssueReaction, IssueVote } from '../issue';
import { IntakeService } from '../intake';
import type { IntakeIssueFields, IntakeIssueJson } from '../intake';
import { DeployBoard } from './deploy-board.entity';
import { deployBoardView, PublicActorJson, publicActorView } from './deploy-board.view';
import { DeployBoardRepository, PublicIssueOrder } from './deploy-board.repository';

/** A published board with its live project and workspace. */
interface Board {
  board: DeployBoard;
  project: Project;
  workspace: Workspace;
}

/** Filters of the public work item list (Plane's public issue filters, the simple ones). */
export interface PublicIssueQuery {
  page: PageRequest;
  order_by?: string;
  state?: string[];
  state_group?: string[];
  priority?: string[];
  labels?: string[];
  assignees?: string[];
  /** `state_id`, `state__group` or `priority`: the answer is grouped (Plane's `GroupedOffsetPaginator`) */
  group_by?: string;
}

/** The group keys the published boards' app sends (`space`: by state), with the filter each group adds. */
export const PUBLIC_ISSUE_GROUP_BY = ['state_id', 'state__group', 'priority'] as const;

export interface PublicCommentInput {
  comment_html?: string;
  comment_json?: Record<string, unknown>;
}

const ORDER_KEYS: Record<string, IssueOrderKey> = Object.fromEntries(
  ['created_at', 'updated_at', 'sequence_id', 'priority'].map((k) => [k, ISSUE_ORDER_KEYS[k]]),
);
/** Accepted `order_by` values of the public list; `-` reverses. */
export const PUBLIC_ISSUE_ORDER_BY = Object.keys(ORDER_KEYS).flatMap((k) => [k, `-${k}`]);

/**
 * The Public API (`/api/public/anchor/{anchor}/…`, Plane `plane/space/views/`):
 * what a published project shows to anyone, and the comments, reactions and votes signed-in users
 * add where the board enables them. An unknown anchor, an unpublished board, or a board whose
 * project or workspace is deleted or archived is a 404 `BOARD_NOT_FOUND`.
 *
 * Nothing private leaves here: people are shown by name and avatar only (never by email), only
 * EXTERNAL comments are listed, and every id read is checked to belong to the board's project.
 * Unlike Plane 0.25.3, reaction and vote lists are real and votes honour `is_votes_enabled`.
 */
@Injectable()
export class PublicBoardService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly reactionRules: ReactionService,
    private readonly boards: DeployBoardRepository,
    private readonly intake: IntakeService,
  ) {}

  /** `meta/`: the project's public face `{id, identifier, name, cover_image, icon_prop, emoji, description, logo_props}`. */
  async meta(anchor: string) {
    const { project: p } = await this.board(anchor);
    return {
      id: p.id,
      identifier: p.identifier,
      name: p.name,
      cover_image: p.coverImage,
      icon_prop: p.iconProp ?? null,
      emoji: p.emoji,
      description: p.description,
      logo_props: p.logoProps,
    };
  }

  /** `settings/`: the board (DeployBoard shape without its audit ids). */
  async settings(anchor: string) {
    const { board, project, workspace } = await this.board(anchor);
    return deployBoardView(board, project, workspace, 'public');
  }

  /** The anchor of a published project, looked up by workspace slug and project id: the board, or 404. */
  async byProject(slug: string, projectId: string) {
    const b = await this.boards.findByWorkspaceSlug(slug, projectId);
    if (!b) throw new MeridianError('BOARD_NOT_FOUND');
    return this.settings(b.anchor);
  }

  /**
   * `issues/`: the project's visible work items (not archived, not drafts, not in triage), newest
   * first unless `order_by` (see `PUBLIC_ISSUE_ORDER_BY`, else 400 `INVALID_QUERY_PARAMETER`);
   * filters `state`, `state_group`, `priority`, `labels`, `assignees` (any value matches); paginated.
   */
  async issues(anchor: string, query: PublicIssueQuery): Promise<Page<PublicIssueJson> | GroupedIssues> {
    const { project } = await this.board(anchor);
    const raw = query.order_by?.trim() || '-created_at';
    const desc = raw.startsWith('-');
    const key = ORDER_KEYS[desc ? raw.slice(1) : raw];
    if (!key)
      throw new MeridianError(
        'INVALID_QUERY_PARAMETER',
        `order_by must be one of: ${PUBLIC_ISSUE_ORDER_BY.join(', ')}.`,
      );
    const order = { key: key.key, keyType: key.keyType, order: desc ? ('DESC' as const) : ('ASC' as const) };
    if (query.group_by) return this.grouped(anchor, project.id, query, order);
    const page = await this.boards.listVisibleIssuesPage(project.id, VISIBLE_ISSUE, query, query.page, order);
    const rendered = await this.renderIssues(page.results);
    return new Page(rendered, page.perPage, page.totalCount, page.nextCursor, page.prevCursor);
  }

  /**
   * `?group_by=` on the public list, as the published boards' app sends it (`state_id` for its list
   * and board layouts): Plane's grouped envelope, every group present (empty ones too), each group one
   * page of the same order and filters. Another `group_by` is 400 `INVALID_QUERY_PARAMETER`.
   */
  private async grouped(
    anchor: string,
    projectId: string,
    query: PublicIssueQuery,
    order: PublicIssueOrder,
  ): Promise<GroupedIssues> {
    const by = query.group_by!;
    if (!(PUBLIC_ISSUE_GROUP_BY as readonly string[]).includes(by)) {
      throw new MeridianError(
        'INVALID_QUERY_PARAMETER',
        `group_by must be one of: ${PUBLIC_ISSUE_GROUP_BY.join(', ')}.`,
      );
    }
    const keys =
      by === 'state_id'
        ? (await this.states(anchor)).map((s) => s.id)
        : by === 'state__group'
          ? STATE_GROUPS.filter((g) => g !== 'triage')
          : [...PRIORITIES];
    const field = by === 'state_id' ? 'state' : by === 'state__group' ? 'state_group' : 'priority';
    const results: GroupedIssues['results'] = {};
    let total = 0;
    let count = 0;
    let more = false;
    for (const k of keys) {
      // the group's own value, within any filter the caller gave on the same field
      const given = query[field];
      if (given?.length && !given.includes(k)) {
        results[k] = { results: [], total_results: 0, next_cursor: null, prev_cursor: null };
        continue;
      }
      const page = await this.boards.listVisibleIssuesPage(
        projectId,
        VISIBLE_ISSUE,
        { ...query, [field]: [k] },
        query.page,
        order,
      );
      results[k] = {
        results: await this.renderIssues(page.results),
        total_results: page.totalCount,
        next_cursor: page.nextCursor,
        prev_cursor: page.prevCursor,
      };
      total += page.totalCount;
      count += page.results.length;
      more ||= page.nextCursor !== null;
    }
    return {
      grouped_by: by,
      sub_grouped_by: null,
      total_count: total,
      next_cursor: null,
      prev_cursor: null,
      next_page_results: more,
      prev_page_results: false,
      count,
      total_pages: 1,
      total_results: total,
      extra_stats: null,
      results,
    };
  }

  /** `issues/{id}/`: one visible work item with its description; 404 `NOT_FOUND` otherwise. */
  async issue(anchor: string, issueId: string) {
    const { project } = await this.board(anchor);
    const issue = await this.findIssue(this.dataSource.manager, project.id, issueId);
    const [item] = await this.renderIssues([issue]);
    return {
      ...item,
      description: null,
      description_html: issue.descriptionHtml,
      description_stripped: issue.descriptionStripped,
      description_binary: null,
    };
  }

  // ---- comments --------------------------------------------------------------------------------

  /** The work item's EXTERNAL comments, oldest first; `[]` while the board has comments off (Plane). */
  async comments(anchor: string, issueId: string) {
    const { board, project } = await this.board(anchor);
    await this.findIssue(this.dataSource.manager, project.id, issueId);
    if (!board.isCommentsEnabled) return [];
    const rows = await this.dataSource
      .getRepository(IssueComment)
      .find({ where: { issueId, projectId: project.id, access: 'EXTERNAL' }, order: { createdAt: 'ASC', id: 'ASC' } });
    return this.renderComments(project.id, rows);
  }

  /** One EXTERNAL comment; 404 `NOT_FOUND` otherwise (also while comments are off). */
  async comment(anchor: string, issueId: string, commentId: string) {
    const { board, project } = await this.board(anchor);
    await this.findIssue(this.dataSource.manager, project.id, issueId);
    if (!board.isCommentsEnabled) throw new MeridianError('NOT_FOUND');
    const c = await this.dataSource
      .getRepository(IssueComment)
      .findOneBy({ id: commentId, issueId, projectId: project.id, access: 'EXTERNAL' });
    if (!c) throw new MeridianError('NOT_FOUND');
    return (await this.renderComments(project.id, [c]))[0];
  }

  /** A signed-in user comments (access forced to EXTERNAL): 201; 403 `BOARD_COMMENTS_DISABLED`. */
  async createComment(anchor: string, issueId: string, userId: string, input: PublicCommentInput) {
    const { board, project } = await this.board(anchor);
    if (!board.isCommentsEnabled) throw new MeridianError('BOARD_COMMENTS_DISABLED');
    const comment = await this.dataSource.transaction(async (em) => {
      await this.findIssue(em, project.id, issueId);
      const html = input.comment_html || '<p></p>';
      const c = await em.save(
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
    const { board, project } = await this.board(anchor);
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
      await em.update(IssueComment, { id: c.id }, patch as never);
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
    const c = await this.dataSource.getRepository(IssueComment).findOneByOrFail({ id: commentId });
    return (await this.renderComments(project.id, [c]))[0];
  }

  /** The author deletes their comment: soft delete; 404 `NOT_FOUND` for another's. */
  async removeComment(anchor: string, issueId: string, commentId: string, userId: string): Promise<void> {
    const { board, project } = await this.board(anchor);
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

  // ---- reactions -------------------------------------------------------------------------------

  /** The work item's reactions, oldest first: `[{id, reaction, actor, actor_detail, issue, created_at}]`. */
  async reactions(anchor: string, issueId: string) {
    const { project } = await this.board(anchor);
    await this.findIssue(this.dataSource.manager, project.id, issueId);
    const rows = await this.dataSource
      .getRepository(IssueReaction)
      .find({ where: { issueId }, order: { createdAt: 'ASC', id: 'ASC' } });
    const actors = await this.actors(rows.map((r) => r.actorId));
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
    const { board, project } = await this.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.findIssue(this.dataSource.manager, project.id, issueId);
    const { created, row } = await this.reactionRules.putIssueReaction(
      { workspaceId: project.workspaceId, projectId: project.id, userId },
      issueId,
      reaction,
    );
    const actors = await this.actors([userId]);
    return { created, reaction: reactionView(row, actors.get(userId) ?? null) };
  }

  /** Removes the caller's reaction with this code: 204; 404 `NOT_FOUND` if they have none. */
  async removeReaction(anchor: string, issueId: string, userId: string, reaction: string): Promise<void> {
    const { board, project } = await this.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.findIssue(this.dataSource.manager, project.id, issueId);
    await this.reactionRules.deleteIssueReaction(userId, issueId, reaction);
  }

  // ---- comment reactions (Plane `CommentReactionPublicViewSet`) ------------------------------

  /**
   * The reactions on an EXTERNAL comment of a work item the board shows, newest first (Plane's
   * order): `[{id, reaction, actor, actor_detail, comment, project, workspace, created_at, …}]`; `[]`
   * while reactions are off (Plane's empty queryset). 404 `NOT_FOUND` for any other comment.
   */
  async commentReactions(anchor: string, commentId: string) {
    const { board, project } = await this.board(anchor);
    await this.publicComment(project.id, commentId);
    if (!board.isReactionsEnabled) return [];
    const rows = await this.dataSource
      .getRepository(CommentReaction)
      .find({ where: { commentId }, order: { createdAt: 'DESC', id: 'DESC' } });
    const actors = await this.actors(rows.map((r) => r.actorId));
    return rows.map((r) => commentReactionView(r, actors.get(r.actorId) ?? null));
  }

  /**
   * Adds the caller's reaction to a public comment: 201 with it, or 200 with the one they already
   * have; 403 `BOARD_REACTIONS_DISABLED`; 404 `NOT_FOUND` for a comment the board does not show.
   */
  async addCommentReaction(anchor: string, commentId: string, userId: string, reaction: string) {
    const { board, project } = await this.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.publicComment(project.id, commentId);
    const { created, reaction: json } = await this.reactionRules.addCommentReaction(
      { workspaceId: project.workspaceId, projectId: project.id, userId, role: null },
      commentId,
      reaction,
    );
    const actors = await this.actors([userId]);
    return { created, reaction: { ...json, actor_detail: actors.get(userId) ?? null } };
  }

  /** Removes the caller's reaction with this code from a public comment: 204; 404 if they have none. */
  async removeCommentReaction(anchor: string, commentId: string, userId: string, reaction: string): Promise<void> {
    const { board, project } = await this.board(anchor);
    if (!board.isReactionsEnabled) throw new MeridianError('BOARD_REACTIONS_DISABLED');
    await this.publicComment(project.id, commentId);
    await this.reactionRules.removeCommentReaction(
      { workspaceId: project.workspaceId, projectId: project.id, userId, role: null },
      commentId,
      reaction,
    );
  }

  // ---- intake (Plane `IntakeIssuePublicViewSet`) ----------------------------------------------

  /**
   * The caller's own submissions to the board's intake, newest first, in the cursor envelope (the
   * intake item shape of the v1 API, `issue_detail` included). The board must show an intake (403
   * `BOARD_INTAKE_DISABLED`), `intakeId` must be it (404 `NOT_FOUND`), and the project's intake must
   * be on (400 `INTAKE_NOT_ENABLED`).
   */
  async intakeItems(anchor: string, intakeId: string, userId: string, page: PageRequest) {
    const { project } = await this.intakeBoard(anchor, intakeId);
    return this.intake.listSubmitted(project.id, intakeId, userId, page);
  }

  /**
   * A signed-in visitor submits a work item to the board's intake: 201 with the pending intake item
   * (`issue.name` required, 422; `priority` one of Plane's). Made as the v1 intake makes it.
   */
  async submitIntakeItem(anchor: string, intakeId: string, userId: string, issue: IntakeIssueFields | undefined) {
    const { project } = await this.intakeBoard(anchor, intakeId);
    return this.intake.create(this.intakeCtx(project, userId), { issue, source: 'IN_APP' });
  }

  /** One of the caller's own submissions, by the intake item's id or its work item's id; else 404. */
  async intakeItem(anchor: string, intakeId: string, id: string, userId: string): Promise<IntakeIssueJson> {
    const { project } = await this.intakeBoard(anchor, intakeId);
    const issueId = await this.intake.submittedIssueId(project.id, intakeId, id, userId);
    return this.intake.retrieve(project.id, issueId);
  }

  /** The submitter edits `name`, `description_html` or `description` of their own item (Plane's rule); else 404. */
  async updateIntakeItem(
    anchor: string,
    intakeId: string,
    id: string,
    userId: string,
    issue: IntakeIssueFields | undefined,
  ): Promise<IntakeIssueJson> {
    const { project } = await this.intakeBoard(anchor, intakeId);
    const issueId = await this.intake.submittedIssueId(project.id, intakeId, id, userId);
    return this.intake.update(this.intakeCtx(project, userId), issueId, { issue });
  }

  /** The submitter withdraws their own item (with its work item unless accepted): 204; else 404. */
  async removeIntakeItem(anchor: string, intakeId: string, id: string, userId: string): Promise<void> {
    const { project } = await this.intakeBoard(anchor, intakeId);
    const issueId = await this.intake.submittedIssueId(project.id, intakeId, id, userId);
    await this.intake.remove(this.intakeCtx(project, userId), issueId);
  }

  /** The board's workspace and project for the visitors' uploads (`AssetService`'s board routes); 404 `BOARD_NOT_FOUND`. */
  async assetScope(anchor: string): Promise<{ workspaceId: string; projectId: string; anchor: string }> {
    const { board, project } = await this.board(anchor);
    return { workspaceId: project.workspaceId, projectId: project.id, anchor: board.anchor };
  }

  // ---- workspace boards ------------------------------------------------------------------------

  /**
   * `GET /api/public/workspaces/{slug}/project-boards/`: the workspace's published projects by name,
   * `[{id, identifier, name, description, emoji, icon_prop, cover_image}]` (Plane's
   * `WorkspaceProjectDeployBoardEndpoint` values); `[]` for an unknown workspace (its existence is
   * not revealed).
   */
  async workspaceBoards(slug: string) {
    const projects = await this.boards.publishedProjects(slug);
    return projects.map((p) => ({
      id: p.id,
      identifier: p.identifier,
      name: p.name,
      description: p.description,
      emoji: p.emoji,
      icon_prop: p.iconProp ?? null,
      cover_image: p.coverImage,
    }));
  }

  // ---- votes -----------------------------------------------------------------------------------

  /** The work item's votes: `[{id, vote, actor, actor_detail, issue, created_at}]`. */
  async votes(anchor: string, issueId: string) {
    const { project } = await this.board(anchor);
    await this.findIssue(this.dataSource.manager, project.id, issueId);
    const rows = await this.dataSource
      .getRepository(IssueVote)
      .find({ where: { issueId }, order: { createdAt: 'ASC', id: 'ASC' } });
    const actors = await this.actors(rows.map((r) => r.actorId));
    return rows.map((r) => voteView(r, actors.get(r.actorId) ?? null));
  }

  /** Sets the caller's vote (+1 or −1; one per user, a new vote replaces theirs): 201; 403 `BOARD_VOTES_DISABLED`. */
  async vote(anchor: string, issueId: string, userId: string, vote: 1 | -1) {
    const { board, project } = await this.board(anchor);
    if (!board.isVotesEnabled) throw new MeridianError('BOARD_VOTES_DISABLED');
    const row = await this.dataSource.transaction(async (em) => {
      await this.findIssue(em, project.id, issueId, true);
      const repo = em.getRepository(IssueVote);
      const existing = await repo.findOneBy({ issueId, actorId: userId });
      if (existing) {
        await repo.update({ id: existing.id }, { vote, updatedById: userId });
        return found(repo.findOneBy({ id: existing.id }));
      }
      return repo.save(
        repo.create({
          workspaceId: project.workspaceId,
          projectId: project.id,
          issueId,
          actorId: userId,
          vote,
          createdById: userId,
          updatedById: userId,
        }),
      );
    });
    const actors = await this.actors([userId]);
    return voteView(row, actors.get(userId) ?? null);
  }

  /** Removes the caller's vote: 204; 404 `NOT_FOUND` if they have none. */
  async removeVote(anchor: string, issueId: string, userId: string): Promise<void> {
    const { board, project } = await this.board(anchor);
    if (!board.isVotesEnabled) throw new MeridianError('BOARD_VOTES_DISABLED');
    await this.findIssue(this.dataSource.manager, project.id, issueId);
    const row = await this.dataSource.getRepository(IssueVote).findOneBy({ issueId, actorId: userId });
    if (!row) throw new MeridianError('NOT_FOUND');
    await this.dataSource
      .getRepository(IssueVote)
      .update({ id: row.id }, { deletedAt: new Date(), updatedById: userId });
  }

  // ---- project lists ---------------------------------------------------------------------------

  /** `states/`: `[{id, name, group, color, sequence}]` by sequence; triage states left out (Plane). */
  async states(anchor: string) {
    const { project } = await this.board(anchor);
    const rows = await this.dataSource
      .getRepository(State)
      .find({ where: { projectId: project.id, isTriage: false }, order: { sequence: 'ASC', id: 'ASC' } });
    return rows
      .filter((s) => s.group !== 'triage')
      .map((s) => ({ id: s.id, name: s.name, group: s.group, color: s.color, sequence: s.sequence }));
  }

  /** `labels/`: `[{id, name, color, parent}]` by sort order. */
  async labels(anchor: string) {
    const { project } = await this.board(anchor);
    const rows = await this.dataSource
      .getRepository(Label)
      .find({ where: { projectId: project.id }, order: { sortOrder: 'ASC', id: 'ASC' } });
    return rows.map((l) => ({ id: l.id, name: l.name, color: l.color, parent: l.parentId }));
  }

  /**
   * `members/`: the project's active members by name (Plane's shape
   * `{id, member, member__first_name, member__last_name, member__display_name, project, workspace}`), no email.
   */
  async members(anchor: string) {
    const { project } = await this.board(anchor);
    const rows = await this.dataSource
      .getRepository(ProjectMember)
      .find({ where: { projectId: project.id, isActive: true }, order: { createdAt: 'ASC', id: 'ASC' } });
    const users = new Map(
      (
        await this.dataSource
          .getRepository(User)
          .findBy({ id: In(rows.map((r) => r.memberId).concat(['00000000-0000-0000-0000-000000000000'])) })
      ).map((u) => [u.id, u]),
    );
    return rows
      .filter((r) => users.has(r.memberId))
      .map((r) => {
        const u = users.get(r.memberId)!;
        return {
          id: r.id,
          member: u.id,
          member__first_name: u.firstName,
          member__last_name: u.lastName,
          member__display_name: u.displayName,
          member__avatar: u.avatar,
          project: project.id,
          workspace: project.workspaceId,
        };
      });
  }

  /** `cycles/`: the project's live, unarchived cycles as `[{id, name}]`, oldest first. */
  async cycles(anchor: string): Promise<Array<{ id: string; name: string }>> {
    const { project } = await this.board(anchor);
    const rows = await this.dataSource.getRepository(Cycle).find({
      select: { id: true, name: true },
      where: { projectId: project.id, archivedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map((c) => ({ id: c.id, name: c.name }));
  }

  /** `modules/`: the project's live, unarchived modules as `[{id, name}]`, oldest first. */
  async modules(anchor: string): Promise<Array<{ id: string; name: string }>> {
    const { project } = await this.board(anchor);
    const rows = await this.dataSource.getRepository(Module).find({
      select: { id: true, name: true },
      where: { projectId: project.id, archivedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
    return rows.map((m) => ({ id: m.id, name: m.name }));
  }

  // ---- helpers ---------------------------------------------------------------------------------

  /** The live board of the anchor, with a live, unarchived project in a live workspace; else 404. */
  private async board(anchor: string): Promise<Board> {
    if (!/^[0-9a-f]{32}$/i.test(anchor)) throw new MeridianError('BOARD_NOT_FOUND');
    const board = await this.dataSource.getRepository(DeployBoard).findOneBy({ anchor: anchor.toLowerCase() });
    if (!board) throw new MeridianError('BOARD_NOT_FOUND');
    const project = await this.dataSource.getRepository(Project).findOneBy({ id: board.projectId });
    if (!project || project.archivedAt || project.workspaceId !== board.workspaceId)
      throw new MeridianError('BOARD_NOT_FOUND');
    const workspace = await this.dataSource.getRepository(Workspace).findOneBy({ id: board.workspaceId });
    if (!workspace) throw new MeridianError('BOARD_NOT_FOUND');
    return { board, project, workspace };
  }

  /** A work item the board shows (see `DeployBoardRepository`), locked `FOR UPDATE` when `lock`; else 404. */
  private async findIssue(em: EntityManager, projectId: string, issueId: string, lock = false): Promise<Issue> {
    const issue = await this.boards.findVisibleIssue(em, projectId, VISIBLE_ISSUE, issueId, lock);
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  private async ownComment(
    em: EntityManager,
    projectId: string,
    issueId: string,
    commentId: string,
    userId: string,
  ): Promise<IssueComment> {
    await this.findIssue(em, projectId, issueId);
    const c = await em
      .getRepository(IssueComment)
      .findOneBy({ id: commentId, issueId, projectId, access: 'EXTERNAL', actorId: userId });
    if (!c) throw new MeridianError('NOT_FOUND');
    return c;
  }

  /** An EXTERNAL comment of a work item the board shows; else 404 `NOT_FOUND`. */
  private async publicComment(projectId: string, commentId: string): Promise<IssueComment> {
    const c = await this.dataSource
      .getRepository(IssueComment)
      .findOneBy({ id: commentId, projectId, access: 'EXTERNAL' });
    if (!c) throw new MeridianError('NOT_FOUND');
    await this.findIssue(this.dataSource.manager, projectId, c.issueId);
    return c;
  }

  /** The board of the anchor with its intake `intakeId`: 403 `BOARD_INTAKE_DISABLED` without one, 404 for another id. */
  private async intakeBoard(anchor: string, intakeId: string): Promise<Board> {
    const b = await this.board(anchor);
    if (!b.board.intakeId) throw new MeridianError('BOARD_INTAKE_DISABLED');
    if (b.board.intakeId !== intakeId.toLowerCase()) throw new MeridianError('NOT_FOUND');
    return b;
  }

  /** A visitor acts as a non-member (role null): only their own submissions, name and description. */
  private intakeCtx(project: Project, userId: string) {
    return { workspaceId: project.workspaceId, projectId: project.id, userId, role: null };
  }

  private ctx(project: Project, userId: string) {
    return { workspaceId: project.workspaceId, projectId: project.id, userId };
  }

  private async actors(ids: string[]): Promise<Map<string, PublicActorJson>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const users = await this.dataSource.getRepository(User).findBy({ id: In(unique) });
    return new Map(users.map((u) => [u.id, publicActorView(u)!]));
  }

  private async renderComments(projectId: string, rows: IssueComment[]) {
    const actors = await this.actors(rows.map((c) => c.actorId).filter((v): v is string => !!v));
    const memberIds = rows.length
      ? new Set(
          (
            await this.dataSource
              .getRepository(ProjectMember)
              .find({ where: { projectId, isActive: true }, select: { memberId: true } })
          ).map((m) => m.memberId),
        )
      : new Set<string>();
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

  /** Plane's public issue item: ids of state, labels and assignees, with the vote and reaction items. */
  async renderIssues(issues: Issue[]) {
    if (!issues.length) return [];
    const ids = issues.map((i) => i.id);
    const repo = <T extends object>(e: new () => T) => this.dataSource.getRepository(e);
    const [assignees, labels, votes, reactions, cycleLinks, moduleLinks, states] = await Promise.all([
      repo(IssueAssignee).findBy({ issueId: In(ids) }),
      repo(IssueLabel).findBy({ issueId: In(ids) }),
      repo(IssueVote).find({ where: { issueId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } }),
      repo(IssueReaction).find({ where: { issueId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } }),
      repo(CycleIssue).findBy({ issueId: In(ids) }),
      repo(ModuleIssue).findBy({ issueId: In(ids) }),
      repo(State).find({
        where: {
          id: In(
            issues
              .map((i) => i.stateId)
              .filter((s): s is string => !!s)
              .concat(['00000000-0000-0000-0000-000000000000']),
          ),
        },
        withDeleted: true,
      }),
    ]);
    // only live labels and project members are shown (a removed label or member leaves no trace)
    const liveLabels = new Set(
      (
        await repo(Label).findBy({
          id: In(labels.map((l) => l.labelId).concat(['00000000-0000-0000-0000-000000000000'])),
        })
      ).map((l) => l.id),
    );
    const actors = await this.actors([...votes.map((v) => v.actorId), ...reactions.map((r) => r.actorId)]);
    const groupOf = new Map(states.map((s) => [s.id, s.group]));
    const by = <T extends { issueId: string }>(rows: T[]) => {
      const m = new Map<string, T[]>();
      for (const r of rows) m.set(r.issueId, [...(m.get(r.issueId) ?? []), r]);
      return m;
    };
    const [a, l, v, r, c, m] = [by(assignees), by(labels), by(votes), by(reactions), by(cycleLinks), by(moduleLinks)];
    return issues.map((i) => ({
      id: i.id,
      name: i.name,
      sequence_id: i.sequenceId,
      sort_order: i.sortOrder,
      priority: i.priority,
      state_id: i.stateId,
      state__group: i.stateId ? (groupOf.get(i.stateId) ?? null) : null,
      estimate_point: i.estimatePointId,
      start_date: i.startDate,
      target_date: i.targetDate,
      project_id: i.projectId,
      parent_id: i.parentId,
      cycle_id: c.get(i.id)?.[0]?.cycleId ?? null,
      module_ids: (m.get(i.id) ?? []).map((x) => x.moduleId),
      assignee_ids: (a.get(i.id) ?? []).map((x) => x.assigneeId),
      label_ids: (l.get(i.id) ?? []).map((x) => x.labelId).filter((id) => liveLabels.has(id)),
      created_by: i.createdById,
      created_at: iso(i.createdAt),
      updated_at: iso(i.updatedAt),
      vote_items: (v.get(i.id) ?? []).map((x) => ({ vote: x.vote, actor_details: actors.get(x.actorId) ?? null })),
      reaction_items: (r.get(i.id) ?? []).map((x) => ({
        reaction: x.reaction,
        actor_details: actors.get(x.actorId) ?? null,
      })),
    }));
  }
}

export type PublicIssueJson = Awaited<ReturnType<PublicBoardService['renderIssues']>>[number];

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
