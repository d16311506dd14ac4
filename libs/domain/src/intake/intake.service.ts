import { MeridianError, Page, PageRequest, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { ActivityEntry, bindNamed, issueFilterConditions, writeActivities } from '../issue';
import { Priority } from '../issue';
import { IssueCommandService, IssueContext, IssueQueryService } from '../issue';
import { Project, ProjectService } from '../project';
import { found, isUniqueViolation } from '../kernel/db-errors';
import { assertProjectWritable } from '../kernel/project-writable';
import { State, StateService } from '../state';
import { Intake } from './intake.entity';
import { INTAKE_STATUS, IntakeIssue } from './intake-issue.entity';
import { IntakeListFilter, IntakeRepository, IntakeSourceRow, IssueFilterCompiler } from './intake.repository';
import { AppIntakeIssueDetailJson, appIntakeIssueDetailView } from './intake.app-view';
import { IntakeIssueJson, intakeIssueView } from './intake.view';
import { IntakeObjectJson, intakeObjectView } from './intake-object.view';
import { emitChange } from '../kernel/change-bus';

export interface IntakeIssueFields {
  name?: string;
  description_html?: string;
  description?: Record<string, unknown>;
  priority?: Priority;
}

export interface IntakeInput {
  issue?: IntakeIssueFields;
  status?: number;
  snoozed_till?: string | null;
  duplicate_to?: string | null;
  source?: string | null;
  source_email?: string | null;
  external_source?: string | null;
  external_id?: string | null;
  extra?: Record<string, unknown>;
}

const STATUS_NAME: Record<number, string> = {
  [-2]: 'pending',
  [-1]: 'declined',
  0: 'snoozed',
  1: 'accepted',
  2: 'duplicate',
};

/** The caller of an App API intake read: their id and project role. */
export interface IntakeViewer {
  userId: string;
  role: number | null;
}

/** The work item filters of the App API list: the issue room's compiler, through its door. */
const ISSUE_FILTERS: IssueFilterCompiler = { bindNamed, issueFilterConditions };

/** Plane's Guest rule for intake reads: a Guest sees only their own items unless `guest_view_all_features`. */
function hiddenFromGuest(project: Project, viewer?: IntakeViewer): boolean {
  return !!viewer && (viewer.role ?? 0) <= ROLE.GUEST && !project.guestViewAllFeatures;
}

/**
 * A project's intake (Plane `plane/api/views/intake.py`; `intake-issues/` and `inbox-issues/`).
 * Usable only while the project's `intake_view` is on (else 400 `INTAKE_NOT_ENABLED`). Items are
 * addressed by their work item's id. A new item is a work item created the normal way (default
 * state, sequence id, "created the issue") plus a pending intake row, in one transaction; while
 * pending (−2) or snoozed (0) the work item is hidden from the work item routes, as in Plane.
 * Project Admins decide: accepted (1) moves a work item in a triage state to the default state;
 * declined (−1) and duplicate (2, needs `duplicate_to`) move it to the project's first
 * cancelled-group state. Each status change writes history (`field` = `intake`, old and new
 * status) and, when the state moves, a `state` row, in the same transaction.
 */
@Injectable()
export class IntakeService {
  constructor(
    private readonly intakes: IntakeRepository,
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly issues: IssueQueryService,
    private readonly issueCommands: IssueCommandService,
    private readonly projects: ProjectService,
    private readonly states: StateService,
  ) {}

  /**
   * Live intake items of the project, newest first; paginated. With a `viewer` (App API) that is a
   * project Guest, only the items they submitted unless the project has `guest_view_all_features`
   * (Plane's `IntakeIssueViewSet.list`).
   */
  async list(
    projectId: string,
    page: PageRequest,
    viewer?: IntakeViewer,
    filter?: IntakeListFilter,
  ): Promise<Page<IntakeIssueJson>> {
    const project = await this.assertEnabled(this.intakes.manager, projectId);
    const result = await this.intakes.listPage(
      projectId,
      page,
      hiddenFromGuest(project, viewer) ? viewer!.userId : undefined,
      filter && { spec: filter, compiler: ISSUE_FILTERS },
    );
    const details = await this.issues.details(result.results.map((r) => r.issueId));
    const rendered = result.results.map((r, i) => intakeIssueView(r, details[i]));
    return new Page(rendered, result.perPage, result.totalCount, result.nextCursor, result.prevCursor);
  }

  /**
   * Public boards (Plane `plane/space/views/intake.py`): the items `userId` submitted to `intakeId`,
   * newest first; paginated. Other visitors' submissions are never listed.
   */
  async listSubmitted(
    projectId: string,
    intakeId: string,
    userId: string,
    page: PageRequest,
  ): Promise<Page<IntakeIssueJson>> {
    await this.assertEnabled(this.intakes.manager, projectId);
    const result = await this.intakes.listPage(projectId, page, userId, undefined, intakeId);
    const details = await this.issues.details(result.results.map((r) => r.issueId));
    const rendered = result.results.map((r, i) => intakeIssueView(r, details[i]));
    return new Page(rendered, result.perPage, result.totalCount, result.nextCursor, result.prevCursor);
  }

  /**
   * Public boards: the work item id of `userId`'s own live item of `intakeId`, addressed by the
   * intake item's id (Plane's `pk`) or its work item's id; 404 `NOT_FOUND` for anyone else's.
   */
  async submittedIssueId(projectId: string, intakeId: string, id: string, userId: string): Promise<string> {
    const row = await this.intakes.findLiveRowByIdOrIssue(projectId, intakeId, id);
    if (!row || row.createdById !== userId) throw new MeridianError('NOT_FOUND');
    return row.issueId;
  }

  /**
   * An intake item in the App API's detail shape (Plane's `IntakeIssueDetailSerializer`, the answer
   * to retrieve, create and update): `issue` with the work item's detail values and
   * `duplicate_issue_detail`, the work item it duplicates (or null).
   */
  async forAppDetail(item: IntakeIssueJson): Promise<AppIntakeIssueDetailJson> {
    const [issue, duplicate] = await Promise.all([
      this.issues.detailAppById(item.issue),
      item.duplicate_to ? this.issues.issueWithDeleted(item.duplicate_to) : Promise.resolve(null),
    ]);
    return appIntakeIssueDetailView(item, issue, duplicate);
  }

  /** One item; for a Guest `viewer`, another's is a 404 `NOT_FOUND` as in `list` (Plane's `retrieve`: 400). */
  async retrieve(projectId: string, issueId: string, viewer?: IntakeViewer): Promise<IntakeIssueJson> {
    const project = await this.assertEnabled(this.intakes.manager, projectId);
    const row = await this.row(this.intakes.manager, projectId, issueId);
    if (hiddenFromGuest(project, viewer) && row.createdById !== viewer!.userId) throw new MeridianError('NOT_FOUND');
    return intakeIssueView(row, await this.issues.detail(issueId));
  }

  /**
   * 201 with the intake item (Plane answers 200). `issue.name` required (422), `priority` one of
   * Plane's; `source`, `source_email`, `external_*`, `extra` kept. The item starts pending; a
   * `status` in the body is ignored on create, as in Plane (use PATCH).
   */
  async create(ctx: IssueContext, input: IntakeInput): Promise<IntakeIssueJson> {
    const name = input.issue?.name?.trim();
    if (!name) throw validationError({ 'issue.name': ['This field is required.'] });
    const issueId = await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      await emitChange(em, 'intake.changing', { workspaceId: ctx.workspaceId });
      const project = await this.assertEnabled(em, ctx.projectId);
      const intake = await this.intakeOf(em, project, ctx.userId);
      const issue = await this.issueCommands.create(
        ctx,
        {
          name,
          description_html: input.issue!.description_html,
          priority: input.issue!.priority,
        },
        em,
      );
      await this.intakes.insertRow(em, {
        workspaceId: ctx.workspaceId,
        projectId: ctx.projectId,
        intakeId: intake.id,
        issueId: issue.id,
        status: INTAKE_STATUS.PENDING,
        source: input.source === undefined ? 'IN_APP' : input.source,
        sourceEmail: input.source_email ?? null,
        externalSource: input.external_source ?? null,
        externalId: input.external_id ?? null,
        extra: input.extra ?? {},
        createdById: ctx.userId,
        updatedById: ctx.userId,
      });
      return issue.id;
    });
    return this.retrieve(ctx.projectId, issueId);
  }

  /**
   * PATCH: only a project Admin or the work item's creator (403 `PERMISSION_DENIED`; Plane's
   * `@allow_permission([ADMIN], creator=True, model=Issue)`). `issue` is a partial update of the work
   * item (a Guest only `name`, `description_html`, `description`; else 403 `PERMISSION_DENIED`). The intake fields
   * (`status`, `snoozed_till`, `duplicate_to`, `source`, `source_email`, `external_*`, `extra`) need
   * a project Admin (403 otherwise; Plane silently ignores them). 422 for `duplicate` without a
   * `duplicate_to` work item of the project, or one that is the item itself.
   */
  async update(ctx: IssueContext, issueId: string, input: IntakeInput): Promise<IntakeIssueJson> {
    const role = ctx.role ?? 0;
    const row0 = await this.row(this.intakes.manager, ctx.projectId, issueId);
    await this.assertEnabled(this.intakes.manager, ctx.projectId);
    if (role < ROLE.ADMIN) {
      const issue = await this.issues.issueWithDeleted(issueId);
      if (issue?.createdById !== ctx.userId)
        throw new MeridianError(
          'PERMISSION_DENIED',
          'Only project admins and its creator can edit an intake work item.',
        );
    }
    const intakeKeys = (
      [
        'status',
        'snoozed_till',
        'duplicate_to',
        'source',
        'source_email',
        'external_source',
        'external_id',
        'extra',
      ] as const
    ).filter((k) => input[k] !== undefined);
    if (intakeKeys.length && role < ROLE.ADMIN)
      throw new MeridianError('PERMISSION_DENIED', 'Only project admins can change the intake status.');
    if (input.issue) {
      if (role <= ROLE.GUEST) {
        if (row0.createdById !== ctx.userId)
          throw new MeridianError('PERMISSION_DENIED', 'You cannot edit intake work items.');
        const extra = Object.keys(input.issue).filter(
          (k) =>
            input.issue![k as keyof IntakeIssueFields] !== undefined &&
            !['name', 'description_html', 'description'].includes(k),
        );
        if (extra.length)
          throw new MeridianError(
            'PERMISSION_DENIED',
            `Guests can only change the name and description (not ${extra.join(', ')}).`,
          );
      }
      const { description: _ignored, ...fields } = input.issue;
      void _ignored;
      if (fields.name !== undefined && !fields.name.trim())
        throw validationError({ 'issue.name': ['This field may not be blank.'] });
      if (Object.values(fields).some((v) => v !== undefined)) await this.issueCommands.update(ctx, issueId, fields);
    }
    if (intakeKeys.length) {
      await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        await emitChange(em, 'intake.changing', { workspaceId: ctx.workspaceId });
        const row = await this.row(em, ctx.projectId, issueId, true);
        const patch: Partial<IntakeIssue> = { updatedById: ctx.userId };
        if (input.snoozed_till !== undefined)
          patch.snoozedTill = input.snoozed_till ? new Date(input.snoozed_till) : null;
        if (input.source !== undefined) patch.source = input.source;
        if (input.source_email !== undefined) patch.sourceEmail = input.source_email;
        if (input.external_source !== undefined) patch.externalSource = input.external_source;
        if (input.external_id !== undefined) patch.externalId = input.external_id;
        if (input.extra !== undefined) patch.extra = input.extra;
        if (input.duplicate_to !== undefined) patch.duplicateToId = input.duplicate_to;
        const status = input.status ?? row.status;
        if (status === INTAKE_STATUS.DUPLICATE) {
          const target = input.duplicate_to !== undefined ? input.duplicate_to : row.duplicateToId;
          if (!target) throw validationError({ duplicate_to: ['A duplicate needs the work item it duplicates.'] });
          if (target === issueId) throw validationError({ duplicate_to: ['A work item cannot duplicate itself.'] });
          const found = await this.issues.issueInProject(ctx.projectId, target, em);
          if (!found) throw validationError({ duplicate_to: ['This work item is not in the project.'] });
        }
        const history: ActivityEntry[] = [];
        if (input.status !== undefined && input.status !== row.status) {
          patch.status = input.status;
          history.push({
            issueId,
            verb: 'updated',
            field: 'intake',
            oldValue: STATUS_NAME[row.status],
            newValue: STATUS_NAME[input.status],
            comment: 'updated the intake status',
          });
          history.push(...(await this.moveState(em, ctx, issueId, input.status)));
        }
        await this.intakes.updateRow(em, row.id, patch);
        await writeActivities(em, ctx, history);
      });
    }
    return this.retrieve(ctx.projectId, issueId);
  }

  /**
   * 204. Unless accepted, the work item goes too (soft delete, "deleted the issue"), which needs
   * its creator or a project Admin (403 `PERMISSION_DENIED`); an accepted item only leaves the intake.
   */
  async remove(ctx: IssueContext, issueId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      await this.assertEnabled(em, ctx.projectId);
      const row = await this.row(em, ctx.projectId, issueId, true);
      if (row.status !== INTAKE_STATUS.ACCEPTED) {
        // the work item's delete (its creator or a project Admin, else 403; "deleted the issue"), in this transaction
        await this.issueCommands.remove(ctx, issueId, em);
      } else if ((ctx.role ?? 0) < ROLE.ADMIN && row.createdById !== ctx.userId) {
        throw new MeridianError('PERMISSION_DENIED', 'Only admin or creator can remove the intake item.');
      }
      await this.intakes.updateRow(em, row.id, { deletedAt: new Date(), updatedById: ctx.userId });
      await emitChange(em, 'intake.deleted', {
        workspaceId: ctx.workspaceId,
        intakeIssueId: row.id,
        actorId: ctx.userId,
      });
    });
  }

  // ---- the intake object (Plane's `IntakeViewSet`, `plane/app/views/intake/base.py`) ---------

  /**
   * The project's intake object with its pending count (`GET …/intakes/`). Plane answers its first
   * intake; a project whose intake was never used has none here (404 `NOT_FOUND`), since Meridian
   * makes the intake on first use.
   */
  async intakeObject(projectId: string, id?: string, em?: EntityManager): Promise<IntakeObjectJson> {
    const first = await this.liveIntakeObject(projectId, id, em);
    return intakeObjectView(first.intake, first.pending, await this.projects.findLive(projectId, em));
  }

  /** The project's live intake object (or the one with `id`) with its pending count; 404 `NOT_FOUND`. */
  private async liveIntakeObject(projectId: string, id?: string, em?: EntityManager) {
    const [first] = await this.intakes.intakeObjects(projectId, id, em);
    if (!first) throw new MeridianError('NOT_FOUND');
    return first;
  }

  /** `PATCH …/intakes/{id}/`: `name` and `description`. 404 `NOT_FOUND`; 400 `PROJECT_ARCHIVED`. */
  async updateIntakeObject(
    ctx: IssueContext,
    id: string,
    input: { name?: string; description?: string },
  ): Promise<IntakeObjectJson> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      await this.liveIntakeObject(ctx.projectId, id, em);
      const fields: { name?: string; description?: string } = {};
      if (input.name !== undefined) fields.name = input.name;
      if (input.description !== undefined) fields.description = input.description;
      await this.intakes.updateIntakeObject(em, id, fields, ctx.userId);
    });
    return this.intakeObject(ctx.projectId, id);
  }

  /**
   * `DELETE …/intakes/{id}/`: Plane refuses the default intake with 400, and a project's only intake
   * is its default one, so this is always 400 `INTAKE_DEFAULT_UNDELETABLE` (404 `NOT_FOUND` first).
   */
  async removeIntakeObject(projectId: string, id: string): Promise<never> {
    await this.liveIntakeObject(projectId, id);
    throw new MeridianError('INTAKE_DEFAULT_UNDELETABLE');
  }

  // ---- helpers -------------------------------------------------------------------------------

  /** Declined and duplicate → first cancelled-group state; accepted from a triage state → default state. */
  private async moveState(
    em: EntityManager,
    ctx: IssueContext,
    issueId: string,
    status: number,
  ): Promise<ActivityEntry[]> {
    const issue = await found(this.issues.liveIssue(issueId, em));
    const current = issue.stateId ? ((await this.states.statesWithDeleted([issue.stateId], em))[0] ?? null) : null;
    let next: State | null = null;
    if (status === INTAKE_STATUS.DECLINED || status === INTAKE_STATUS.DUPLICATE) {
      next = await this.states.firstCancelledState(ctx.projectId, em);
    } else if (status === INTAKE_STATUS.ACCEPTED && (current?.isTriage || current?.group === 'triage')) {
      next = await this.states.defaultState(ctx.projectId, em);
    }
    if (!next || next.id === issue.stateId) return [];
    await this.issueCommands.moveToState(
      issueId,
      { stateId: next.id, completedAt: next.group === 'completed' ? new Date() : null, updatedById: ctx.userId },
      em,
    );
    return [
      {
        issueId,
        verb: 'updated',
        field: 'state',
        oldValue: current?.name ?? null,
        newValue: next.name,
        oldIdentifier: current?.id ?? null,
        newIdentifier: next.id,
        comment: 'updated the state to',
      },
    ];
  }

  private async assertEnabled(em: EntityManager, projectId: string): Promise<Project> {
    const project = await this.projects.findLive(projectId, em);
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    if (!project.intakeView) throw new MeridianError('INTAKE_NOT_ENABLED');
    return project;
  }

  /** The project's intake, made on first use ("<project name> Intake", as Plane names it). */
  private async intakeOf(em: EntityManager, project: Project, userId: string): Promise<Intake> {
    const found = await this.intakes.findIntake(em, project.id);
    if (found) return found;
    try {
      return await this.intakes.insertIntake(em, {
        workspaceId: project.workspaceId,
        projectId: project.id,
        name: `${project.name} Intake`,
        isDefault: true,
        createdById: userId,
        updatedById: userId,
      });
    } catch (err) {
      if (isUniqueViolation(err, 'uq_intakes_project_live'))
        throw new MeridianError('CONFLICT', 'The intake was created concurrently; try again.');
      throw err;
    }
  }

  private async row(em: EntityManager, projectId: string, issueId: string, lock = false): Promise<IntakeIssue> {
    const row = await this.intakes.findLiveRow(em, projectId, issueId, lock);
    if (!row) throw new MeridianError('NOT_FOUND');
    return row;
  }

  /** Whether `intakeId` is a live intake of the project (a published board's `intake` setting). */
  isProjectIntake(projectId: string, intakeId: string): Promise<boolean> {
    return this.intakes.intakeExists(projectId, intakeId);
  }

  /** Which of the work items `issueIds` have a live intake row with one of `statuses` (`INTAKE_STATUS`). */
  issuesWithIntakeStatus(issueIds: string[], statuses: number[]): Promise<Set<string>> {
    return this.intakes.issueIdsWithStatus([...new Set(issueIds)], statuses);
  }

  /**
   * The live intake row (entity) whose id is `id`, or whose work item's is (a webhook's
   * `intake_issue` event is queued by either), in `em`'s transaction; null when none.
   */
  liveRowByIdOrIssue(id: string, em: EntityManager = this.dataSource.manager): Promise<IntakeIssue | null> {
    return this.intakes.findLiveRowByIdOrIssueAnywhere(em, id);
  }

  /**
   * Where each of the work items `issueIds` came from through intake (`source`, `source_email`,
   * `extra` of its first live intake row; the others are absent): history rows show it.
   */
  sourcesOf(issueIds: string[]): Promise<Map<string, IntakeSourceRow>> {
    if (!issueIds.length) return Promise.resolve(new Map());
    return this.intakes.sourcesOf([...new Set(issueIds)]);
  }

  // ---- the import's dedupe reads (`meridian import plane`)

  /**
   * `external_id` → id of the project's live intake work items (`intake_issues` rows) that came from `source` (their
   * `external_source`); those without an `external_id` are left out. `em`: the caller's transaction.
   */
  externalIds(projectId: string, source: string, em?: EntityManager): Promise<Map<string, string>> {
    return this.intakes.externalIds(projectId, source, em);
  }
}
