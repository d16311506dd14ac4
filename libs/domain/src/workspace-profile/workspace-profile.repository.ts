import { ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { bindNamed, guestCondition, issueFilterConditions, visibleIssuesQuery } from '../issue';
import type { Issue, IssueFilterSet } from '../issue';

/** The state groups Plane counts as pending (`~Q(state__group__in=["completed", "cancelled"])`). */
const PENDING_GROUPS = ['backlog', 'unstarted', 'started', 'triage'];

/** The counts of a profile's summary (Plane's `WorkspaceUserProfileStatsEndpoint`). */
export interface ProfileCounts {
  created_issues: number;
  assigned_issues: number;
  completed_issues: number;
  pending_issues: number;
  subscribed_issues: number;
}

/** A row of `user-profile/`'s `project_data`. */
export interface ProfileProjectRow {
  id: string;
  logo_props: Record<string, unknown>;
  created_issues: number;
  assigned_issues: number;
  completed_issues: number;
  pending_issues: number;
}

/**
 * The profile pages' counts (Plane `plane/app/views/workspace/user.py`): read-model statements over
 * the work items the caller may see, composed of the issue room's published SQL (its visible work
 * items, Guest rule and filter compiler) and the caller's active project memberships, one
 * aggregate each. The user, memberships, projects and history rows come through their rooms' doors.
 */
@Injectable()
export class WorkspaceProfileRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /**
   * The visible work items of the workspace's live projects `viewerId` is an active member of (a
   * Guest's under the project's Guest rule), narrowed by `filters`; `params` collects the values.
   */
  private seen(
    workspaceId: string,
    viewerId: string,
    filters: IssueFilterSet,
    params: Record<string, unknown>,
  ): SelectQueryBuilder<Issue> {
    const bind = bindNamed(params, 'wp');
    const viewer = bind(viewerId);
    const qb = visibleIssuesQuery(this.dataSource.manager)
      .andWhere(`p.workspace_id = ${bind(workspaceId)}`)
      .andWhere(
        `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = i.project_id AND pm.member_id = ${viewer}
          AND pm.is_active = true AND pm.deleted_at IS NULL AND (pm.role > ${ROLE.GUEST} OR ${guestCondition(viewerId, bind)}))`,
      );
    for (const condition of issueFilterConditions(filters, bind)) qb.andWhere(condition);
    return qb;
  }

  /**
   * The work items `userId` created, is assigned or (with `subscribed`) subscribes to: every count
   * of a profile is of those, so the statement starts from the user's own rows, each relation
   * through its index: `i.created_by_id = user` (`ix_issues_created_by`) OR `i.id = ANY(ARRAY(…))`
   * of the user's assignment and subscription rows (`ix_issue_assignees_assignee_created`,
   * `ix_issue_subscribers_subscriber`), the array computed once and looked up by primary key.
   * As `i.id IN (… UNION …)`, PostgreSQL planned a scan of every work item of the workspace hashed
   * against the ids (over 1 s at a million work items for a user's ten thousand); the creator's
   * condition stays on the work item so that, for a user who created most of them, the planner
   * still reads them in one pass rather than an array of as many ids.
   */
  private ofUser(userId: string, params: Record<string, unknown>, subscribed: boolean): string {
    const user = `${bindNamed(params, 'wu')(userId)}::uuid`;
    const parts = [`SELECT ia.issue_id FROM issue_assignees ia WHERE ia.assignee_id = ${user}`];
    if (subscribed) parts.push(`SELECT su.issue_id FROM issue_subscribers su WHERE su.subscriber_id = ${user}`);
    return `(i.created_by_id = ${user} OR i.id = ANY(ARRAY(${parts.join(' UNION ')})))`;
  }

  /** `(a AND b …)` of the compiled filters, for a `FILTER (WHERE …)` clause. */
  private condition(filters: IssueFilterSet, params: Record<string, unknown>, prefix: string): string {
    return `(${issueFilterConditions(filters, bindNamed(params, prefix)).join(' AND ')})`;
  }

  /**
   * The summary of `user-stats/` in one pass over `userId`'s work items (created, assigned or
   * subscribed: `ofUser`) among those the viewer may see, `filters` applied: the counts
   * (`ProfileCounts`), and the user's assigned work items per state group (`states`, groups with
   * none left out, in the group's order; `null` for a work item whose state is unset or gone) and
   * per priority (`priorities`, those with none left out). The distributions replace a filter's
   * own `assignee` with the user (Plane's `.filter(assignees__in=[user_id])` before `**filters`, the
   * web app's profile filters); the counts keep it. Per state group and priority, each figure is a
   * `COUNT(*) FILTER` of its own condition.
   */
  async summary(
    workspaceId: string,
    viewerId: string,
    userId: string,
    filters: IssueFilterSet,
  ): Promise<{
    counts: ProfileCounts;
    states: Array<{ state_group: string | null; state_count: number }>;
    priorities: Map<string, number>;
  }> {
    const params: Record<string, unknown> = {};
    const { assignee: filterAssignees, ...rest } = filters;
    const own = filterAssignees?.length ? this.condition({ assignee: filterAssignees }, params, 'wf') : 'true';
    const mine = this.condition({ assignee: [userId] }, params, 'wa');
    const created = this.condition({ created_by: [userId] }, params, 'wc');
    const pending = this.condition({ assignee: [userId], state_group: PENDING_GROUPS }, params, 'wq');
    const completed = this.condition({ assignee: [userId], state_group: ['completed'] }, params, 'wd');
    const subscribed = this.condition({ subscriber: [userId] }, params, 'ws');
    const rows = await this.seen(workspaceId, viewerId, rest, params)
      .andWhere(this.ofUser(userId, params, true))
      .leftJoin('State', 'sd', 'sd.id = i.state_id')
      .select(`sd."group"`, 'state_group')
      .addSelect('i.priority', 'priority')
      .addSelect(`COUNT(*) FILTER (WHERE ${own} AND ${created})`, 'created_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${own} AND ${mine})`, 'assigned_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${own} AND ${completed})`, 'completed_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${own} AND ${pending})`, 'pending_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${own} AND ${subscribed})`, 'subscribed_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${mine})`, 'mine')
      .groupBy(`sd."group"`)
      .addGroupBy('i.priority')
      .orderBy(`sd."group"`)
      .setParameters(params)
      .getRawMany<Record<keyof ProfileCounts | 'mine' | 'priority' | 'state_group', string | null>>();
    const counts: ProfileCounts = {
      created_issues: 0,
      assigned_issues: 0,
      completed_issues: 0,
      pending_issues: 0,
      subscribed_issues: 0,
    };
    const states = new Map<string | null, number>();
    const priorities = new Map<string, number>();
    for (const r of rows) {
      for (const k of Object.keys(counts) as Array<keyof ProfileCounts>) counts[k] += Number(r[k] ?? 0);
      const n = Number(r.mine ?? 0);
      if (n === 0) continue;
      states.set(r.state_group, (states.get(r.state_group) ?? 0) + n);
      priorities.set(String(r.priority), (priorities.get(String(r.priority)) ?? 0) + n);
    }
    return {
      counts,
      states: [...states].map(([state_group, state_count]) => ({ state_group, state_count })),
      priorities,
    };
  }

  /**
   * Per project (`project_id`) of the work items the viewer may see in the workspace, `userId`'s
   * created, assigned, completed and pending ones (projects without any are absent).
   */
  async projectCounts(
    workspaceId: string,
    viewerId: string,
    userId: string,
  ): Promise<Map<string, Omit<ProfileProjectRow, 'id' | 'logo_props'>>> {
    const params: Record<string, unknown> = {};
    const assigned = this.condition({ assignee: [userId] }, params, 'wa');
    const created = this.condition({ created_by: [userId] }, params, 'wc');
    const pending = this.condition(
      { assignee: [userId], state_group: ['backlog', 'unstarted', 'started'] },
      params,
      'wq',
    );
    const completed = `(i.completed_at IS NOT NULL AND ${assigned})`;
    const counts = await this.seen(workspaceId, viewerId, {}, params)
      .andWhere(this.ofUser(userId, params, false))
      .select('i.project_id', 'project_id')
      .addSelect(`COUNT(*) FILTER (WHERE ${created})`, 'created_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${assigned})`, 'assigned_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${completed})`, 'completed_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${pending})`, 'pending_issues')
      .groupBy('i.project_id')
      .setParameters(params)
      .getRawMany<Record<string, string>>();
    return new Map(
      counts.map((c) => [
        c.project_id,
        {
          created_issues: Number(c.created_issues ?? 0),
          assigned_issues: Number(c.assigned_issues ?? 0),
          completed_issues: Number(c.completed_issues ?? 0),
          pending_issues: Number(c.pending_issues ?? 0),
        },
      ]),
    );
  }

  /**
   * The live cycles of the projects the viewer is an active member of that hold a visible work
   * item assigned to `userId`: those under way (`current`: started, not ended) or upcoming. One
   * statement: the cycle room's `cycles` and `cycle_issues`, read by name, over the visible work
   * items as a subquery (the cycles holding any of them, however many there are).
   */
  async cyclesOf(
    workspaceId: string,
    viewerId: string,
    userId: string,
    when: 'current' | 'upcoming',
  ): Promise<Array<{ cycle__name: string; cycle__id: string; cycle__project_id: string }>> {
    const params: Record<string, unknown> = {};
    const issues = this.seen(workspaceId, viewerId, { assignee: [userId] }, params).select('i.id');
    const timing = when === 'current' ? 'c.start_date < now() AND c.end_date > now()' : 'c.start_date > now()';
    return this.dataSource.manager
      .createQueryBuilder()
      .select('c.name', 'cycle__name')
      .addSelect('c.id', 'cycle__id')
      .addSelect('c.project_id', 'cycle__project_id')
      .from('cycles', 'c')
      .where(`c.deleted_at IS NULL AND ${timing}`)
      .andWhere(
        `EXISTS (SELECT 1 FROM cycle_issues ci WHERE ci.cycle_id = c.id AND ci.deleted_at IS NULL AND ci.issue_id IN (${issues.getQuery()}))`,
      )
      .orderBy('c.start_date', 'ASC')
      .addOrderBy('c.id', 'ASC')
      .setParameters(params)
      .getRawMany();
  }
}
