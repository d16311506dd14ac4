import { answerBudget, ChunkedList, mapChunks, MeridianError, Page, PageRequest, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ProjectMemberService, ProjectService, projectLiteView } from '../project';
import { UserProfileService } from '../user';
import { WorkspaceService, workspaceLiteView } from '../workspace';
import { found, isUniqueViolation } from '../kernel/db-errors';
import { assertExternalIdFree } from '../kernel/external-id';
import { pick, Shape } from '../kernel/fields';
import { ChangeContext, stripHtml, writeActivities } from './activity-writer';
import { IssueComment } from './issue-comment.entity';
import { IssueLink } from './issue-link.entity';
import { Issue } from './issue.entity';
import { IssueRepository, softDeleteComment, softDeleteLink } from './issue.repository';
import { IssueContext } from './issue-command.service';
import {
  AppActivityJson,
  appActivityView,
  AppCommentJson,
  appCommentView,
  AppIssueDetails,
  IntakeSource,
  issueFlatView,
} from './issue.app-view';
import { ActivityJson, activityView, CommentJson, commentView, LinkJson, linkView } from './issue.view';
import { ReactionJson, reactionView } from './reaction.service';

export interface CommentInput {
  comment_html?: string;
  comment_json?: unknown;
  access?: 'INTERNAL' | 'EXTERNAL';
  attachments?: string[];
  external_source?: string | null;
  external_id?: string | null;
}

export interface LinkInput {
  url?: string;
  title?: string | null;
  metadata?: Record<string, unknown>;
}

/**
 * What the App API's `history/` lists (Plane's `activity_type`): the history rows
 * (`issue-property`), the comments (`issue-comment`), or both (`all`, Plane's default).
 */
export type HistoryKind = 'issue-property' | 'issue-comment' | 'all';

/** Activity fields Plane's list leaves out (`plane/api/views/issue.py` IssueActivityAPIEndpoint). */
const HIDDEN_FIELDS = ['comment', 'vote', 'reaction', 'draft'];

/**
 * What hangs off a work item: comments, links and the history (Plane
 * `plane/api/views/issue.py`). The work item must be a visible one of the route's project (else 404
 * `NOT_FOUND`). Every comment and link change writes a history row in the same transaction.
 */
@Injectable()
export class IssueChildrenService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: IssueRepository,
    private readonly users: UserProfileService,
    private readonly projects: ProjectService,
    private readonly projectMembers: ProjectMemberService,
    private readonly workspaces: WorkspaceService,
  ) {}

  // ---- comments ------------------------------------------------------------------------------

  /**
   * Comments, newest first; a page, or every comment with `page.all`; `fields` applied; read and
   * answered in chunks of bounded size (`pageInChunks`, `streamedList`). `is_member`: the author is
   * an active project member. 404 `NOT_FOUND` as the other children.
   */
  async listComments(
    projectId: string,
    issueId: string,
    page: PageRequest,
    shape: Shape,
  ): Promise<ChunkedList<Partial<CommentJson>>> {
    await this.issue(this.dataSource.manager, projectId, issueId);
    const list = await this.repo.commentPageChunks(issueId, page);
    const members = await this.members(projectId);
    return {
      page: list.page,
      chunks: mapChunks(list.chunks, (rows) =>
        rows.map((c) => pick(commentView(c, !!c.actorId && members.has(c.actorId)), shape.fields)),
      ),
    };
  }

  /** `listComments` in the App API's shape (`appCommentView`, see `forAppComments`). */
  async listAppComments(
    projectId: string,
    issueId: string,
    page: PageRequest,
    shape: Shape,
  ): Promise<ChunkedList<AppCommentJson>> {
    const list = await this.listComments(projectId, issueId, page, shape);
    const { details } = await this.appDetails(issueId);
    return { page: list.page, chunks: mapChunks(list.chunks, (comments) => this.renderAppComments(comments, details)) };
  }

  async retrieveComment(
    projectId: string,
    issueId: string,
    commentId: string,
    shape: Shape,
  ): Promise<Partial<CommentJson>> {
    const c = await this.comment(this.dataSource.manager, projectId, issueId, commentId);
    const members = await this.members(projectId);
    return pick(commentView(c, !!c.actorId && members.has(c.actorId)), shape.fields);
  }

  /**
   * Comments of work item `issueId` in the App API's shape (`appCommentView`): the authors'
   * `actor_detail`, the `comment_reactions` and the work item's, project's and workspace's details,
   * a few statements for the page.
   */
  async forAppComments(issueId: string, comments: Array<Partial<CommentJson>>): Promise<AppCommentJson[]> {
    const { details } = await this.appDetails(issueId);
    return this.renderAppComments(comments, details);
  }

  /** `forAppComments` with the details read once for a list: two statements per chunk. */
  private async renderAppComments(
    comments: Array<Partial<CommentJson>>,
    details: AppIssueDetails,
  ): Promise<AppCommentJson[]> {
    const ids = comments.map((c) => c.id).filter((id): id is string => !!id);
    const actors = [...new Set(comments.map((c) => c.actor).filter((id): id is string => !!id))];
    const users = await this.users.liveUsers(actors);
    const reactions = await this.repo.commentReactions(ids);
    const byUser = new Map(users.map((u) => [u.id, u]));
    const byComment = new Map<string, ReactionJson[]>();
    for (const r of reactions) {
      const list = byComment.get(r.commentId) ?? [];
      list.push(reactionView(r));
      byComment.set(r.commentId, list);
    }
    return comments.map((c) =>
      appCommentView(c, c.actor ? byUser.get(c.actor) : undefined, (c.id && byComment.get(c.id)) || [], details),
    );
  }

  /**
   * Any project member, Guests included, may comment (Plane's ProjectLite rule); a Guest only on the
   * work items they may see (their own, or all with `guest_view_all_features`; Plane's
   * `IssueCommentViewSet.create`), else 404 `NOT_FOUND`. 409 `EXTERNAL_ID_TAKEN`.
   */
  async createComment(ctx: IssueContext, issueId: string, input: CommentInput): Promise<CommentJson> {
    return this.guard(async () =>
      this.dataSource.transaction(async (em) => {
        await this.issue(em, ctx.projectId, issueId, ctx);
        return commentView(await this.writeComment(em, ctx, issueId, input));
      }),
    );
  }

  /**
   * Writes a comment on the work item `issueId` and its history row in the caller's transaction
   * (the caller has checked the work item: a member's visibility here, a board's in the deploy-board
   * room); the saved row. `access` defaults to INTERNAL; a taken `external_id` is 409
   * `EXTERNAL_ID_TAKEN` (raised by the caller's unique violation too, see `guard`).
   */
  async writeComment(
    em: EntityManager,
    ctx: ChangeContext,
    issueId: string,
    input: CommentInput,
  ): Promise<IssueComment> {
    await assertExternalIdFree(em, IssueComment, ctx.projectId, input.external_source, input.external_id);
    const html = input.comment_html || '<p></p>';
    const comment = await this.repo.insertComment(
      em,
      em.create(IssueComment, {
        workspaceId: ctx.workspaceId,
        projectId: ctx.projectId,
        issueId,
        commentHtml: html,
        commentStripped: stripHtml(html),
        commentJson: input.comment_json ?? {},
        attachments: input.attachments ?? [],
        access: input.access ?? 'INTERNAL',
        externalSource: input.external_source ?? null,
        externalId: input.external_id ?? null,
        actorId: ctx.userId,
        createdById: ctx.userId,
        updatedById: ctx.userId,
      }),
    );
    await writeActivities(em, ctx, [
      {
        issueId,
        verb: 'created',
        field: 'comment',
        newValue: html,
        issueCommentId: comment.id,
        comment: 'created a comment',
      },
    ]);
    return comment;
  }

  /**
   * Only the author or a project Admin may change or delete a comment (403 `PERMISSION_DENIED`;
   * Plane lets any member do it, a quirk not copied). `edited_at` is set when the text changes.
   */
  async updateComment(
    ctx: IssueContext,
    issueId: string,
    commentId: string,
    input: CommentInput,
  ): Promise<CommentJson> {
    return this.guard(async () =>
      this.dataSource.transaction(async (em) => {
        const c = await this.comment(em, ctx.projectId, issueId, commentId);
        this.assertAuthor(ctx, c.actorId ?? c.createdById);
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em,
            IssueComment,
            ctx.projectId,
            input.external_source !== undefined ? input.external_source : c.externalSource,
            input.external_id !== undefined ? input.external_id : c.externalId,
            commentId,
          );
        }
        await this.editComment(em, ctx, c, input);
        return commentView(await found(this.repo.commentById(em, commentId)));
      }),
    );
  }

  /**
   * Soft-deletes the comment (its author or a project Admin) with a history row; 404 `NOT_FOUND`
   * when it is gone, also to all but the first of concurrent deletes.
   */
  async removeComment(ctx: IssueContext, issueId: string, commentId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const c = await this.comment(em, ctx.projectId, issueId, commentId);
      this.assertAuthor(ctx, c.actorId ?? c.createdById);
      await this.deleteComment(em, ctx, c);
    });
  }

  /**
   * Applies `input` to the comment `c` (already checked by the caller) in the caller's transaction,
   * with a history row when the text changes (`edited_at` then set).
   */
  async editComment(em: EntityManager, ctx: ChangeContext, c: IssueComment, input: CommentInput): Promise<void> {
    const patch: Partial<IssueComment> = { updatedById: ctx.userId };
    if (input.comment_html !== undefined && input.comment_html !== c.commentHtml) {
      patch.commentHtml = input.comment_html || '<p></p>';
      patch.commentStripped = stripHtml(patch.commentHtml);
      patch.editedAt = new Date();
    }
    if (input.comment_json !== undefined) patch.commentJson = input.comment_json;
    if (input.access !== undefined) patch.access = input.access;
    if (input.attachments !== undefined) patch.attachments = input.attachments;
    if (input.external_id !== undefined) patch.externalId = input.external_id;
    if (input.external_source !== undefined) patch.externalSource = input.external_source;
    await this.repo.updateComment(em, c.id, patch);
    if (patch.commentHtml !== undefined) {
      await writeActivities(em, ctx, [
        {
          issueId: c.issueId,
          verb: 'updated',
          field: 'comment',
          oldValue: c.commentHtml,
          newValue: patch.commentHtml,
          issueCommentId: c.id,
          comment: 'updated a comment',
        },
      ]);
    }
  }

  /**
   * Soft-deletes the comment `c` (already checked by the caller) with a history row, in the caller's
   * transaction; 404 `NOT_FOUND` when a concurrent delete committed first (no second history row).
   */
  async deleteComment(em: EntityManager, ctx: ChangeContext, c: IssueComment): Promise<void> {
    if (!(await softDeleteComment(em, c.id, ctx.userId))) throw new MeridianError('NOT_FOUND');
    await writeActivities(em, ctx, [
      {
        issueId: c.issueId,
        verb: 'deleted',
        field: 'comment',
        oldValue: c.commentHtml,
        issueCommentId: c.id,
        comment: 'deleted a comment',
      },
    ]);
  }

  // ---- EXTERNAL comments, for the published boards (the deploy-board room checks the board first)

  /** The work item's EXTERNAL comments in the project, oldest first (entities). */
  externalComments(projectId: string, issueId: string): Promise<IssueComment[]> {
    return this.repo.externalComments(projectId, issueId);
  }

  /**
   * The live EXTERNAL comment `id` of the project (of `issueId` and by `actorId` when given), in the
   * caller's transaction when `em` is given; or null.
   */
  externalComment(
    projectId: string,
    id: string,
    of: { issueId?: string; actorId?: string } = {},
    em?: EntityManager,
  ): Promise<IssueComment | null> {
    return this.repo.externalComment(em ?? this.repo.manager, projectId, id, of);
  }

  /** The live comment `id` (entity); throws when it is gone. */
  liveComment(id: string): Promise<IssueComment> {
    return found(this.repo.commentById(this.repo.manager, id));
  }

  // ---- links ---------------------------------------------------------------------------------

  /** Links, newest first; paginated; `fields` applied. */
  async listLinks(
    projectId: string,
    issueId: string,
    page: PageRequest,
    shape: Shape,
  ): Promise<Page<Partial<LinkJson>>> {
    await this.issue(this.dataSource.manager, projectId, issueId);
    return (await this.repo.linksPage(issueId, page)).map((l) => pick(linkView(l), shape.fields));
  }

  async retrieveLink(projectId: string, issueId: string, linkId: string, shape: Shape): Promise<Partial<LinkJson>> {
    return pick(linkView(await this.link(this.dataSource.manager, projectId, issueId, linkId)), shape.fields);
  }

  /** A URL is on a work item at most once among live links: 409 `LINK_URL_TAKEN` (Plane: 400). */
  async createLink(ctx: IssueContext, issueId: string, input: LinkInput & { url: string }): Promise<LinkJson> {
    return this.guard(async () =>
      this.dataSource.transaction(async (em) => {
        await this.issue(em, ctx.projectId, issueId);
        await this.assertUrlFree(em, issueId, input.url);
        const link = await this.repo.insertLink(
          em,
          em.create(IssueLink, {
            workspaceId: ctx.workspaceId,
            projectId: ctx.projectId,
            issueId,
            url: input.url,
            title: input.title ?? null,
            metadata: input.metadata ?? {},
            createdById: ctx.userId,
            updatedById: ctx.userId,
          }),
        );
        await writeActivities(em, ctx, [
          {
            issueId,
            verb: 'created',
            field: 'link',
            newValue: input.url,
            newIdentifier: link.id,
            comment: 'created a link',
          },
        ]);
        return linkView(link);
      }),
    );
  }

  async updateLink(ctx: IssueContext, issueId: string, linkId: string, input: LinkInput): Promise<LinkJson> {
    return this.guard(async () =>
      this.dataSource.transaction(async (em) => {
        const link = await this.link(em, ctx.projectId, issueId, linkId);
        if (input.url !== undefined && input.url !== link.url) await this.assertUrlFree(em, issueId, input.url, linkId);
        const patch: Partial<IssueLink> = { updatedById: ctx.userId };
        if (input.url !== undefined) patch.url = input.url;
        if (input.title !== undefined) patch.title = input.title;
        if (input.metadata !== undefined) patch.metadata = input.metadata;
        await this.repo.updateLink(em, linkId, patch);
        const history = [];
        if (input.url !== undefined && input.url !== link.url) {
          history.push({
            issueId,
            verb: 'updated',
            field: 'link',
            oldValue: link.url,
            newValue: input.url,
            oldIdentifier: linkId,
            newIdentifier: linkId,
            comment: 'updated a link',
          });
        }
        if (input.title !== undefined && input.title !== link.title) {
          history.push({
            issueId,
            verb: 'updated',
            field: 'link',
            oldValue: link.title,
            newValue: input.title,
            oldIdentifier: linkId,
            newIdentifier: linkId,
            comment: 'updated the title of a link',
          });
        }
        await writeActivities(em, ctx, history);
        return linkView(await found(this.repo.linkById(em, linkId)));
      }),
    );
  }

  /** Soft-deletes the link with a history row; 404 `NOT_FOUND` when it is gone, also to all but the first of concurrent deletes. */
  async removeLink(ctx: IssueContext, issueId: string, linkId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const link = await this.link(em, ctx.projectId, issueId, linkId);
      if (!(await softDeleteLink(em, linkId, ctx.userId))) throw new MeridianError('NOT_FOUND');
      await writeActivities(em, ctx, [
        {
          issueId,
          verb: 'deleted',
          field: 'link',
          oldValue: link.url,
          oldIdentifier: linkId,
          comment: 'deleted a link',
        },
      ]);
    });
  }

  // ---- activities ----------------------------------------------------------------------------

  /**
   * The work item's history, oldest first (Plane's default); comment entries left out as in Plane;
   * a page, read and answered in chunks of bounded size as `listComments`.
   */
  async listActivities(
    projectId: string,
    issueId: string,
    page: PageRequest,
    shape: Shape,
    order: 'ASC' | 'DESC',
  ): Promise<ChunkedList<Partial<ActivityJson>>> {
    await this.issue(this.dataSource.manager, projectId, issueId);
    const list = await this.repo.activityPageChunks(issueId, HIDDEN_FIELDS, page, order);
    return {
      page: list.page,
      chunks: mapChunks(list.chunks, (rows) => rows.map((a) => pick(activityView(a), shape.fields))),
    };
  }

  async retrieveActivity(projectId: string, issueId: string, activityId: string): Promise<ActivityJson> {
    await this.issue(this.dataSource.manager, projectId, issueId);
    const a = await this.repo.activityOf(projectId, issueId, activityId);
    if (!a) throw new MeridianError('NOT_FOUND');
    return activityView(a);
  }

  /**
   * The App API's `history/` (Plane 0.25.3 `IssueActivityEndpoint`): with `kind` `issue-property`
   * the history rows (`IssueActivitySerializer`: `appActivityView`), with `issue-comment` the
   * comments (`IssueCommentSerializer`: `appCommentView`), with `all` both merged; oldest first
   * (`DESC`: newest first), a history row before a comment of the same instant. `after`: only
   * what was created after it. `fields=` keeps the named keys. 404 as the other children.
   */
  async appHistory(
    projectId: string,
    issueId: string,
    opts: { kind: HistoryKind; after: Date | null; order: 'ASC' | 'DESC'; shape: Shape },
  ): Promise<AsyncGenerator<Array<Partial<AppActivityJson> | Partial<AppCommentJson>>>> {
    // Plane's IssueActivityEndpoint reads the history of an archived work item too (its archive page shows it)
    if (!(await this.repo.findOpen(this.dataSource.manager, projectId, issueId, undefined, true)))
      throw new MeridianError('NOT_FOUND');
    const { details, intake } = await this.appDetails(issueId);
    const members = opts.kind === 'issue-property' ? new Set<string>() : await this.members(projectId);
    // the two lists are read side by side: their chunks share one answer's leases (no waiting on itself)
    const lender = answerBudget().forOneAnswer();
    const rows =
      opts.kind === 'issue-comment'
        ? null
        : mapChunks(
            this.repo.historyRowChunks(issueId, HIDDEN_FIELDS, opts.after, opts.order, lender),
            async (chunk) => {
              const actorIds = [...new Set(chunk.map((a) => a.actorId).filter((id): id is string => !!id))];
              const byUser = new Map((await this.users.liveUsers(actorIds)).map((u) => [u.id, u]));
              return chunk.map((a) => ({
                at: a.createdAt.getTime(),
                json: appActivityView(a, a.actorId ? byUser.get(a.actorId) : undefined, details, intake) as object,
              }));
            },
          );
    const comments =
      opts.kind === 'issue-property'
        ? null
        : mapChunks(this.repo.commentChunks(issueId, opts.after, opts.order, lender), async (chunk) => {
            const json = await this.renderAppComments(
              chunk.map((c) => commentView(c, !!c.actorId && members.has(c.actorId))),
              details,
            );
            return chunk.map((c, n) => ({ at: c.createdAt.getTime(), json: json[n] as object }));
          });
    // a history row comes before a comment of the same instant (oldest first; after it, newest first)
    return mapChunks(mergeByTime(rows, comments, opts.order), (items) =>
      items.map((m) => pick(m.json as Record<string, unknown>, opts.shape.fields)),
    ) as AsyncGenerator<Array<Partial<AppActivityJson> | Partial<AppCommentJson>>>;
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** The live work item; with a `viewer` that is a project Guest, only one they may see (Plane's Guest rule). */
  private async issue(
    em: EntityManager,
    projectId: string,
    issueId: string,
    viewer?: { userId: string; role: number | null },
  ): Promise<Issue> {
    const issue = await this.repo.findOpen(
      em,
      projectId,
      issueId,
      viewer && (viewer.role ?? 0) <= ROLE.GUEST ? viewer.userId : undefined,
    );
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  private async comment(
    em: EntityManager,
    projectId: string,
    issueId: string,
    commentId: string,
  ): Promise<IssueComment> {
    await this.issue(em, projectId, issueId);
    const c = await this.repo.commentOfIssue(em, issueId, commentId);
    if (!c) throw new MeridianError('NOT_FOUND');
    return c;
  }

  private async link(em: EntityManager, projectId: string, issueId: string, linkId: string): Promise<IssueLink> {
    await this.issue(em, projectId, issueId);
    const l = await this.repo.linkOfIssue(em, issueId, linkId);
    if (!l) throw new MeridianError('NOT_FOUND');
    return l;
  }

  private async assertUrlFree(em: EntityManager, issueId: string, url: string, exceptId?: string): Promise<void> {
    const found = await this.repo.linkWithUrl(em, issueId, url, exceptId);
    if (found) throw new MeridianError('LINK_URL_TAKEN', undefined, { id: found.id });
  }

  private assertAuthor(ctx: IssueContext, authorId: string | null): void {
    if (authorId !== ctx.userId && (ctx.role ?? 0) < ROLE.ADMIN) {
      throw new MeridianError('PERMISSION_DENIED', 'Only the author or a project admin can change this comment.');
    }
  }

  /** The work item's, project's and workspace's details, and its intake source, for the App shapes. */
  private async appDetails(issueId: string): Promise<{ details: AppIssueDetails; intake: IntakeSource | null }> {
    const issue = await this.repo.issueWithDeleted(this.repo.manager, issueId);
    if (!issue) throw new MeridianError('NOT_FOUND');
    const [project, workspaces, intake] = await Promise.all([
      found(this.projects.findWithDeleted(issue.projectId)),
      this.workspaces.workspacesWithDeleted([issue.workspaceId]),
      this.repo.intakeSourceOf(issueId),
    ]);
    if (!workspaces.length) throw new MeridianError('NOT_FOUND');
    return {
      details: {
        issue_detail: issueFlatView(issue),
        project_detail: projectLiteView(project),
        workspace_detail: workspaceLiteView(workspaces[0]),
      },
      intake,
    };
  }

  /**
   * The live comment `commentId` of the project (entity; on any work item of it, archived or not),
   * in the caller's transaction when `em` is given; or null: what a comment's image hangs on.
   */
  commentOfProject(
    projectId: string,
    commentId: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<IssueComment | null> {
    return this.repo.commentInProject(em, projectId, commentId);
  }

  /** The comment `id` (entity), deleted or not, or null; in `em`'s transaction (a webhook delivery renders it). */
  commentWithDeleted(id: string, em: EntityManager = this.dataSource.manager): Promise<IssueComment | null> {
    return this.repo.commentWithDeleted(em, id);
  }

  private async members(projectId: string): Promise<Set<string>> {
    return new Set(await this.projectMembers.activeMemberIds(projectId));
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err, 'uq_issue_links_url_live')) throw new MeridianError('LINK_URL_TAKEN');
      if (isUniqueViolation(err, 'uq_issue_comments_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }
}

/** One side of `mergeByTime`: the head of a chunked list, read one chunk ahead of none. */
class ChunkCursor<T> {
  private chunk: T[] = [];
  private at = 0;
  done: boolean;

  constructor(private readonly chunks: AsyncGenerator<T[]> | null) {
    this.done = chunks === null;
  }

  get head(): T | undefined {
    return this.at < this.chunk.length ? this.chunk[this.at] : undefined;
  }

  get empty(): boolean {
    return this.at >= this.chunk.length && !this.done;
  }

  async fill(): Promise<void> {
    while (this.chunks && !this.done && this.at >= this.chunk.length) {
      const step = await this.chunks.next();
      if (step.done) this.done = true;
      else [this.chunk, this.at] = [step.value, 0];
    }
  }

  take(): T {
    return this.chunk[this.at++];
  }

  async close(): Promise<void> {
    await this.chunks?.return(undefined);
  }
}

/**
 * Two chunked lists, each in `order` of `at`, merged into one in that order, as chunks: with
 * `ASC` an item of `first` comes before one of `second` of the same `at`, with `DESC` after it (the
 * reverse of the `ASC` list). What was merged is handed on before either side reads its next chunk,
 * so at most a chunk of each side is held.
 */
async function* mergeByTime<T extends { at: number }>(
  first: AsyncGenerator<T[]> | null,
  second: AsyncGenerator<T[]> | null,
  order: 'ASC' | 'DESC',
): AsyncGenerator<T[]> {
  const a = new ChunkCursor(first);
  const b = new ChunkCursor(second);
  let out: T[] = [];
  try {
    for (;;) {
      if (a.empty || b.empty) {
        if (out.length > 0) yield out;
        out = [];
        await a.fill();
        await b.fill();
      }
      const x = a.head;
      const y = b.head;
      if (x === undefined && y === undefined) break;
      const fromFirst = y === undefined || (x !== undefined && (order === 'ASC' ? x.at <= y.at : x.at > y.at));
      out.push(fromFirst ? a.take() : b.take());
    }
    if (out.length > 0) yield out;
  } finally {
    await a.close();
    await b.close();
  }
}
