import { Page, PageRequest, paginate, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, In, SelectQueryBuilder } from 'typeorm';
import { bindNamed, guestCondition, Issue, IssueActivity, issueFilterConditions, visibleIssuesQuery } from '../issue';
import type { IntakeSource, IssueFilterSet } from '../issue';
import { Project } from '../project';
import { User } from '../user';
import { Workspace, WorkspaceMember } from '../workspace';

/** History fields the profile activity lists leave out (Plane's `~Q(field__in=[...])`). */
const HIDDEN_FIELDS = ['comment', 'vote', 'reaction', 'draft'];

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

/** What an activity row is rendered with: its actor, work item, project, workspace and intake source. */
export interface ActivityRelations {
  users: Map<string, User>;
  issues: Map<string, Issue>;
  projects: Map<string, Project>;
  workspaces: Map<string, Workspace>;
  sources: Map<string, IntakeSource>;
}

/**
 * All of the profile pages' SQL (Plane `plane/app/views/workspace/user.py`): the counts over the
 * work items the caller may see (the issue room's visible work items and its filter compiler, the
 * caller's active project memberships, each project's Guest rule), and the history rows of a user.
 */
@Injectable()
export class WorkspaceProfileRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The live user `id`, or null. */
  user(id: string): Promise<User | null> {
    return this.dataSource.getRepository(User).findOneBy({ id });
  }

  /** Whether the user has a membership row in the workspace (the repository's default scope, as a profile needs). */
  hasMembership(workspaceId: string, userId: string): Promise<boolean> {
    return this.dataSource.getRepository(WorkspaceMember).existsBy({ workspaceId, memberId: userId });
  }

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

  /** `(a AND b …)` of the compiled filters, for a `FILTER (WHERE …)` clause. */
  private condition(filters: IssueFilterSet, params: Record<string, unknown>, prefix: string): string {
    return `(${issueFilterConditions(filters, bindNamed(params, prefix)).join(' AND ')})`;
  }

  /** The summary counts of `userId`'s work items among those the viewer may see, `filters` applied. */
  async counts(workspaceId: string, viewerId: string, userId: string, filters: IssueFilterSet): Promise<ProfileCounts> {
    const params: Record<string, unknown> = {};
    const assigned = this.condition({ assignee: [userId] }, params, 'wa');
    const created = this.condition({ created_by: [userId] }, params, 'wc');
    const pending = this.condition({ assignee: [userId], state_group: PENDING_GROUPS }, params, 'wq');
    const completed = this.condition({ assignee: [userId], state_group: ['completed'] }, params, 'wd');
    const subscribed = this.condition({ subscriber: [userId] }, params, 'ws');
    const row = await this.seen(workspaceId, viewerId, filters, params)
      .select(`COUNT(*) FILTER (WHERE ${created})`, 'created_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${assigned})`, 'assigned_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${completed})`, 'completed_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${pending})`, 'pending_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${subscribed})`, 'subscribed_issues')
      .setParameters(params)
      .getRawOne<Record<keyof ProfileCounts, string | number>>();
    const n = (v: string | number | undefined) => Number(v ?? 0);
    return {
      created_issues: n(row?.created_issues),
      assigned_issues: n(row?.assigned_issues),
      completed_issues: n(row?.completed_issues),
      pending_issues: n(row?.pending_issues),
      subscribed_issues: n(row?.subscribed_issues),
    };
  }

  /** `userId`'s assigned work items per state group (groups with none left out), `filters` applied. */
  async stateDistribution(
    workspaceId: string,
    viewerId: string,
    userId: string,
    filters: IssueFilterSet,
  ): Promise<Array<{ state_group: string | null; state_count: number }>> {
    const params: Record<string, unknown> = {};
    const rows = await this.seen(workspaceId, viewerId, { ...filters, assignee: [userId] }, params)
      .leftJoin('State', 'sd', 'sd.id = i.state_id')
      .select(`sd."group"`, 'state_group')
      .addSelect('COUNT(*)', 'state_count')
      .groupBy(`sd."group"`)
      .orderBy(`sd."group"`)
      .setParameters(params)
      .getRawMany<{ state_group: string | null; state_count: string }>();
    return rows.map((r) => ({ state_group: r.state_group, state_count: Number(r.state_count) }));
  }

  /** `userId`'s assigned work items per priority (those with none left out), `filters` applied. */
  async priorityCounts(
    workspaceId: string,
    viewerId: string,
    userId: string,
    filters: IssueFilterSet,
  ): Promise<Map<string, number>> {
    const params: Record<string, unknown> = {};
    const rows = await this.seen(workspaceId, viewerId, { ...filters, assignee: [userId] }, params)
      .select('i.priority', 'priority')
      .addSelect('COUNT(*)', 'priority_count')
      .groupBy('i.priority')
      .setParameters(params)
      .getRawMany<{ priority: string; priority_count: string }>();
    return new Map(rows.map((r) => [r.priority, Number(r.priority_count)]));
  }

  /**
   * The workspace's live, unarchived projects `viewerId` is an active member of, oldest first, each
   * with `userId`'s created, assigned, completed and pending work items among those the viewer may see.
   */
  async projectCounts(workspaceId: string, viewerId: string, userId: string): Promise<ProfileProjectRow[]> {
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
      .select('i.project_id', 'project_id')
      .addSelect(`COUNT(*) FILTER (WHERE ${created})`, 'created_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${assigned})`, 'assigned_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${completed})`, 'completed_issues')
      .addSelect(`COUNT(*) FILTER (WHERE ${pending})`, 'pending_issues')
      .groupBy('i.project_id')
      .setParameters(params)
      .getRawMany<Record<string, string>>();
    const byProject = new Map(counts.map((c) => [c.project_id, c]));
    const projects = await this.dataSource
      .getRepository(Project)
      .createQueryBuilder('p')
      .where('p.workspaceId = :workspaceId AND p.archivedAt IS NULL', { workspaceId })
      .andWhere(
        `EXISTS (SELECT 1 FROM project_members pm WHERE pm.project_id = p.id AND pm.member_id = :viewerId
          AND pm.is_active = true AND pm.deleted_at IS NULL)`,
        { viewerId },
      )
      .orderBy('p.createdAt', 'ASC')
      .getMany();
    return projects.map((p) => {
      const c = byProject.get(p.id);
      return {
        id: p.id,
        logo_props: p.logoProps,
        created_issues: Number(c?.created_issues ?? 0),
        assigned_issues: Number(c?.assigned_issues ?? 0),
        completed_issues: Number(c?.completed_issues ?? 0),
        pending_issues: Number(c?.pending_issues ?? 0),
      };
    });
  }

  /**
   * The live cycles of the projects the viewer is an active member of that hold a visible work
   * item assigned to `userId`: those under way (`current`: started, not ended) or upcoming.
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

  /**
   * A page of `actorId`'s history rows, newest first (`asc`: oldest first), without the hidden
   * fields; with `workspaceId`, only those of that workspace's live, unarchived projects `viewerId`
   * is an active member of (and of `projectIds` when given).
   */
  activityPage(
    actorId: string,
    page: PageRequest,
    asc: boolean,
    scope?: { workspaceId: string; viewerId: string; projectIds?: string[] },
  ): Promise<Page<IssueActivity>> {
    const qb = this.activities(actorId, scope);
    return paginate(qb, page, { order: asc ? 'ASC' : 'DESC' });
  }

  /** `actorId`'s history rows of one UTC day in the scope (as `activityPage`), newest first, at most `limit`. */
  activitiesOn(
    actorId: string,
    day: string,
    limit: number,
    scope: { workspaceId: string; viewerId: string },
  ): Promise<IssueActivity[]> {
    return this.activities(actorId, scope)
      .andWhere(`(a.createdAt AT TIME ZONE 'UTC')::date = :day::date`, { day })
      .orderBy('a.createdAt', 'DESC')
      .addOrderBy('a.id', 'DESC')
      .take(limit)
      .getMany();
  }

  private activities(
    actorId: string,
    scope?: { workspaceId: string; viewerId: string; projectIds?: string[] },
  ): SelectQueryBuilder<IssueActivity> {
    const qb = this.dataSource
      .getRepository(IssueActivity)
      .createQueryBuilder('a')
      .where('a.actorId = :actorId AND (a.field IS NULL OR a.field NOT IN (:...hidden))', {
        actorId,
        hidden: HIDDEN_FIELDS,
      });
    if (scope) {
      qb.andWhere('a.workspaceId = :workspaceId', { workspaceId: scope.workspaceId }).andWhere(
        `EXISTS (SELECT 1 FROM project_members pm JOIN projects ap ON ap.id = pm.project_id AND ap.deleted_at IS NULL
           AND ap.archived_at IS NULL WHERE pm.project_id = a.project_id AND pm.member_id = :viewerId
           AND pm.is_active = true AND pm.deleted_at IS NULL)`,
        { viewerId: scope.viewerId },
      );
      if (scope.projectIds?.length) qb.andWhere('a.projectId IN (:...projectIds)', { projectIds: scope.projectIds });
    }
    return qb;
  }

  /** The actors, work items (deleted ones too), projects, workspaces and intake sources of `rows`. */
  async relationsOf(rows: IssueActivity[]): Promise<ActivityRelations> {
    const ids = <T>(pick: (a: IssueActivity) => T | null) => [
      ...new Set(rows.map(pick).filter((v): v is T => v !== null)),
    ];
    const em = this.dataSource.manager;
    const issueIds = ids((a) => a.issueId);
    const [users, issues, projects, workspaces, sources] = await Promise.all([
      em.getRepository(User).find({ where: { id: In(ids((a) => a.actorId)) } }),
      em.getRepository(Issue).find({ where: { id: In(issueIds) }, withDeleted: true }),
      em.getRepository(Project).find({ where: { id: In(ids((a) => a.projectId)) }, withDeleted: true }),
      em.getRepository(Workspace).find({ where: { id: In(ids((a) => a.workspaceId)) }, withDeleted: true }),
      issueIds.length
        ? em.query<
            Array<{
              issue_id: string;
              source: string | null;
              source_email: string | null;
              extra: Record<string, unknown> | null;
            }>
          >(
            `SELECT DISTINCT ON (issue_id) issue_id, source, source_email, extra FROM intake_issues
              WHERE issue_id = ANY($1::uuid[]) AND deleted_at IS NULL ORDER BY issue_id, created_at`,
            [issueIds],
          )
        : [],
    ]);
    return {
      users: new Map(users.map((u) => [u.id, u])),
      issues: new Map(issues.map((i) => [i.id, i])),
      projects: new Map(projects.map((p) => [p.id, p])),
      workspaces: new Map(workspaces.map((w) => [w.id, w])),
      sources: new Map(
        sources.map((s) => [s.issue_id, { source: s.source, source_email: s.source_email, extra: s.extra ?? {} }]),
      ),
    };
  }
}
