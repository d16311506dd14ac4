import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { ActivityEntry, ChangeContext, IssueCommandService, writeActivities } from '../issue';
import { ProjectService } from '../project';
import type { AutomatedProject } from '../project';
import { StateService } from '../state';
import { AutomationKind, AutomationRepository } from './automation.repository';

/** Work items changed per transaction; projects read per page. */
const ISSUE_BATCH = 100;
const PROJECT_PAGE = 100;
/** Plane counts a month as 30 days (`timedelta(days=archive_in * 30)`). */
const DAY_MS = 86_400_000;

/** What one run did: how many work items it archived and how many it closed. */
export interface ArchiveAndCloseResult {
  archived: number;
  closed: number;
}

/**
 * Plane's daily `archive_and_close_old_issues` (`plane/bgtasks/issue_automation_task.py`, v0.25.3),
 * for a job runner to call once a day: `run(now)`.
 *
 * - **Archive**: in every live, unarchived project with `archive_in` > 0 (months of 30 days), the
 *   visible work items in a `completed` or `cancelled` state whose `updated_at` is at or before
 *   `now - archive_in × 30 days` get `archived_at` = `now`'s UTC date.
 * - **Close**: in every such project with `close_in` > 0, the visible work items in a `backlog`,
 *   `unstarted` or `started` state not updated for `close_in × 30` days move to the project's
 *   `default_state`; without one (or when it was deleted), to the project's first `cancelled` state;
 *   a project with neither is skipped.
 * - Either leaves out work items in a cycle that has not ended before today (or has no end date)
 *   and in a module whose target date is not before today (or has none); waiting intake items,
 *   drafts and deleted items are never taken.
 *
 * Each work item gets Plane's history row, written as the project's creator: archive `{verb:
 * "updated", field: "archived_at", old_value: null, new_value: "archive", comment: "Plane has
 * archived the issue"}`; close `{verb: "updated", field: "state", old_value: null, new_value: <state
 * name>, new_identifier: <state id>, comment: "Plane updated the state to "}`. Through
 * `writeActivities` these give the `issue` webhook deliveries (`action: "updated"`, with the
 * activity) and notifications, in the same transaction as the change. `updated_at` moves, so the
 * web app's delta sync (`updated_at__gt`) sees the change at once.
 *
 * Work goes in transactions of at most 100 work items, locked with `SKIP LOCKED`: memory stays
 * bounded, a second run at the same time takes other rows, and a run repeated on the same day finds
 * nothing left to do (an archived item is no longer open; a closed one has left the open groups).
 * A failure in one project is logged and the run goes on with the next.
 */
@Injectable()
export class ArchiveAndCloseService {
  private readonly logger = new Logger('ArchiveAndClose');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: AutomationRepository,
    private readonly projects: ProjectService,
    private readonly states: StateService,
    private readonly commands: IssueCommandService,
  ) {}

  /** Archives, then closes, as of `now`; returns the counts of work items changed by this run. */
  async run(now: Date = new Date()): Promise<ArchiveAndCloseResult> {
    const archived = await this.eachProject('archive', now);
    const closed = await this.eachProject('close', now);
    return { archived, closed };
  }

  private async eachProject(kind: AutomationKind, now: Date): Promise<number> {
    let total = 0;
    let after: string | null = null;
    for (;;) {
      const projects = await this.projects.automatedPage(kind, after, PROJECT_PAGE);
      for (const project of projects) {
        try {
          total += await this.project(kind, project, now);
        } catch (err) {
          this.logger.error(`${kind} in project ${project.id} failed: ${(err as Error).message}`);
        }
      }
      if (projects.length < PROJECT_PAGE) return total;
      after = projects[projects.length - 1].id;
    }
  }

  private async project(kind: AutomationKind, project: AutomatedProject, now: Date): Promise<number> {
    if (!project.created_by_id) return 0; // Plane writes the history as the project's creator
    const ctx: ChangeContext = {
      workspaceId: project.workspace_id,
      projectId: project.id,
      userId: project.created_by_id,
    };
    const cutoff = new Date(now.getTime() - project.months * 30 * DAY_MS);
    const today = now.toISOString().slice(0, 10);
    let done = 0;
    for (;;) {
      const changed = await this.dataSource.transaction(async (em) => {
        let state: { id: string; name: string; group: string } | null = null;
        if (kind === 'close') {
          state = await this.states.closeState(project.id, project.default_state_id, em);
          if (!state) return 0;
        }
        const rows = await this.repo.lockDue(em, kind, project.id, cutoff, today, ISSUE_BATCH, state?.id ?? null);
        if (!rows.length) return 0;
        const ids = rows.map((r) => r.id);
        let entries: ActivityEntry[];
        if (state) {
          await this.commands.moveAllToState(ids, state, em);
          entries = ids.map((issueId) => ({
            issueId,
            verb: 'updated',
            field: 'state',
            oldValue: null,
            newValue: state.name,
            oldIdentifier: null,
            newIdentifier: state.id,
            comment: 'Plane updated the state to ',
          }));
        } else {
          await this.commands.archiveAllOn(ids, today, em);
          entries = ids.map((issueId) => ({
            issueId,
            verb: 'updated',
            field: 'archived_at',
            oldValue: null,
            newValue: 'archive',
            comment: 'Plane has archived the issue',
          }));
        }
        await writeActivities(em, ctx, entries);
        return ids.length;
      });
      done += changed;
      if (changed < ISSUE_BATCH) return done;
    }
  }
}
