import { MeridianError, Page, PageRequest, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CycleService } from '../cycle';
import { assertEstimatePoint } from '../kernel/estimate-checks';
import { IssueCommandService, IssueQueryService, Priority, stripHtml } from '../issue';
import { LabelService } from '../label';
import { ModuleService } from '../module';
import { ProjectMemberService } from '../project';
import { StateService } from '../state';
import { DraftIssue } from './draft-issue.entity';
import { DraftLinks, DraftRepository } from './draft.repository';
import { DraftJson, draftView } from './draft.view';

/** Writable draft fields, Plane's App names (`plane/app/serializers/draft.py` DraftIssueCreateSerializer). */
export interface DraftInput {
  name?: string | null;
  description_html?: string;
  description?: Record<string, unknown>;
  priority?: Priority;
  project_id?: string | null;
  state_id?: string | null;
  parent_id?: string | null;
  estimate_point?: string | null;
  start_date?: string | null;
  target_date?: string | null;
  sort_order?: number;
  type_id?: string | null;
  label_ids?: string[];
  assignee_ids?: string[];
  cycle_id?: string | null;
  module_ids?: string[];
}

/** The caller in a workspace, as the access guard resolved it. */
export interface DraftContext {
  workspaceId: string;
  userId: string;
}

/** A project as a draft needs it: whether it is archived and the caller's active role there (null when not a member). */
interface DraftProject {
  id: string;
  archived: boolean;
  role: number | null;
}

/** The resolved values of a draft's project-bound fields. */
interface Resolved {
  stateId: string | null;
  completed: boolean;
  parentId: string | null;
  estimatePointId: string | null;
  labels: string[];
  assignees: string[];
  cycle: string | null;
  modules: string[];
}

/**
 * Workspace drafts (Plane 0.25.3 `plane/app/views/workspace/draft.py` WorkspaceDraftIssueViewSet,
 * `plane/db/models/draft.py`): work items not yet published, private to their creator (another
 * user's draft is a 404, whatever the caller's role), optionally in a project, published with
 * `publish` as a real work item through the issue room's command side.
 */
@Injectable()
export class DraftService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly drafts: DraftRepository,
    private readonly issueCommands: IssueCommandService,
    private readonly issues: IssueQueryService,
    private readonly cycles: CycleService,
    private readonly modules: ModuleService,
    private readonly members: ProjectMemberService,
    private readonly states: StateService,
    private readonly labels: LabelService,
  ) {}

  /** The caller's drafts in the workspace, newest first, paginated (Plane's cursor envelope). */
  async list(ctx: DraftContext, page: PageRequest): Promise<Page<DraftJson>> {
    const found = await this.drafts.listPage(ctx.workspaceId, ctx.userId, page);
    const links = await this.drafts.links(this.drafts.manager, found.results);
    return found.map((d) => draftView(d, links.get(d.id)!));
  }

  /** The caller's draft; 404 `NOT_FOUND` for another's or an unknown id. */
  async retrieve(ctx: DraftContext, id: string): Promise<DraftJson> {
    const draft = await this.drafts.findOwn(this.drafts.manager, ctx.workspaceId, ctx.userId, id);
    if (!draft) throw new MeridianError('NOT_FOUND');
    return this.render(this.drafts.manager, draft);
  }

  /**
   * 201 with the draft. Every field is optional (Plane: a draft may have no name and no project).
   * `project_id`: a live project of the workspace the caller is an active member of (else 404
   * `PROJECT_NOT_FOUND`; archived: 400 `PROJECT_ARCHIVED`). Without `state_id` the project's
   * default state. `state_id`, `parent_id`, `estimate_point`, `cycle_id`, `module_ids` must be the
   * project's (422 on that field; they need a project); labels of other projects and assignees who
   * are not Admins or Members of the project are dropped, as for work items. 422 for `start_date`
   * after `target_date`.
   */
  async create(ctx: DraftContext, input: DraftInput): Promise<DraftJson> {
    return this.dataSource.transaction(async (em) => {
      const project = input.project_id ? await this.project(em, ctx, input.project_id) : null;
      this.assertDates(input.start_date ?? null, input.target_date ?? null);
      const r = await this.resolve(em, ctx, project, input, null, false);
      let sortOrder = input.sort_order;
      if (sortOrder === undefined) {
        const max = await this.drafts.highestSortOrder(em, project?.id ?? null, r.stateId);
        sortOrder = max === null ? 65535 : max + 10000;
      }
      const html = input.description_html || '<p></p>';
      const draft = await this.drafts.insert(
        em,
        em.create(DraftIssue, {
          workspaceId: ctx.workspaceId,
          projectId: project?.id ?? null,
          name: input.name?.trim() || null,
          description: input.description ?? {},
          descriptionHtml: html,
          descriptionStripped: stripHtml(html) || null,
          priority: input.priority ?? 'none',
          stateId: r.stateId,
          completedAt: r.completed ? new Date() : null,
          parentId: r.parentId,
          estimatePointId: r.estimatePointId,
          startDate: input.start_date ?? null,
          targetDate: input.target_date ?? null,
          sortOrder,
          typeId: input.type_id ?? null,
          createdById: ctx.userId,
          updatedById: ctx.userId,
        }),
      );
      await this.drafts.replaceLinks(em, draft.id, {
        assignees: r.assignees,
        labels: r.labels,
        cycle: r.cycle,
        modules: r.modules,
      });
      return this.render(em, draft);
    });
  }

  /**
   * Partial update (Plane answers 204). The caller's own draft only (404). The same rules as
   * `create`; `label_ids`, `assignee_ids`, `module_ids` replace their sets, `cycle_id: null` takes
   * the draft out of its cycle. Moving the draft to another project resets what belongs to the old
   * one unless the body gives it: the state (to the new project's default), estimate point, cycle
   * and modules; labels and assignees are filtered again.
   */
  async update(ctx: DraftContext, id: string, input: DraftInput): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const draft = await this.drafts.findOwn(em, ctx.workspaceId, ctx.userId, id, true);
      if (!draft) throw new MeridianError('NOT_FOUND');
      const moved = input.project_id !== undefined && input.project_id !== draft.projectId;
      let project: DraftProject | null;
      if (moved) project = input.project_id ? await this.project(em, ctx, input.project_id) : null;
      else project = draft.projectId ? { id: draft.projectId, archived: false, role: null } : null;
      this.assertDates(
        input.start_date !== undefined ? input.start_date : draft.startDate,
        input.target_date !== undefined ? input.target_date : draft.targetDate,
      );
      const current = (await this.drafts.links(em, [draft])).get(draft.id)!;
      const r = await this.resolve(em, ctx, project, input, { draft, links: current }, moved);
      const patch: Partial<DraftIssue> = { updatedById: ctx.userId, updatedAt: new Date() };
      if (moved) patch.projectId = project?.id ?? null;
      if (input.name !== undefined) patch.name = input.name?.trim() || null;
      if (input.description !== undefined) patch.description = input.description;
      if (input.description_html !== undefined) {
        patch.descriptionHtml = input.description_html || '<p></p>';
        patch.descriptionStripped = stripHtml(patch.descriptionHtml) || null;
      }
      if (input.priority !== undefined) patch.priority = input.priority;
      if (input.start_date !== undefined) patch.startDate = input.start_date;
      if (input.target_date !== undefined) patch.targetDate = input.target_date;
      if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
      if (input.type_id !== undefined) patch.typeId = input.type_id;
      if (r.stateId !== draft.stateId) patch.completedAt = r.completed ? new Date() : null;
      patch.stateId = r.stateId;
      patch.parentId = r.parentId;
      patch.estimatePointId = r.estimatePointId;
      await this.drafts.update(em, draft.id, patch);
      await this.drafts.replaceLinks(em, draft.id, {
        assignees: moved || input.assignee_ids !== undefined ? r.assignees : undefined,
        labels: moved || input.label_ids !== undefined ? r.labels : undefined,
        cycle: moved || input.cycle_id !== undefined ? r.cycle : undefined,
        modules: moved || input.module_ids !== undefined ? r.modules : undefined,
      });
    });
  }

  /** 204; soft delete of the caller's own draft (404 otherwise). */
  async remove(ctx: DraftContext, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const draft = await this.drafts.findOwn(em, ctx.workspaceId, ctx.userId, id, true);
      if (!draft) throw new MeridianError('NOT_FOUND');
      await this.drafts.update(em, draft.id, { deletedAt: new Date(), updatedById: ctx.userId });
    });
  }

  /**
   * `POST draft-to-issue/{draft_id}/` (Plane `create_draft_to_issue`): publishes the caller's draft
   * into its project as a work item, in one transaction: the work item through
   * `IssueCommandService.create` (sequence id, default state and assignee, history, notifications,
   * webhooks as any create), its cycle and modules with their history rows, and the draft deleted.
   * Plane creates the work item from the request body (the web app sends the draft back with the
   * form's values); here the body's fields, when given, override the draft's stored ones, so an
   * empty body publishes the draft as it is. Answers the new work item's App values (201).
   *
   * Errors: 404 `NOT_FOUND` (not the caller's draft), 400 `DRAFT_PROJECT_REQUIRED` (no project),
   * 404 `PROJECT_NOT_FOUND` (its project is gone), 403 `PERMISSION_DENIED` (the caller is no longer
   * an Admin or Member of the project), 422 (no name; a state, parent, cycle or module no longer
   * valid), and the cycle's rules (400 `CYCLE_COMPLETED`, `CYCLE_ARCHIVED`). On any error nothing
   * is published and the draft stays.
   */
  async publish(ctx: DraftContext, id: string, body: DraftInput) {
    const issueId = await this.dataSource.transaction(async (em) => {
      const draft = await this.drafts.findOwn(em, ctx.workspaceId, ctx.userId, id, true);
      if (!draft) throw new MeridianError('NOT_FOUND');
      if (!draft.projectId) throw new MeridianError('DRAFT_PROJECT_REQUIRED');
      const project = await this.projectWithRole(em, ctx, draft.projectId);
      if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
      if ((project.role ?? 0) < ROLE.MEMBER)
        throw new MeridianError('PERMISSION_DENIED', 'Only project Admins and Members can create work items.');
      const links = (await this.drafts.links(em, [draft])).get(draft.id)!;
      const pick = <K extends keyof DraftInput, V>(key: K, stored: V): DraftInput[K] | V =>
        body[key] !== undefined ? body[key] : stored;
      const name = (pick('name', draft.name) ?? '').trim();
      if (!name) throw validationError({ name: ['This field is required.'] });
      const issueCtx = { workspaceId: ctx.workspaceId, projectId: project.id, userId: ctx.userId, role: project.role };
      const issue = await this.issueCommands.create(
        issueCtx,
        {
          name,
          description_html: pick('description_html', draft.descriptionHtml),
          priority: pick('priority', draft.priority),
          state: pick('state_id', draft.stateId),
          parent: pick('parent_id', draft.parentId),
          estimate_point: pick('estimate_point', draft.estimatePointId),
          start_date: pick('start_date', draft.startDate),
          target_date: pick('target_date', draft.targetDate),
          type_id: pick('type_id', draft.typeId),
          sort_order: body.sort_order,
          assignees: pick('assignee_ids', links.assignee_ids),
          labels: pick('label_ids', links.label_ids),
        },
        em,
      );
      const cycle = pick('cycle_id', links.cycle_id);
      if (cycle) await this.cycles.addIssuesIn(em, issueCtx, cycle, [issue.id]);
      for (const moduleId of new Set(pick('module_ids', links.module_ids) ?? []))
        await this.modules.addIssuesIn(em, issueCtx, moduleId, [issue.id]);
      await this.drafts.update(em, draft.id, { deletedAt: new Date(), updatedById: ctx.userId });
      return issue.id;
    });
    return this.issues.detailAppById(issueId);
  }

  private async render(em: EntityManager, draft: DraftIssue): Promise<DraftJson> {
    const fresh = (await this.drafts.byIds(em, [draft.id]))[0] ?? draft;
    const links = await this.drafts.links(em, [fresh]);
    return draftView(fresh, links.get(fresh.id)!);
  }

  /** A live project of the workspace the caller is an active member of (404), not archived (400). */
  private async project(em: EntityManager, ctx: DraftContext, projectId: string): Promise<DraftProject> {
    const project = await this.projectWithRole(em, ctx, projectId);
    if (!project || project.role === null) throw new MeridianError('PROJECT_NOT_FOUND');
    if (project.archived) throw new MeridianError('PROJECT_ARCHIVED');
    return project;
  }

  /** The live project of the workspace (archived or not) with the caller's active role there, else null. */
  private async projectWithRole(em: EntityManager, ctx: DraftContext, projectId: string): Promise<DraftProject | null> {
    const found = await this.members.liveProjectWithRole(ctx.workspaceId, projectId, ctx.userId, em);
    return found ? { id: projectId, ...found } : null;
  }

  /**
   * The project-bound fields after the write: given values checked against the project, missing
   * ones kept from `kept` (an update in the same project) or defaulted (a create or a move).
   */
  private async resolve(
    em: EntityManager,
    ctx: DraftContext,
    project: DraftProject | null,
    input: DraftInput,
    kept: { draft: DraftIssue; links: DraftLinks } | null,
    moved: boolean,
  ): Promise<Resolved> {
    const errors: Record<string, string[]> = {};
    const needsProject = 'A project is required for this field.';
    // what belongs to the old project is not kept across a move
    const same = moved ? null : kept;
    const r: Resolved = {
      stateId: same?.draft.stateId ?? null,
      completed: same ? same.draft.completedAt !== null : false,
      parentId: kept?.draft.parentId ?? null,
      estimatePointId: same?.draft.estimatePointId ?? null,
      labels: kept?.links.label_ids ?? [],
      assignees: kept?.links.assignee_ids ?? [],
      cycle: same?.links.cycle_id ?? null,
      modules: same?.links.module_ids ?? [],
    };
    // state: the given one, else kept, else the project's default
    if (input.state_id) {
      const found = project ? await this.states.stateInProject(project.id, input.state_id, em) : null;
      const state = found && !found.isTriage ? found : null;
      if (!state) errors.state_id = [project ? 'State is not valid please pass a valid state_id.' : needsProject];
      else Object.assign(r, { stateId: state.id, completed: state.group === 'completed' });
    } else if (input.state_id === null || !same) {
      const state = project ? await this.states.defaultOrFirstState(project.id, em) : null;
      Object.assign(r, { stateId: state?.id ?? null, completed: state?.group === 'completed' });
    }
    if (input.parent_id !== undefined) {
      r.parentId = null;
      if (input.parent_id) {
        const ok = project
          ? (await this.issues.reachableParent(ctx.workspaceId, project.id, ctx.userId, input.parent_id, em)) !== null
          : false;
        if (!ok)
          errors.parent_id = [project ? 'Parent is not valid issue_id please pass a valid issue_id.' : needsProject];
        else r.parentId = input.parent_id;
      }
    }
    if (input.estimate_point !== undefined) {
      r.estimatePointId = null;
      if (input.estimate_point) {
        if (!project) errors.estimate_point = [needsProject];
        else {
          await assertEstimatePoint(em, project.id, input.estimate_point);
          r.estimatePointId = input.estimate_point;
        }
      }
    }
    const labels = input.label_ids ?? r.labels;
    r.labels = project ? (await this.labels.liveLabelIdsInProject(project.id, labels, em)).sort() : [];
    const assignees = input.assignee_ids ?? r.assignees;
    r.assignees = project ? (await this.members.assignableAmong(project.id, assignees, em)).sort() : [];
    if (input.cycle_id !== undefined) {
      r.cycle = null;
      if (input.cycle_id) {
        const found = project ? await this.cycles.openIdsInProject(project.id, [input.cycle_id], em) : [];
        if (!found.length) errors.cycle_id = [project ? 'The cycle is not a live cycle of the project.' : needsProject];
        else r.cycle = input.cycle_id;
      }
    }
    if (input.module_ids !== undefined) {
      const wanted = [...new Set(input.module_ids)];
      const found = project ? await this.modules.openIdsInProject(project.id, wanted, em) : [];
      if (found.length !== wanted.length)
        errors.module_ids = [project ? 'A module is not a live module of the project.' : needsProject];
      r.modules = found;
    }
    if (Object.keys(errors).length) throw validationError(errors);
    return r;
  }

  private assertDates(start: string | null, target: string | null): void {
    if (start && target && start > target)
      throw validationError({ start_date: ['Start date cannot exceed target date.'] });
  }
}
