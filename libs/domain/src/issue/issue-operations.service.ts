import { MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { assertProjectWritable } from '../kernel/project-writable';
import { StateService } from '../state';
import { writeActivities } from './activity-writer';
import { Issue, Priority } from './issue.entity';
import { IssueAssignee } from './issue-assignee.entity';
import { IssueLabel } from './issue-label.entity';
import { IssueCommandService, IssueContext, IssueInput } from './issue-command.service';
import { AppIssueJson, IssueQueryService } from './issue-query.service';
import { IssueRepository } from './issue.repository';

/** `bulk-operation-issues/` `properties` (Plane's `BulkIssueOperationsEndpoint`). */
export interface BulkIssueProperties {
  state_id?: string | null;
  priority?: Priority;
  start_date?: string | null;
  target_date?: string | null;
  estimate_point?: string | null;
  /** added to each work item's labels / assignees (Plane adds, it does not replace) */
  label_ids?: string[];
  assignee_ids?: string[];
}

/**
 * App API operations on work items that go beyond one item's create/update/delete: archive and
 * unarchive (Plane's `IssueArchiveViewSet`), bulk update, delete and archive (each in one
 * transaction: all or nothing), and sub-issues. Every change goes through
 * `IssueCommandService.update` / `remove`, so the rules (states, parents, dates, history) are the same as for one item.
 */
@Injectable()
export class IssueOperationsService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly issues: IssueQueryService,
    private readonly commands: IssueCommandService,
    private readonly repo: IssueRepository,
    private readonly states: StateService,
  ) {}

  /**
   * `POST issues/{id}/archive/` → `{archived_at}` (a date). Only a visible work item whose state is
   * in the `completed` or `cancelled` group (400 `ISSUE_NOT_ARCHIVABLE`), as in Plane. History
   * "archived_at".
   */
  async archive(ctx: IssueContext, issueId: string): Promise<{ archived_at: string }> {
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const [issue] = await this.archivable(em, ctx.projectId, [issueId]);
      const today = new Date().toISOString().slice(0, 10);
      await this.setArchived(em, ctx, [issue], today);
      return { archived_at: today };
    });
  }

  /** `POST bulk-archive-issues/` `{issue_ids}` → `{archived_at}`; all or none (400 `ISSUE_NOT_ARCHIVABLE`, 422 unknown ids). */
  async bulkArchive(ctx: IssueContext, issueIds: string[]): Promise<{ archived_at: string }> {
    return this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const issues = await this.archivable(em, ctx.projectId, issueIds);
      const today = new Date().toISOString().slice(0, 10);
      await this.setArchived(em, ctx, issues, today);
      return { archived_at: today };
    });
  }

  /** `DELETE issues/{id}/archive/` → 204: the archived work item is visible again; 404 if it is not archived. */
  async unarchive(ctx: IssueContext, issueId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const issue = await this.repo.issueInProject(em, ctx.projectId, issueId);
      if (!issue || !issue.archivedAt || issue.isDraft) throw new MeridianError('NOT_FOUND');
      await this.repo.updateIssue(em, issueId, { archivedAt: null, updatedById: ctx.userId, updatedAt: new Date() });
      await writeActivities(em, ctx, [
        {
          issueId,
          verb: 'updated',
          field: 'archived_at',
          oldValue: 'archive',
          newValue: 'restore',
          comment: 'has restored the issue',
        },
      ]);
    });
  }

  /**
   * `DELETE bulk-delete-issues/` `{issue_ids}` → `{message: "N issues were deleted"}`. The live work
   * items of the project among the ids are deleted in one transaction, each as `IssueCommandService.remove`
   * does (history, sub-items lose their parent); ids of other projects are ignored, as in Plane.
   * An empty list is 422.
   */
  async bulkDelete(ctx: IssueContext, issueIds: string[]): Promise<{ message: string }> {
    const wanted = this.ids(issueIds, 'issue_ids');
    return this.dataSource.transaction(async (em) => {
      const found = await this.repo.lockIdsInProject(em, ctx.projectId, wanted);
      for (const id of found) await this.commands.remove(ctx, id, em);
      return { message: `${found.length} issues were deleted` };
    });
  }

  /**
   * `POST bulk-operation-issues/` `{issue_ids, properties}` → 204. Every work item gets the same
   * properties through `IssueCommandService.update`, in one transaction: one invalid item (unknown id,
   * foreign state, start after target) rolls all back. `label_ids` and `assignee_ids` are added
   * to each item's own, as in Plane.
   */
  async bulkUpdate(ctx: IssueContext, issueIds: string[], properties: BulkIssueProperties): Promise<void> {
    const wanted = this.ids(issueIds, 'issue_ids');
    await this.dataSource.transaction(async (em) => {
      const found = await this.repo.lockIdsInProject(em, ctx.projectId, wanted);
      const missing = wanted.filter((id) => !found.includes(id));
      if (missing.length)
        throw validationError({ issue_ids: [`Not work items of this project: ${missing.join(', ')}.`] });
      for (const id of found) {
        const input: IssueInput = {};
        if (properties.state_id !== undefined) input.state = properties.state_id;
        if (properties.priority !== undefined) input.priority = properties.priority;
        if (properties.start_date !== undefined) input.start_date = properties.start_date;
        if (properties.target_date !== undefined) input.target_date = properties.target_date;
        if (properties.estimate_point !== undefined) input.estimate_point = properties.estimate_point;
        if (properties.label_ids?.length) {
          const current = await this.repo.setOf(em, IssueLabel, 'labelId', id);
          input.labels = [...new Set([...current, ...properties.label_ids])];
        }
        if (properties.assignee_ids?.length) {
          const current = await this.repo.setOf(em, IssueAssignee, 'assigneeId', id);
          input.assignees = [...new Set([...current, ...properties.assignee_ids])];
        }
        await this.commands.update(ctx, id, input, em);
      }
    });
  }

  /**
   * `POST issue-dates/` `{updates: [{id, start_date?, target_date?}]}` → `{message}` (Plane's
   * `IssueBulkUpdateDateEndpoint`, the gantt chart's drag): each work item of the project gets the
   * dates given (a missing or null date is left as it is, as in Plane) through
   * `IssueCommandService.update` (history), in one transaction; a start after the target rolls all
   * back (422). Ids that are not work items of the project are skipped, as in Plane (which does not
   * look at the project: Meridian does).
   */
  async updateDates(
    ctx: IssueContext,
    updates: Array<{ id: string; start_date?: string | null; target_date?: string | null }>,
  ): Promise<{ message: string }> {
    await this.dataSource.transaction(async (em) => {
      const ids = [...new Set(updates.map((u) => u.id.toLowerCase()))];
      const known = new Set(await this.repo.lockIdsInProject(em, ctx.projectId, ids));
      for (const update of [...updates].sort((a, b) => (a.id.toLowerCase() < b.id.toLowerCase() ? -1 : 1))) {
        const id = update.id.toLowerCase();
        if (!known.has(id)) continue;
        const input: IssueInput = {};
        if (update.start_date) input.start_date = update.start_date;
        if (update.target_date) input.target_date = update.target_date;
        if (input.start_date !== undefined || input.target_date !== undefined)
          await this.commands.update(ctx, id, input, em);
      }
    });
    return { message: 'Issues updated successfully' };
  }

  /**
   * `GET issues/{id}/sub-issues/` → `{sub_issues, state_distribution}` (Plane's `SubIssuesEndpoint`):
   * the visible direct sub-items in the App list shape, oldest first, and their count per state group.
   */
  async subIssues(
    projectId: string,
    issueId: string,
  ): Promise<{ sub_issues: AppIssueJson[]; state_distribution: Record<string, number> }> {
    await this.issues.assertExists(projectId, issueId);
    const subs = await this.repo.subItems(issueId);
    const states = subs.length
      ? await this.states.statesWithDeleted(subs.map((s) => s.stateId).filter((x): x is string => !!x))
      : [];
    const distribution: Record<string, number> = {};
    for (const s of subs) {
      const group = states.find((st) => st.id === s.stateId)?.group ?? 'backlog';
      distribution[group] = (distribution[group] ?? 0) + 1;
    }
    return { sub_issues: await this.issues.renderApp(subs), state_distribution: distribution };
  }

  /**
   * `POST issues/{id}/sub-issues/` `{sub_issue_ids}` → 200 as GET: each work item of the project
   * gets this parent through `IssueCommandService.update` (parent checks, history), in one transaction.
   */
  async addSubIssues(ctx: IssueContext, issueId: string, subIssueIds: string[]) {
    const wanted = this.ids(subIssueIds, 'sub_issue_ids');
    await this.dataSource.transaction(async (em) => {
      await this.issues.assertExists(ctx.projectId, issueId, em);
      await this.repo.lockIdsInProject(em, ctx.projectId, wanted);
      for (const id of [...wanted].sort()) await this.commands.update(ctx, id, { parent: issueId }, em);
    });
    return this.subIssues(ctx.projectId, issueId);
  }

  // ---- helpers -------------------------------------------------------------------------------

  private ids(raw: string[], field: string): string[] {
    const wanted = [...new Set(raw.map((id) => id.toLowerCase()))];
    if (!wanted.length) throw validationError({ [field]: ['This list may not be empty.'] });
    return wanted;
  }

  /** Visible work items of the project (422 for others) whose state is completed or cancelled (else 400). */
  private async archivable(em: EntityManager, projectId: string, issueIds: string[]): Promise<Issue[]> {
    const wanted = this.ids(issueIds, 'issue_ids');
    const found: Array<Issue & { group?: string }> = [];
    for (const id of wanted) {
      const issue = await this.issues.assertExists(projectId, id, em).catch((err: unknown) => {
        if (issueIds.length === 1) throw err;
        throw validationError({ issue_ids: [`Not a work item of this project: ${id}.`] });
      });
      const state = issue.stateId ? ((await this.states.statesWithDeleted([issue.stateId], em))[0] ?? null) : null;
      if (state?.group !== 'completed' && state?.group !== 'cancelled') {
        throw new MeridianError('ISSUE_NOT_ARCHIVABLE', 'Can only archive completed or cancelled state group issue.');
      }
      found.push(issue);
    }
    return found;
  }

  /**
   * Archives the work items on `date` with Plane's history row (`track_archive_at`: `new_value`
   * "manual_archive"; the daily automation writes "archive", a restore "archive" → "restore").
   */
  private async setArchived(em: EntityManager, ctx: IssueContext, issues: Issue[], date: string): Promise<void> {
    await this.repo.updateIssues(
      em,
      issues.map((i) => i.id),
      { archivedAt: date, updatedById: ctx.userId, updatedAt: new Date() },
    );
    await writeActivities(
      em,
      ctx,
      issues.map((i) => ({
        issueId: i.id,
        verb: 'updated',
        field: 'archived_at',
        oldValue: null,
        newValue: 'manual_archive',
        comment: 'Actor has archived the issue',
      })),
    );
  }
}
