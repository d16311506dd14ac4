import {
  APP_PAGING,
  BearerAuth,
  CurrentPrincipal,
  idListParam,
  isUuid,
  MeridianError,
  oneOfListParam,
  PageQuery,
  PageRequest,
  Principal,
  Public,
  PublicRateLimit,
  UuidPipe,
} from '#common';
import {
  PRIORITIES,
  PublicBoardService,
  PublicCommentService,
  PublicIntakeService,
  PublicReactionService,
  STATE_GROUPS,
} from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  CreatePublicCommentDto,
  PublicIntakeDto,
  ReactionDto,
  UpdatePublicCommentDto,
  VoteDto,
} from './dto/public.dto';
import { single } from '../shared/context';

/**
 * The Public API of a published project, addressed by its anchor (Plane's
 * `plane/space/views/`): reads need no account; writes (comments, reactions,
 * votes) need a Bearer access token and the board's matching setting. Every route counts against
 * the per-address `PUBLIC_RATE_LIMIT` and answers the `X-RateLimit-*` headers. An unknown or
 * unpublished anchor is a 404 `BOARD_NOT_FOUND`.
 */
@Controller('anchor/:anchor')
@Public()
@PublicRateLimit()
export class PublicBoardController {
  constructor(
    private readonly boards: PublicBoardService,
    private readonly commentService: PublicCommentService,
    private readonly reactionService: PublicReactionService,
    private readonly intakeService: PublicIntakeService,
  ) {}

  /** `{id, identifier, name, cover_image, icon_prop, emoji, description, logo_props}` of the project. */
  @Get('meta')
  meta(@Param('anchor') anchor: string) {
    return this.boards.meta(anchor);
  }

  /** The board's settings (DeployBoard shape). */
  @Get('settings')
  settings(@Param('anchor') anchor: string) {
    return this.boards.settings(anchor);
  }

  /**
   * Work items, newest first; `order_by` (created_at, updated_at, sequence_id, priority, `-` to
   * reverse); filters `state`, `state_group`, `priority`, `labels`, `assignees` (comma-separated);
   * the cursor envelope (`per_page`, `cursor`). `group_by` (`state_id`, `state__group`, `priority`,
   * as the published boards' app sends it): Plane's grouped envelope, every group one page.
   */
  @Get('issues')
  issues(
    @Param('anchor') anchor: string,
    @PageQuery(APP_PAGING) page: PageRequest,
    @Query() query: Record<string, unknown>,
  ) {
    return this.boards.issues(anchor, {
      page,
      order_by: single(query, 'order_by'),
      state: idListParam(query, 'state'),
      state_group: oneOfListParam(query, 'state_group', STATE_GROUPS),
      priority: oneOfListParam(query, 'priority', PRIORITIES),
      labels: idListParam(query, 'labels'),
      assignees: idListParam(query, 'assignees'),
      group_by: single(query, 'group_by') || undefined,
    });
  }

  /** One work item with its description. */
  @Get('issues/:issue_id')
  issue(@Param('anchor') anchor: string, @Param('issue_id', UuidPipe) issueId: string) {
    return this.boards.issue(anchor, issueId);
  }

  /** EXTERNAL comments, oldest first (`[]` while comments are off). */
  @Get('issues/:issue_id/comments')
  comments(@Param('anchor') anchor: string, @Param('issue_id', UuidPipe) issueId: string) {
    return this.commentService.comments(anchor, issueId);
  }

  /** Signed in, comments on: 201 with the comment; 403 `BOARD_COMMENTS_DISABLED`. */
  @Post('issues/:issue_id/comments')
  @BearerAuth()
  createComment(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: CreatePublicCommentDto,
  ) {
    return this.commentService.createComment(anchor, issueId, me.userId, body);
  }

  @Get('issues/:issue_id/comments/:comment_id')
  comment(
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) commentId: string,
  ) {
    return this.commentService.comment(anchor, issueId, commentId);
  }

  /** The author only (another's comment is a 404): 200. */
  @Patch('issues/:issue_id/comments/:comment_id')
  @BearerAuth()
  updateComment(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) commentId: string,
    @Body() body: UpdatePublicCommentDto,
  ) {
    return this.commentService.updateComment(anchor, issueId, commentId, me.userId, body);
  }

  /** The author only: 204. */
  @Delete('issues/:issue_id/comments/:comment_id')
  @BearerAuth()
  @HttpCode(204)
  async removeComment(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('comment_id', UuidPipe) commentId: string,
  ) {
    await this.commentService.removeComment(anchor, issueId, commentId, me.userId);
  }

  /** Every reaction on the work item, with who reacted (names only). */
  @Get('issues/:issue_id/reactions')
  reactions(@Param('anchor') anchor: string, @Param('issue_id', UuidPipe) issueId: string) {
    return this.reactionService.reactions(anchor, issueId);
  }

  /** Signed in, reactions on: 201 (200 if the caller already reacted with this code); 403 `BOARD_REACTIONS_DISABLED`. */
  @Post('issues/:issue_id/reactions')
  @BearerAuth()
  async react(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: ReactionDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, reaction } = await this.reactionService.addReaction(anchor, issueId, me.userId, body.reaction);
    res.status(created ? 201 : 200);
    return reaction;
  }

  /** Removes the caller's reaction with this code: 204; 404 if they have none. */
  @Delete('issues/:issue_id/reactions/:reaction_code')
  @BearerAuth()
  @HttpCode(204)
  async unreact(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Param('reaction_code') code: string,
  ) {
    await this.reactionService.removeReaction(anchor, issueId, me.userId, code);
  }

  /**
   * Signed in (Plane's `BaseViewSet`): the reactions on an EXTERNAL comment of a work item the
   * board shows, newest first; `[]` while reactions are off. 404 `NOT_FOUND` for another comment.
   */
  @Get('comments/:comment_id/reactions')
  @BearerAuth()
  commentReactions(@Param('anchor') anchor: string, @Param('comment_id', UuidPipe) commentId: string) {
    return this.commentService.commentReactions(anchor, commentId);
  }

  /** Signed in, reactions on: 201 (200 if the caller already reacted with this code); 403 `BOARD_REACTIONS_DISABLED`. */
  @Post('comments/:comment_id/reactions')
  @BearerAuth()
  async reactToComment(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('comment_id', UuidPipe) commentId: string,
    @Body() body: ReactionDto,
    @Res({ passthrough: true }) res: Response,
  ) {
    const { created, reaction } = await this.commentService.addCommentReaction(
      anchor,
      commentId,
      me.userId,
      body.reaction,
    );
    res.status(created ? 201 : 200);
    return reaction;
  }

  /** Removes the caller's reaction with this code from the comment: 204; 404 if they have none. */
  @Delete('comments/:comment_id/reactions/:reaction_code')
  @BearerAuth()
  @HttpCode(204)
  async unreactToComment(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('comment_id', UuidPipe) commentId: string,
    @Param('reaction_code') code: string,
  ) {
    await this.commentService.removeCommentReaction(anchor, commentId, me.userId, code);
  }

  /**
   * Signed in: the caller's own submissions to the board's intake (`intake-issues/` and the
   * `inbox-issues/` alias), newest first, in the cursor envelope. 403 `BOARD_INTAKE_DISABLED` when
   * the board shows no intake; 404 `NOT_FOUND` for another intake id; 400 `INTAKE_NOT_ENABLED`
   * while the project's intake is off.
   */
  @Get('intakes/:intake_id/intake-issues')
  @BearerAuth()
  intakeItems(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('intake_id', UuidPipe) intakeId: string,
    @PageQuery(APP_PAGING) page: PageRequest,
  ) {
    return this.intakeService.intakeItems(anchor, intakeId, me.userId, page);
  }

  /** Signed in: submits a work item to the intake; 201 with the pending intake item; 422 without `issue.name`. */
  @Post('intakes/:intake_id/intake-issues')
  @BearerAuth()
  submitIntakeItem(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('intake_id', UuidPipe) intakeId: string,
    @Body() body: PublicIntakeDto,
  ) {
    return this.intakeService.submitIntakeItem(anchor, intakeId, me.userId, body.issue);
  }

  /** `inbox-issues/`: Plane's older name of `intake-issues/` (the same list). */
  @Get('intakes/:intake_id/inbox-issues')
  @BearerAuth()
  inboxItems(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('intake_id', UuidPipe) intakeId: string,
    @PageQuery(APP_PAGING) page: PageRequest,
  ) {
    return this.intakeService.intakeItems(anchor, intakeId, me.userId, page);
  }

  /** `inbox-issues/`: Plane's older name of `intake-issues/` (the same submission). */
  @Post('intakes/:intake_id/inbox-issues')
  @BearerAuth()
  submitInboxItem(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('intake_id', UuidPipe) intakeId: string,
    @Body() body: PublicIntakeDto,
  ) {
    return this.intakeService.submitIntakeItem(anchor, intakeId, me.userId, body.issue);
  }

  /** Signed in: one of the caller's own submissions (by intake item id or work item id); else 404. */
  @Get('intakes/:intake_id/intake-issues/:intake_issue_id')
  @BearerAuth()
  intakeItem(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('intake_id', UuidPipe) intakeId: string,
    @Param('intake_issue_id', UuidPipe) id: string,
  ) {
    return this.intakeService.intakeItem(anchor, intakeId, id, me.userId);
  }

  /**
   * Signed in, the submitter only (else 404): `issue.name`, `issue.description_html` and
   * `issue.description` change (Plane reads only these; other keys are ignored).
   */
  @Patch('intakes/:intake_id/intake-issues/:intake_issue_id')
  @BearerAuth()
  updateIntakeItem(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('intake_id', UuidPipe) intakeId: string,
    @Param('intake_issue_id', UuidPipe) id: string,
    @Body() body: PublicIntakeDto,
  ) {
    const issue = body.issue
      ? { name: body.issue.name, description_html: body.issue.description_html, description: body.issue.description }
      : undefined;
    return this.intakeService.updateIntakeItem(anchor, intakeId, id, me.userId, issue);
  }

  /** Signed in, the submitter only (else 404): 204; the pending work item goes too. */
  @Delete('intakes/:intake_id/intake-issues/:intake_issue_id')
  @BearerAuth()
  @HttpCode(204)
  async removeIntakeItem(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('intake_id', UuidPipe) intakeId: string,
    @Param('intake_issue_id', UuidPipe) id: string,
  ) {
    await this.intakeService.removeIntakeItem(anchor, intakeId, id, me.userId);
  }

  /** Every vote on the work item, with who voted (names only). */
  @Get('issues/:issue_id/votes')
  votes(@Param('anchor') anchor: string, @Param('issue_id', UuidPipe) issueId: string) {
    return this.reactionService.votes(anchor, issueId);
  }

  /** Signed in, votes on: 201 with the caller's vote (a second vote replaces the first); 403 `BOARD_VOTES_DISABLED`. */
  @Post('issues/:issue_id/votes')
  @BearerAuth()
  vote(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
    @Body() body: VoteDto,
  ) {
    return this.reactionService.vote(anchor, issueId, me.userId, body.vote);
  }

  /** Removes the caller's vote: 204; 404 if they have none. */
  @Delete('issues/:issue_id/votes')
  @BearerAuth()
  @HttpCode(204)
  async unvote(
    @CurrentPrincipal() me: Principal,
    @Param('anchor') anchor: string,
    @Param('issue_id', UuidPipe) issueId: string,
  ) {
    await this.reactionService.removeVote(anchor, issueId, me.userId);
  }

  /** `[{id, name, group, color, sequence}]`, triage states left out. */
  @Get('states')
  states(@Param('anchor') anchor: string) {
    return this.boards.states(anchor);
  }

  /** `[{id, name, color, parent}]`. */
  @Get('labels')
  labels(@Param('anchor') anchor: string) {
    return this.boards.labels(anchor);
  }

  /** The project's members by name (no emails). */
  @Get('members')
  members(@Param('anchor') anchor: string) {
    return this.boards.members(anchor);
  }

  /** `[{id, name}]`; empty until cycles are wired in (see `PublicBoardService.cycles`). */
  @Get('cycles')
  cycles(@Param('anchor') anchor: string) {
    return this.boards.cycles(anchor);
  }

  /** `[{id, name}]`; empty until modules are wired in (see `PublicBoardService.modules`). */
  @Get('modules')
  modules(@Param('anchor') anchor: string) {
    return this.boards.modules(anchor);
  }
}

/**
 * `GET /api/public/workspaces/{slug}/projects/{project_id}/anchor/` (Plane): the board of a
 * published project, found by workspace slug and project id; 404 `BOARD_NOT_FOUND` otherwise. The
 * parameters are named apart from `slug`/`project_id`, which would call for a membership.
 */
@Controller('workspaces/:workspace_slug/projects/:published_project_id/anchor')
@Public()
@PublicRateLimit()
export class PublicAnchorLookupController {
  constructor(private readonly boards: PublicBoardService) {}

  @Get()
  lookup(@Param('workspace_slug') slug: string, @Param('published_project_id') projectId: string) {
    if (!isUuid(projectId)) throw new MeridianError('BOARD_NOT_FOUND');
    return this.boards.byProject(slug, projectId.toLowerCase());
  }
}

/**
 * `GET /api/public/workspaces/{slug}/project-boards/` (Plane `plane/space/views/project.py`
 * WorkspaceProjectDeployBoardEndpoint, whose handler never runs in 0.25.3: it takes `anchor`, the
 * path gives `slug`): the workspace's published projects, `[{id, identifier, name, description,
 * emoji, icon_prop, cover_image}]`; `[]` for an unknown workspace. Named apart from `slug`, which
 * would call for a membership.
 */
@Controller('workspaces/:workspace_slug/project-boards')
@Public()
@PublicRateLimit()
export class PublicWorkspaceBoardsController {
  constructor(private readonly boards: PublicBoardService) {}

  @Get()
  list(@Param('workspace_slug') slug: string) {
    return this.boards.workspaceBoards(slug);
  }
}
