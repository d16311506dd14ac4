import { MeridianError, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { assertEstimatePoint } from '../kernel/estimate-checks';
import { LabelService } from '../label';
import { ProjectMemberService, ProjectService } from '../project';
import { State, StateService } from '../state';
import { UserProfileService } from '../user';
import { emitChange, IssueCreateDraft } from '../kernel/change-bus';
import { isUniqueViolation } from '../kernel/db-errors';
import { assertExternalIdFree } from '../kernel/external-id';
import { assertProjectWritable } from '../kernel/project-writable';
import { ActivityEntry, ChangeContext, stripHtml, writeActivities } from './activity-writer';
import { IssueCreateBatcher } from './issue-create-batcher';
import { IssueQueryService } from './issue-query.service';
import { IssueRepository } from './issue.repository';
import { Issue, Priority } from './issue.entity';
import { IssueAssignee } from './issue-assignee.entity';
import { IssueLabel } from './issue-label.entity';
import { issueFromRow, IssueJson } from './issue.view';

/** Writable work item fields, Plane's names (`plane/api/serializers/issue.py` IssueSerializer). */
export interface IssueInput {
  name?: string;
  description_html?: string;
  priority?: Priority;
  state?: string | null;
  parent?: string | null;
  point?: number | null;
  estimate_point?: string | null;
  start_date?: string | null;
  target_date?: string | null;
  sort_order?: number;
  is_draft?: boolean;
  external_source?: string | null;
  external_id?: string | null;
  type?: string | null;
  type_id?: string | null;
  assignees?: string[];
  labels?: string[];
}

/** The caller inside a project, as the access guard resolved it. */
export interface IssueContext extends ChangeContext {
  /** the caller's project role, null for a non-member of a public project */
  role: number | null;
}

/** Fields whose changes become history rows, with the activity's field name. */
const TRACKED_SCALARS: Array<[keyof IssueInput, keyof Issue, string]> = [
  ['name', 'name', 'name'],
  ['description_html', 'descriptionHtml', 'description'],
  ['priority', 'priority', 'priority'],
  ['start_date', 'startDate', 'start_date'],
  ['target_date', 'targetDate', 'target_date'],
  ['point', 'point', 'point'],
  ['estimate_point', 'estimatePointId', 'estimate_point'],
  ['sort_order', 'sortOrder', 'sort_order'],
  ['is_draft', 'isDraft', 'is_draft'],
  ['external_id', 'externalId', 'external_id'],
  ['external_source', 'externalSource', 'external_source'],
  ['type_id', 'typeId', 'type'],
];

/**
 * The write side of work items (Plane `plane/api/views/issue.py` IssueAPIEndpoint post, patch, put,
 * delete; `plane-node-sdk/dist/api/WorkItems/`, `plane-mcp-server/build/tools/issues.js`): one
 * implementation behind `/issues/` and `/work-items/` of both APIs. Every create, update and delete
 * writes its history rows (`issue_activities`) in the same transaction; creates that write nothing
 * else join the project's group commit (`IssueCreateBatcher`).
 */
@Injectable()
export class IssueCommandService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly repo: IssueRepository,
    private readonly batcher: IssueCreateBatcher,
    private readonly query: IssueQueryService,
    private readonly states: StateService,
    private readonly labels: LabelService,
    private readonly projects: ProjectService,
    private readonly members: ProjectMemberService,
    private readonly users: UserProfileService,
  ) {}

  /**
   * Creates a work item (Plane IssueAPIEndpoint.post): the default state when none is given, the next
   * `sequence_id` of the project (unique and never reused, also under concurrent creates),
   * `sort_order` after the others in its state, the project's default assignee when none is given,
   * `completed_at` for a completed-group state, and the history row "created the issue".
   *
   * Errors: 409 `EXTERNAL_ID_TAKEN` (with the holder's `id`); 422 for a state or parent outside the
   * project/workspace or `start_date` after `target_date`. Assignees who are not project members
   * with role ≥ 15 and labels of other projects are dropped, as Plane does.
   *
   * With `outer`, the rows are written in the caller's transaction (intake adds its own row in
   * the same one) and only `{id}` is returned: render it after the commit (`detail`).
   */
  async create(ctx: IssueContext, input: IssueInput & { name: string }, outer?: EntityManager): Promise<IssueJson> {
    try {
      // The checks and reads come first, before any lock: in the caller's transaction (intake), else
      // outside any transaction (in READ COMMITTED each read sees what is committed when it runs,
      // inside a transaction or not).
      const prepared = await this.prepareCreate(outer ?? this.dataSource.manager, ctx, input);
      const { values, state, assigned, labelled, draft } = prepared;
      let issue: Issue;
      if (!outer && !draft.needsTransaction) {
        // nothing else to write in its transaction: group commit with the project's other creates
        issue = issueFromRow(await this.batcher.create(ctx.projectId, values, !state));
      } else {
        const write = async (em: EntityManager): Promise<Issue> => {
          // listeners read what they need before the counter lock (the outbox: the workspace's webhooks)
          await emitChange(em, 'issue.create.locking', draft);
          // From here the project's counter row is locked until the commit: concurrent creates in the
          // project queue on it. Under it: the counter upsert, then one statement for the work item
          // (its sequence_id read back from the counter row), its history row, assignees, labels and
          // subscribers — a statement of its own, so that its snapshot sees the previous creator's
          // sort_order — sent together as named statements on the transaction's connection.
          const row = await this.repo.insertOne(em, ctx.projectId, values, !state);
          const created = issueFromRow(row);
          const entry: ActivityEntry = { issueId: created.id, verb: 'created', comment: 'created the issue' };
          await emitChange(em, 'issue.created', {
            draft,
            issue: created,
            entry,
            activityId: (row.activity_id as string | undefined) ?? null,
          });
          return created;
        };
        issue = outer ? await write(outer) : await this.dataSource.transaction(write);
        if (outer) return { id: issue.id } as IssueJson;
      }
      return await this.query.renderCreated(issue, assigned, labelled);
    } catch (err) {
      if (isUniqueViolation(err, 'uq_issues_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }

  /**
   * Everything of a create that can be read or decided without the new row: the checks (project
   * writable, `external_id` free, dates, state, parent, estimate point), the assignees and labels
   * kept, what the `issue.create.prepare` listeners add (subscribers, and whether they write in the
   * create's transaction: notifications, webhook events), and the create statement's `$1`–`$23`.
   */
  private async prepareCreate(em: EntityManager, ctx: IssueContext, input: IssueInput & { name: string }) {
    const project = await this.repo.projectForCreate(em, ctx.projectId);
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    if (project.archived_at) throw new MeridianError('PROJECT_ARCHIVED');
    await assertExternalIdFree(em, Issue, ctx.projectId, input.external_source, input.external_id);
    this.assertDates(input.start_date ?? null, input.target_date ?? null);
    type CreateState = { id: string; group: string; name: string };
    const state: CreateState | null = input.state
      ? await this.stateOf(em, ctx.projectId, input.state)
      : await this.repo.defaultStateForCreate(em, ctx.projectId);
    if (input.parent) await this.assertParent(em, ctx, input.parent);
    if (input.estimate_point) await assertEstimatePoint(em, ctx.projectId, input.estimate_point);
    let assignees = input.assignees ?? [];
    if (!input.assignees?.length && project.default_assignee_id) assignees = [project.default_assignee_id];
    const assigned = await this.filterAssignees(em, ctx.projectId, assignees);
    const labelled = await this.filterLabels(em, ctx.projectId, input.labels ?? []);
    const html = input.description_html || '<p></p>';
    const draft: IssueCreateDraft = {
      ctx,
      assigned,
      descriptionHtml: html,
      state: state ? { name: state.name, group: state.group } : null,
      subscribers: [...new Set([ctx.userId, ...assigned])],
      needsTransaction: false,
      scratch: new Map(),
    };
    await emitChange(em, 'issue.create.prepare', draft);
    const values = [
      ctx.workspaceId,
      ctx.projectId,
      input.name.trim(),
      html,
      stripHtml(html),
      input.priority ?? 'none',
      state?.id ?? null,
      input.parent ?? null,
      input.point ?? null,
      input.estimate_point ?? null,
      input.start_date ?? null,
      input.target_date ?? null,
      state?.group === 'completed' ? new Date() : null,
      input.is_draft ?? false,
      input.external_source ?? null,
      input.external_id ?? null,
      input.type_id ?? input.type ?? null,
      ctx.userId,
      input.sort_order ?? null,
      Date.now() / 1000,
      assigned,
      labelled,
      draft.subscribers,
    ];
    return { values, state, assigned, labelled, draft };
  }

  /**
   * Partial update (Plane IssueAPIEndpoint.patch): `assignees` / `labels`, when present, replace the set;
   * `completed_at` follows the state's group; each changed field writes a history row with the
   * old and new value (ids in `old_identifier` / `new_identifier` for state, parent, assignees,
   * labels). Same errors as create. Archived and draft work items can be patched, as in Plane.
   */
  async update(ctx: IssueContext, issueId: string, input: IssueInput, outer?: EntityManager): Promise<IssueJson> {
    try {
      await this.inTransaction(outer, async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const issue = await this.repo.lockInProject(em, ctx.projectId, issueId);
        if (!issue) throw new MeridianError('NOT_FOUND');
        if (input.type !== undefined && input.type_id === undefined) input = { ...input, type_id: input.type };
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em,
            Issue,
            ctx.projectId,
            input.external_source !== undefined ? input.external_source : issue.externalSource,
            input.external_id !== undefined ? input.external_id : issue.externalId,
            issueId,
          );
        }
        this.assertDates(
          input.start_date !== undefined ? input.start_date : issue.startDate,
          input.target_date !== undefined ? input.target_date : issue.targetDate,
        );
        if (input.estimate_point && input.estimate_point !== issue.estimatePointId)
          await assertEstimatePoint(em, ctx.projectId, input.estimate_point);
        const patch: Partial<Issue> = { updatedById: ctx.userId, updatedAt: new Date() };
        const history: ActivityEntry[] = [];
        for (const [from, to, field] of TRACKED_SCALARS) {
          if (input[from] === undefined) continue;
          let value = input[from] as unknown;
          if (from === 'name') value = (value as string).trim();
          if (from === 'description_html') value = (value as string) || '<p></p>';
          const before = issue[to] as unknown;
          if (before === value) continue;
          (patch as Record<string, unknown>)[to] = value;
          if (from === 'description_html') patch.descriptionStripped = stripHtml(value as string);
          history.push({
            issueId,
            verb: 'updated',
            field,
            oldValue: str(before),
            newValue: str(value),
            comment: `updated the ${field.replace('_', ' ')} to`,
          });
        }
        if (input.state !== undefined && input.state !== issue.stateId) {
          const state = input.state
            ? await this.stateOf(em, ctx.projectId, input.state)
            : await this.states.defaultOrFirstState(ctx.projectId, em);
          const old = issue.stateId ? ((await this.states.statesWithDeleted([issue.stateId], em))[0] ?? null) : null;
          patch.stateId = state?.id ?? null;
          patch.completedAt = state?.group === 'completed' ? (issue.completedAt ?? new Date()) : null;
          history.push({
            issueId,
            verb: 'updated',
            field: 'state',
            oldValue: old?.name ?? null,
            newValue: state?.name ?? null,
            oldIdentifier: old?.id ?? null,
            newIdentifier: state?.id ?? null,
            comment: 'updated the state to',
          });
        }
        if (input.parent !== undefined && input.parent !== issue.parentId) {
          const parent = input.parent ? await this.assertParent(em, ctx, input.parent, issueId) : null;
          const old = issue.parentId ? await this.repo.issueWithDeleted(em, issue.parentId) : null;
          patch.parentId = input.parent;
          history.push({
            issueId,
            verb: 'updated',
            field: 'parent',
            oldValue: old ? await this.keyOf(em, old) : null,
            newValue: parent ? await this.keyOf(em, parent) : null,
            oldIdentifier: old?.id ?? null,
            newIdentifier: parent?.id ?? null,
            comment: 'updated the parent issue to',
          });
        }
        await this.repo.updateIssue(em, issueId, patch);
        if (patch.descriptionHtml !== undefined) {
          // Plane's issue_description_version_task, in this transaction; only when the description changed
          await this.repo.recordDescriptionVersion(
            em,
            issue,
            ctx.userId,
            { html: issue.descriptionHtml, stripped: issue.descriptionStripped },
            { html: patch.descriptionHtml, stripped: patch.descriptionStripped ?? null },
          );
        }
        if (input.assignees !== undefined) {
          const next = await this.filterAssignees(em, ctx.projectId, input.assignees);
          history.push(
            ...(await this.replaceSet(em, IssueAssignee, 'assigneeId', issueId, next, 'assignees', async (ids) => {
              const users = await this.users.liveUsers(ids, em);
              return new Map(users.map((u) => [u.id, u.displayName]));
            })),
          );
        }
        if (input.labels !== undefined) {
          const next = await this.filterLabels(em, ctx.projectId, input.labels);
          history.push(
            ...(await this.replaceSet(em, IssueLabel, 'labelId', issueId, next, 'labels', async (ids) => {
              const labels = await this.labels.labelsWithDeleted(ids, em);
              return new Map(labels.map((l) => [l.id, l.name]));
            })),
          );
        }
        await writeActivities(em, ctx, history);
      });
      if (outer) return { id: issueId } as IssueJson;
      return this.query.detail(issueId);
    } catch (err) {
      if (isUniqueViolation(err, 'uq_issues_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }

  /**
   * `PUT …/issues/` (Plane 0.25.3's import upsert, IssueAPIEndpoint.put): with `external_id` and
   * `external_source` (else 422), updates the live work item holding that pair (`created: false`,
   * 200) or creates one (`created: true`, 201; `name` then required).
   *
   * Concurrent upserts of one pair resolve as they would one after the other: one creates, the
   * others update it. A create that loses the race (409 `EXTERNAL_ID_TAKEN`, from the check or from
   * the unique index `uq_issues_external_live`) looks the holder up again and updates it; a holder
   * deleted meanwhile lets the next round create again (a few rounds at most).
   */
  async upsert(ctx: IssueContext, input: IssueInput): Promise<{ created: boolean; issue: IssueJson }> {
    const errors: Record<string, string[]> = {};
    if (!input.external_id) errors.external_id = ['This field is required.'];
    if (!input.external_source) errors.external_source = ['This field is required.'];
    if (Object.keys(errors).length) throw validationError(errors);
    for (let round = 1; ; round++) {
      const holder = await this.repo.idByExternalId(ctx.projectId, input.external_id!, input.external_source!);
      try {
        if (holder) return { created: false, issue: await this.update(ctx, holder, input) };
        if (!input.name) throw validationError({ name: ['This field is required.'] });
        return { created: true, issue: await this.create(ctx, { ...input, name: input.name }) };
      } catch (err) {
        // the create lost to a concurrent one (taken) or the holder was deleted before the update (not found)
        const lost =
          err instanceof MeridianError && (holder ? err.code === 'NOT_FOUND' : err.code === 'EXTERNAL_ID_TAKEN');
        if (!lost || round >= 3) throw err;
      }
    }
  }

  /**
   * Soft-deletes a work item (Plane IssueAPIEndpoint.delete): only its creator or a project Admin (else 403
   * `PERMISSION_DENIED`); writes "deleted the issue". Its sub-items lose their parent.
   */
  async remove(ctx: IssueContext, issueId: string, outer?: EntityManager): Promise<void> {
    await this.inTransaction(outer, async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      // the row lock makes a concurrent delete of the same item wait, then find it gone (404)
      const issue = await this.repo.lockInProject(em, ctx.projectId, issueId);
      if (!issue) throw new MeridianError('NOT_FOUND');
      if (issue.createdById !== ctx.userId && (ctx.role ?? 0) < ROLE.ADMIN) {
        throw new MeridianError('PERMISSION_DENIED', 'Only admin or creator can delete the work item.');
      }
      await this.repo.detachSubItems(em, issueId);
      await this.repo.updateIssue(em, issueId, { deletedAt: new Date(), updatedById: ctx.userId });
      await writeActivities(em, ctx, [{ issueId, verb: 'deleted', field: 'issue', comment: 'deleted the issue' }]);
    });
  }

  /**
   * Archives the work items `ids` on `day` (`YYYY-MM-DD`, their `archived_at`; `updated_at` moves),
   * in the caller's transaction, without checks or history: the daily automation picks and locks
   * them and writes Plane's history rows with its own. One statement.
   */
  async archiveAllOn(ids: string[], day: string, em: EntityManager): Promise<void> {
    if (ids.length) await this.repo.archiveOn(em, ids, day);
  }

  /**
   * Moves the work items `ids` to `state` (`completed_at` now when it is of the `completed` group,
   * else cleared; `updated_at` moves), in the caller's transaction, without checks or history: the
   * daily automation's close (it writes the history rows). One statement.
   */
  async moveAllToState(ids: string[], state: { id: string; group: string }, em: EntityManager): Promise<void> {
    if (ids.length) await this.repo.setStateOf(em, ids, state);
  }

  /**
   * Moves the work item to `change.stateId` with that `completedAt`, in the caller's transaction,
   * without checks or history: the intake's decisions (Plane's `IntakeIssueViewSet.partial_update`:
   * accepted → default state, declined or duplicate → first cancelled state) pick the project's
   * state and write the `state` history row with their own. No errors.
   */
  async moveToState(
    issueId: string,
    change: { stateId: string; completedAt: Date | null; updatedById: string },
    em: EntityManager,
  ): Promise<void> {
    await this.repo.updateIssue(em, issueId, change);
  }

  /** `fn` in the caller's transaction when there is one, else in a new one. */
  private inTransaction<T>(outer: EntityManager | undefined, fn: (em: EntityManager) => Promise<T>): Promise<T> {
    return outer ? fn(outer) : this.dataSource.transaction(fn);
  }

  private assertDates(start: string | null, target: string | null): void {
    if (start && target && start > target)
      throw validationError({ start_date: ['Start date cannot exceed target date.'] });
  }

  private async stateOf(em: EntityManager, projectId: string, stateId: string): Promise<State> {
    const state = await this.states.stateInProject(projectId, stateId, em);
    if (!state) throw validationError({ state: ['State is not valid please pass a valid state_id.'] });
    return state;
  }

  /**
   * The parent must be a live work item of the workspace that the caller can reach (in this project,
   * or in a live project they are an active member of), and not the item itself or below it; else
   * 422. A work item of a project the caller is not in is refused like an unknown one, so its key
   * never shows up in `expand=parent` or the history.
   */
  private async assertParent(em: EntityManager, ctx: ChangeContext, parentId: string, selfId?: string): Promise<Issue> {
    const invalid = () => validationError({ parent: ['Parent is not valid issue_id please pass a valid issue_id.'] });
    const parent = await this.repo.findReachable(em, ctx.workspaceId, ctx.projectId, ctx.userId, parentId);
    if (!parent) throw invalid();
    let current: Issue | null = parent;
    for (let depth = 0; current && selfId && depth < 1000; depth++) {
      if (current.id === selfId) throw invalid();
      current = current.parentId ? await this.repo.issueById(em, current.parentId) : null;
    }
    return parent;
  }

  private async keyOf(em: EntityManager, issue: Issue): Promise<string> {
    const project = await this.projects.findWithDeleted(issue.projectId, em);
    return `${project?.identifier ?? '?'}-${issue.sequenceId}`;
  }

  /** Plane: assignees who are not active project members with role ≥ 15 are dropped. */
  private async filterAssignees(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    return (await this.members.assignableAmong(projectId, ids, em)).sort();
  }

  /** Plane: labels of other projects are dropped. */
  private async filterLabels(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    return (await this.labels.liveLabelIdsInProject(projectId, ids, em)).sort();
  }

  /** Replaces a work item's assignee or label set and returns one history row per addition and removal. */
  private async replaceSet<T extends IssueAssignee | IssueLabel>(
    em: EntityManager,
    entity: new () => T,
    column: 'assigneeId' | 'labelId',
    issueId: string,
    next: string[],
    field: 'assignees' | 'labels',
    names: (ids: string[]) => Promise<Map<string, string>>,
  ): Promise<ActivityEntry[]> {
    const current = await this.repo.setOf(em, entity, column, issueId);
    const added = next.filter((id) => !current.includes(id));
    const removed = current.filter((id) => !next.includes(id));
    await this.repo.changeSet(em, entity, column, issueId, { added, removed });
    const label = await names([...added, ...removed]);
    const noun = field === 'assignees' ? 'assignee' : 'label';
    return [
      ...added.map((id) => ({
        issueId,
        verb: 'updated',
        field,
        newValue: label.get(id) ?? id,
        newIdentifier: id,
        comment: `added ${noun} `,
      })),
      ...removed.map((id) => ({
        issueId,
        verb: 'updated',
        field,
        oldValue: label.get(id) ?? id,
        oldIdentifier: id,
        comment: `removed ${noun} `,
      })),
    ];
  }
}

function str(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === 'string' ? value : String(value);
}
