import { MeridianError, Page, PageRequest, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { IntakeService } from '../intake';
import { appActivityView, issueFlatView, IssueQueryService, PRIORITIES } from '../issue';
import type { AppActivityJson, AppIssueDetails, IntakeSource, Issue, IssueActivity, IssueFilterSet } from '../issue';
import { ProjectService, projectLiteView } from '../project';
import type { Project } from '../project';
import { iso } from '../kernel/time';
import { canSeeEmail, UserProfileService } from '../user';
import type { User } from '../user';
import { WorkspaceService, workspaceLiteView } from '../workspace';
import type { Workspace } from '../workspace';
import { ProfileProjectRow, WorkspaceProfileRepository } from './workspace-profile.repository';

/** History fields the profile activity lists leave out (Plane's `~Q(field__in=[...])`). */
const HIDDEN_FIELDS = ['comment', 'vote', 'reaction', 'draft'];

/** What an activity row is rendered with: its actor, work item, project, workspace and intake source. */
interface ActivityRelations {
  users: Map<string, User>;
  issues: Map<string, Issue>;
  projects: Map<string, Project>;
  workspaces: Map<string, Workspace>;
  sources: Map<string, IntakeSource>;
}

/** `user-profile/`'s `user_data` (Plane's `WorkspaceUserProfileEndpoint`). */
export interface ProfileUserJson {
  email: string;
  first_name: string;
  last_name: string;
  avatar_url: string | null;
  cover_image_url: string | null;
  date_joined: string | null;
  user_timezone: string;
  display_name: string;
}

/** Plane's `WorkspaceUserProfileStatsEndpoint` answer. */
export interface ProfileStatsJson {
  state_distribution: Array<{ state_group: string | null; state_count: number }>;
  priority_distribution: Array<{ priority: string; priority_count: number; priority_order: number }>;
  created_issues: number;
  assigned_issues: number;
  completed_issues: number;
  pending_issues: number;
  subscribed_issues: number;
  present_cycles: Array<{ cycle__name: string; cycle__id: string; cycle__project_id: string }>;
  upcoming_cycles: Array<{ cycle__name: string; cycle__id: string; cycle__project_id: string }>;
}

/** The columns of `user-activity/{user_id}/export/` (Plane's `ExportWorkspaceUserActivityEndpoint`). */
const EXPORT_HEADER = [
  'Actor name',
  'Issue ID',
  'Project',
  'Created at',
  'Updated at',
  'Action',
  'Field',
  'Old value',
  'New value',
];

/** Plane's CSV writer (`csv.writer(quoting=csv.QUOTE_ALL)`): every cell quoted, `"` doubled, CRLF rows. */
function csvRow(cells: Array<string | number | null | undefined>): string {
  return cells.map((c) => `"${String(c ?? '').replace(/"/g, '""')}"`).join(',') + '\r\n';
}

/** Python's `str(datetime)` of an aware UTC time, as Plane's CSV prints it: `2025-01-02 03:04:05.678000+00:00`. */
function pythonTime(d: Date): string {
  const s = d.toISOString();
  return `${s.slice(0, 10)} ${s.slice(11, 23)}000+00:00`;
}

/**
 * A workspace member's profile pages (Plane `plane/app/views/workspace/user.py`:
 * WorkspaceUserProfileEndpoint, WorkspaceUserProfileStatsEndpoint, WorkspaceUserActivityEndpoint;
 * `plane/app/views/workspace/base.py` ExportWorkspaceUserActivityEndpoint; `plane/app/views/user/base.py`
 * UserActivityEndpoint). Every count and row is of the projects the caller is an active member of
 * (a Guest's under each project's Guest rule), so a profile never shows what the caller may not see.
 */
@Injectable()
export class WorkspaceProfileService {
  constructor(
    private readonly repo: WorkspaceProfileRepository,
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
    private readonly projects: ProjectService,
    private readonly issues: IssueQueryService,
    private readonly intake: IntakeService,
  ) {}

  /**
   * `{project_data, user_data}`: for a caller who is a workspace Admin or Member, each of their
   * live projects with the user's created, assigned, completed and pending work items (a Guest: `[]`);
   * the user's public fields (`email` empty for a Guest viewing another). 404 for a user who is not
   * and never was a member of the workspace.
   */
  async profile(
    workspaceId: string,
    viewer: { userId: string; role: number },
    userId: string,
  ): Promise<{ project_data: ProfileProjectRow[]; user_data: ProfileUserJson }> {
    const user = await this.users.userById(userId);
    // a profile of the workspace is one of its members' (past members too); anyone else is a 404
    const member = await this.workspaces.membership(workspaceId, userId);
    if (!user || !member) throw new MeridianError('NOT_FOUND');
    const projects = viewer.role >= ROLE.MEMBER ? await this.projectRows(workspaceId, viewer.userId, userId) : [];
    return {
      project_data: projects,
      user_data: {
        // a workspace Guest sees no one's email but their own, as in the member list
        email: canSeeEmail(viewer, user.id) ? user.email : '',
        first_name: user.firstName,
        last_name: user.lastName,
        avatar_url: user.avatar,
        cover_image_url: user.coverImage,
        date_joined: iso(user.createdAt),
        user_timezone: user.userTimezone,
        display_name: user.displayName,
      },
    };
  }

  /** The summary of `user-stats/`: distributions and counts of the user's work items (`filters` applied), the cycles. */
  async stats(
    workspaceId: string,
    viewerId: string,
    userId: string,
    filters: IssueFilterSet,
  ): Promise<ProfileStatsJson> {
    const [{ counts, states, priorities }, present, upcoming] = await Promise.all([
      this.repo.summary(workspaceId, viewerId, userId, filters),
      this.repo.cyclesOf(workspaceId, viewerId, userId, 'current'),
      this.repo.cyclesOf(workspaceId, viewerId, userId, 'upcoming'),
    ]);
    // Plane's order: urgent, high, medium, low, none
    const order = ['urgent', 'high', 'medium', 'low', 'none'];
    const known = new Set<string>(PRIORITIES);
    const priority_distribution = [...priorities.entries()]
      .filter(([p, n]) => known.has(p) && n >= 1)
      .map(([priority, priority_count]) => ({ priority, priority_count, priority_order: order.indexOf(priority) }))
      .sort((a, b) => a.priority_order - b.priority_order);
    return {
      state_distribution: states,
      priority_distribution,
      ...counts,
      present_cycles: present,
      upcoming_cycles: upcoming,
    };
  }

  /**
   * A page of the user's history in the workspace (Plane's `IssueActivitySerializer` rows), newest
   * first (`order_by=created_at`: oldest first), of the caller's projects (`projectIds`: only those).
   */
  async workspaceActivity(
    workspaceId: string,
    viewerId: string,
    userId: string,
    page: PageRequest,
    opts: { asc: boolean; projectIds?: string[] },
  ): Promise<Page<AppActivityJson>> {
    const rows = await this.issues.actorActivityPage(userId, page, {
      asc: opts.asc,
      exceptFields: HIDDEN_FIELDS,
      scope: { workspaceId, viewerId, projectIds: opts.projectIds },
    });
    return this.render(rows);
  }

  /** `users/me/activities/`: a page of the caller's own history rows everywhere, newest first. */
  async myActivity(userId: string, page: PageRequest, asc: boolean): Promise<Page<AppActivityJson>> {
    return this.render(await this.issues.actorActivityPage(userId, page, { asc, exceptFields: HIDDEN_FIELDS }));
  }

  /**
   * The user's history rows of one UTC day (`YYYY-MM-DD`) in the caller's projects, at most 10000,
   * as Plane's CSV (header row first).
   */
  async exportActivity(workspaceId: string, viewerId: string, userId: string, day: string): Promise<string> {
    const rows = await this.issues.actorActivitiesOn(userId, day, 10000, {
      exceptFields: HIDDEN_FIELDS,
      scope: { workspaceId, viewerId },
    });
    const rel = await this.relationsOf(rows);
    let out = csvRow(EXPORT_HEADER);
    for (const a of rows) {
      const project = rel.projects.get(a.projectId);
      const issue = a.issueId ? rel.issues.get(a.issueId) : undefined;
      out += csvRow([
        a.actorId ? rel.users.get(a.actorId)?.displayName : '',
        `${project?.identifier ?? ''} - ${issue ? issue.sequenceId : ''}`,
        project?.name,
        pythonTime(a.createdAt),
        pythonTime(a.updatedAt),
        a.verb,
        a.field,
        a.oldValue,
        a.newValue,
      ]);
    }
    return out;
  }

  /**
   * The workspace's live, unarchived projects the viewer is an active member of, oldest first
   * (the project door), each with `userId`'s created, assigned, completed and pending work items
   * among those the viewer may see (one aggregate).
   */
  private async projectRows(workspaceId: string, viewerId: string, userId: string): Promise<ProfileProjectRow[]> {
    const counts = await this.repo.projectCounts(workspaceId, viewerId, userId);
    const projects = await this.projects.openProjectsOfMember(workspaceId, viewerId);
    return projects.map((p) => ({
      id: p.id,
      logo_props: p.logoProps,
      created_issues: 0,
      assigned_issues: 0,
      completed_issues: 0,
      pending_issues: 0,
      ...counts.get(p.id),
    }));
  }

  /**
   * The actors, work items (deleted ones too), projects, workspaces (deleted too) and intake
   * sources of `rows`, through their rooms' doors (one statement each, at once).
   */
  private async relationsOf(rows: IssueActivity[]): Promise<ActivityRelations> {
    const ids = <T>(pick: (a: IssueActivity) => T | null) => [
      ...new Set(rows.map(pick).filter((v): v is T => v !== null)),
    ];
    const issueIds = ids((a) => a.issueId);
    const [users, issues, projects, workspaces, sources] = await Promise.all([
      this.users.liveUsers(ids((a) => a.actorId)),
      this.issues.issuesWithDeleted(issueIds),
      this.projects.projectsWithDeleted(ids((a) => a.projectId)),
      this.workspaces.workspacesWithDeleted(ids((a) => a.workspaceId)),
      this.intake.sourcesOf(issueIds),
    ]);
    return {
      users: new Map(users.map((u) => [u.id, u])),
      issues: new Map(issues.map((i) => [i.id, i])),
      projects: new Map(projects.map((p) => [p.id, p])),
      workspaces: new Map(workspaces.map((w) => [w.id, w])),
      sources: new Map([...sources].map(([id, s]) => [id, { ...s, extra: s.extra ?? {} }])),
    };
  }

  private async render(page: Page<IssueActivity>): Promise<Page<AppActivityJson>> {
    const rel = await this.relationsOf(page.results);
    return page.map((a) => this.row(a, rel));
  }

  private row(a: IssueActivity, rel: ActivityRelations): AppActivityJson {
    const issue = a.issueId ? rel.issues.get(a.issueId) : undefined;
    const project = rel.projects.get(a.projectId);
    const workspace = rel.workspaces.get(a.workspaceId);
    const details = {
      issue_detail: issue ? issueFlatView(issue) : null,
      project_detail: project ? projectLiteView(project) : null,
      workspace_detail: workspace ? workspaceLiteView(workspace) : null,
    } as unknown as AppIssueDetails;
    return appActivityView(
      a,
      a.actorId ? rel.users.get(a.actorId) : undefined,
      details,
      (a.issueId && rel.sources.get(a.issueId)) || null,
    );
  }
}
