import { MeridianError, Page, PageRequest } from '#common';
import { Injectable } from '@nestjs/common';
import { CycleService } from '../cycle';
import { Issue, ISSUE_ORDER_KEYS, IssueOrderKey, IssueQueryService, PRIORITIES } from '../issue';
import type { BoardIssueOrder, GroupedIssues } from '../issue';
import { iso } from '../kernel/time';
import { LabelService } from '../label';
import { ModuleService } from '../module';
import { ProjectMemberService, ProjectService } from '../project';
import { STATE_GROUPS, StateService } from '../state';
import { UserProfileService } from '../user';
import { WorkspaceService } from '../workspace';
import { deployBoardView } from './deploy-board.view';
import { DeployBoardRepository } from './deploy-board.repository';
import { PublicBoardAccess } from './public-board-access';

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

const ORDER_KEYS: Record<string, IssueOrderKey> = Object.fromEntries(
  ['created_at', 'updated_at', 'sequence_id', 'priority'].map((k) => [k, ISSUE_ORDER_KEYS[k]]),
);
/** Accepted `order_by` values of the public list; `-` reverses. */
export const PUBLIC_ISSUE_ORDER_BY = Object.keys(ORDER_KEYS).flatMap((k) => [k, `-${k}`]);

/**
 * The Public API (`/api/public/anchor/{anchor}/…`, Plane `plane/space/views/`): what a published
 * project shows to anyone: its face and settings, its visible work items (flat or grouped), and its
 * states, labels, members, cycles and modules. An unknown anchor, an unpublished board, or a board
 * whose project or workspace is deleted or archived is a 404 `BOARD_NOT_FOUND`. Comments are
 * `PublicCommentService`'s, reactions and votes `PublicReactionService`'s, the intake
 * `PublicIntakeService`'s; all start from `PublicBoardAccess`.
 *
 * Nothing private leaves here: people are shown by name and avatar only (never by email), and every
 * id read is checked to belong to the board's project.
 */
@Injectable()
export class PublicBoardService {
  constructor(
    private readonly access: PublicBoardAccess,
    private readonly boards: DeployBoardRepository,
    private readonly issuesRoom: IssueQueryService,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly membersRoom: ProjectMemberService,
    private readonly users: UserProfileService,
    private readonly statesRoom: StateService,
    private readonly labelsRoom: LabelService,
    private readonly cyclesRoom: CycleService,
    private readonly modulesRoom: ModuleService,
  ) {}

  /** `meta/`: the project's public face `{id, identifier, name, cover_image, icon_prop, emoji, description, logo_props}`. */
  async meta(anchor: string) {
    const { project: p } = await this.access.board(anchor);
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
    const { board, project, workspace } = await this.access.board(anchor);
    return deployBoardView(board, project, workspace, 'public');
  }

  /** The anchor of a published project, looked up by workspace slug and project id: the board, or 404. */
  async byProject(slug: string, projectId: string) {
    const workspace = await this.workspaces.findLiveBySlug(slug);
    const b = workspace && (await this.boards.boardOfProject(workspace.id, projectId));
    if (!b) throw new MeridianError('BOARD_NOT_FOUND');
    return this.settings(b.anchor);
  }

  /**
   * `issues/`: the project's visible work items (not archived, not drafts, not in triage), newest
   * first unless `order_by` (see `PUBLIC_ISSUE_ORDER_BY`, else 400 `INVALID_QUERY_PARAMETER`);
   * filters `state`, `state_group`, `priority`, `labels`, `assignees` (any value matches); paginated.
   */
  async issues(anchor: string, query: PublicIssueQuery): Promise<Page<PublicIssueJson> | GroupedIssues> {
    const { project } = await this.access.board(anchor);
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
    const page = await this.issuesRoom.boardIssuesPage(project.id, query, query.page, order);
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
    order: BoardIssueOrder,
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
      const page = await this.issuesRoom.boardIssuesPage(projectId, { ...query, [field]: [k] }, query.page, order);
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
    const { project } = await this.access.board(anchor);
    const issue = await this.access.findIssue(project.id, issueId);
    const [item] = await this.renderIssues([issue]);
    return {
      ...item,
      description: null,
      description_html: issue.descriptionHtml,
      description_stripped: issue.descriptionStripped,
      description_binary: null,
    };
  }

  /** The board's workspace and project for the visitors' uploads (`AssetService`'s board routes); 404 `BOARD_NOT_FOUND`. */
  async assetScope(anchor: string): Promise<{ workspaceId: string; projectId: string; anchor: string }> {
    const { board, project } = await this.access.board(anchor);
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
    const workspace = await this.workspaces.findLiveBySlug(slug);
    if (!workspace) return [];
    const projects = await this.projects.unarchivedProjects(
      workspace.id,
      await this.boards.publishedProjectIds(workspace.id),
    );
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

  // ---- project lists ---------------------------------------------------------------------------

  /** `states/`: `[{id, name, group, color, sequence}]` by sequence; triage states left out (Plane). */
  async states(anchor: string) {
    const { project } = await this.access.board(anchor);
    const rows = await this.statesRoom.nonTriageStates(project.id);
    return rows.map((s) => ({ id: s.id, name: s.name, group: s.group, color: s.color, sequence: s.sequence }));
  }

  /** `labels/`: `[{id, name, color, parent}]` by sort order. */
  async labels(anchor: string) {
    const { project } = await this.access.board(anchor);
    const rows = await this.labelsRoom.labelsOfProject(project.id);
    return rows.map((l) => ({ id: l.id, name: l.name, color: l.color, parent: l.parentId }));
  }

  /**
   * `members/`: the project's active members by name (Plane's shape
   * `{id, member, member__first_name, member__last_name, member__display_name, project, workspace}`), no email.
   */
  async members(anchor: string) {
    const { project } = await this.access.board(anchor);
    const rows = await this.membersRoom.activeMemberships(project.id);
    const users = new Map((await this.users.liveUsers(rows.map((r) => r.memberId))).map((u) => [u.id, u]));
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
    const { project } = await this.access.board(anchor);
    const rows = await this.cyclesRoom.openNames(project.id);
    return rows.map((c) => ({ id: c.id, name: c.name }));
  }

  /** `modules/`: the project's live, unarchived modules as `[{id, name}]`, oldest first. */
  async modules(anchor: string): Promise<Array<{ id: string; name: string }>> {
    const { project } = await this.access.board(anchor);
    const rows = await this.modulesRoom.openNames(project.id);
    return rows.map((m) => ({ id: m.id, name: m.name }));
  }

  /** Plane's public issue item: ids of state, labels and assignees, with the vote and reaction items. */
  async renderIssues(issues: Issue[]) {
    if (!issues.length) return [];
    const { assignees, labels, votes, reactions, cycleLinks, moduleLinks, states } = await this.issueDetails(issues);
    const actors = await this.access.actors([...votes.map((v) => v.actorId), ...reactions.map((r) => r.actorId)]);
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
      label_ids: (l.get(i.id) ?? []).map((x) => x.labelId),
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

  /**
   * What a page of work items shows of them, from their rooms: assignees and labels (live labels
   * only), votes and reactions (oldest first), cycle and module links, and their states (deleted
   * ones too, for the group).
   */
  private async issueDetails(issues: Issue[]) {
    const ids = issues.map((i) => i.id);
    const stateIds = issues.map((i) => i.stateId).filter((s): s is string => !!s);
    const [rows, cycleLinks, moduleLinks, states] = await Promise.all([
      this.issuesRoom.boardRows(ids),
      this.cyclesRoom.linksOfIssues(ids),
      this.modulesRoom.linksOfIssues(ids),
      this.statesRoom.statesWithDeleted(stateIds),
    ]);
    const liveLabels = await this.labelsRoom.liveLabelIds(rows.labels.map((l) => l.labelId));
    return {
      ...rows,
      labels: rows.labels.filter((l) => liveLabels.has(l.labelId)),
      cycleLinks,
      moduleLinks,
      states,
    };
  }
}

export type PublicIssueJson = Awaited<ReturnType<PublicBoardService['renderIssues']>>[number];
