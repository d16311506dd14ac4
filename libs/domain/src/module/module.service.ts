import { MeridianError, Page, PageRequest, validationError } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { favoritesFirst, PlanningRepository, PlanningService } from '../cycle';
import { ActivityEntry, ChangeContext, IssueQueryService, writeActivities } from '../issue';
import { EstimateService } from '../estimate';
import { isUniqueViolation } from '../kernel/db-errors';
import { assertExternalIdFree } from '../kernel/external-id';
import { assertProjectWritable } from '../kernel/project-writable';
import { ProjectMemberService, ProjectService } from '../project';
import { Module, ModuleStatus } from './module.entity';
import { ModuleIssue } from './module-issue.entity';
import { MODULE_PLANNING, ModuleRepository } from './module.repository';
import { WorkspaceService } from '../workspace';
import { AppModuleJson, appModuleView } from './module.app-view';
import { moduleLinkView } from './module-link.view';
import { ModuleJson, moduleIssueView, moduleView } from './module.view';
import { emitChange } from '../kernel/change-bus';

/** Writable module fields, Plane's names (`plane/api/serializers/module.py` ModuleSerializer). */
export interface ModuleInput {
  name?: string;
  description?: string;
  description_text?: unknown;
  description_html?: unknown;
  start_date?: string | null;
  target_date?: string | null;
  status?: ModuleStatus;
  lead?: string | null;
  members?: string[];
  view_props?: Record<string, unknown>;
  logo_props?: Record<string, unknown>;
  sort_order?: number;
  external_source?: string | null;
  external_id?: string | null;
}

/**
 * Plane's module distribution (`ModuleViewSet.retrieve`, shared with the cycle analytics): assignee
 * rows with `first_name`, `last_name`, ordered by name; completions on UTC days.
 */
const MODULE_DISTRIBUTION = { names: true, timezone: 'UTC' };

/**
 * Modules of a project and their work items (Plane `plane/api/views/module.py`;
 * `plane-node-sdk/dist/api/Modules.js`, `plane-mcp-server/build/tools/modules.js`). Adding and
 * removing work items writes each work item's history (`field: "modules"`) in the same transaction.
 */
@Injectable()
export class ModuleService extends PlanningService<
  Module,
  ModuleIssue,
  ModuleJson,
  ReturnType<typeof moduleIssueView>
> {
  protected readonly kind = 'module';
  protected readonly addConflict = {
    // a concurrent add of the same work item to this module
    index: 'uq_module_issues_module_issue',
    message: 'A work item was added to this module at the same time; retry.',
  };

  constructor(
    private readonly modules: ModuleRepository,
    @Inject(MODULE_PLANNING) planning: PlanningRepository<Module, ModuleIssue>,
    @InjectDataSource() dataSource: DataSource,
    issues: IssueQueryService,
    private readonly workspaces: WorkspaceService,
    projects: ProjectService,
    projectMembers: ProjectMemberService,
    private readonly estimates: EstimateService,
  ) {
    super(planning, dataSource, issues, projects, projectMembers);
  }

  /**
   * Non-archived modules (or, with `archived`, the archived ones), newest first, paginated; empty
   * while the project is archived. With `onlyModuleId`, that module alone (an empty page when it is
   * not in that state); an id that is not a module of the project is a 404 `NOT_FOUND`.
   */
  async list(projectId: string, page: PageRequest, archived = false, onlyModuleId?: string): Promise<Page<ModuleJson>> {
    if (onlyModuleId !== undefined) await this.load(this.modules.manager, projectId, onlyModuleId);
    return this.renderRows(await this.modules.listPage(projectId, page, archived, onlyModuleId));
  }

  /**
   * Non-archived modules of every project of the workspace the user is an active member of, newest
   * first, with members and counts (Plane's `WorkspaceModulesEndpoint`, which lists the whole workspace's).
   */
  async listForWorkspace(workspaceId: string, userId: string): Promise<ModuleJson[]> {
    return this.render(await this.repo.listForMember(workspaceId, userId));
  }

  /**
   * Creates a module (201): status `planned` by default; `sort_order` the project's lowest − 10000
   * (65535 for the first); `lead` must be an active workspace member (422); `members` are filtered
   * to active project members, as Plane does; start ≤ target (422). 409 `MODULE_NAME_TAKEN` /
   * `EXTERNAL_ID_TAKEN` with the holder's `id`.
   */
  async create(ctx: ChangeContext, input: ModuleInput & { name: string }): Promise<ModuleJson> {
    return this.guard(async () => {
      const id = await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        await this.assertNameFree(em, ctx.projectId, input.name);
        await assertExternalIdFree(em, Module, ctx.projectId, input.external_source, input.external_id);
        this.assertDates(input.start_date ?? null, input.target_date ?? null);
        if (input.lead) await this.assertLead(em, ctx.workspaceId, input.lead);
        let sortOrder = input.sort_order;
        if (sortOrder === undefined) {
          const min = await this.repo.lowestSortOrder(em, ctx.projectId);
          sortOrder = min === null ? 65535 : min - 10000;
        }
        const module = await this.repo.insert(em, {
          workspaceId: ctx.workspaceId,
          projectId: ctx.projectId,
          name: input.name.trim(),
          description: input.description ?? '',
          descriptionText: input.description_text ?? null,
          descriptionHtml: input.description_html ?? null,
          startDate: input.start_date ?? null,
          targetDate: input.target_date ?? null,
          status: input.status ?? 'planned',
          leadId: input.lead ?? null,
          viewProps: input.view_props ?? {},
          logoProps: input.logo_props ?? {},
          sortOrder,
          externalSource: input.external_source ?? null,
          externalId: input.external_id ?? null,
          createdById: ctx.userId,
          updatedById: ctx.userId,
        });
        await emitChange(em, 'model.changed', { kind: 'module', action: 'created', row: module, actorId: ctx.userId });
        const members = await this.filterMembers(em, ctx.projectId, input.members ?? []);
        await this.modules.insertMembers(em, module.id, members);
        return module.id;
      });
      return this.retrieve(ctx.projectId, id);
    });
  }

  /** Partial update (200); `members`, when present, replaces the set. Archived: 400 `MODULE_ARCHIVED`. Errors as on create. */
  async update(ctx: ChangeContext, moduleId: string, input: ModuleInput): Promise<ModuleJson> {
    return this.guard(async () => {
      await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const module = await this.load(em, ctx.projectId, moduleId, true);
        if (module.archivedAt) throw new MeridianError('MODULE_ARCHIVED');
        await emitChange(em, 'model.changed', { kind: 'module', action: 'updated', row: module, actorId: ctx.userId });
        if (input.name !== undefined && input.name.trim() !== module.name)
          await this.assertNameFree(em, ctx.projectId, input.name, moduleId);
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(
            em,
            Module,
            ctx.projectId,
            input.external_source !== undefined ? input.external_source : module.externalSource,
            input.external_id !== undefined ? input.external_id : module.externalId,
            moduleId,
          );
        }
        this.assertDates(
          input.start_date !== undefined ? input.start_date : module.startDate,
          input.target_date !== undefined ? input.target_date : module.targetDate,
        );
        if (input.lead) await this.assertLead(em, ctx.workspaceId, input.lead);
        const patch: Partial<Module> = { updatedById: ctx.userId, updatedAt: new Date() };
        if (input.name !== undefined) patch.name = input.name.trim();
        if (input.description !== undefined) patch.description = input.description;
        if (input.description_text !== undefined) patch.descriptionText = input.description_text;
        if (input.description_html !== undefined) patch.descriptionHtml = input.description_html;
        if (input.start_date !== undefined) patch.startDate = input.start_date;
        if (input.target_date !== undefined) patch.targetDate = input.target_date;
        if (input.status !== undefined) patch.status = input.status;
        if (input.lead !== undefined) patch.leadId = input.lead;
        if (input.view_props !== undefined) patch.viewProps = input.view_props;
        if (input.logo_props !== undefined) patch.logoProps = input.logo_props;
        if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
        if (input.external_source !== undefined) patch.externalSource = input.external_source;
        if (input.external_id !== undefined) patch.externalId = input.external_id;
        await this.repo.update(em, moduleId, patch);
        if (input.members !== undefined) {
          const members = await this.filterMembers(em, ctx.projectId, input.members);
          await this.modules.deleteMembers(em, moduleId);
          await this.modules.insertMembers(em, moduleId, members);
        }
      });
      return this.retrieve(ctx.projectId, moduleId);
    });
  }

  /**
   * Adds live work items of the project to the module (`addIssues`, `POST module-issues/`
   * `{issues: [ids]}`, runs it in a transaction of its own; empty or foreign ids: 422); one already
   * in the module is skipped. Each addition writes "added module" to the work item's history.
   * Archived: 400 `MODULE_ARCHIVED`. Publishing a draft calls it in the create's transaction.
   */
  async addIssuesIn(em: EntityManager, ctx: ChangeContext, moduleId: string, ids: string[]): Promise<void> {
    await assertProjectWritable(em, ctx.projectId);
    const module = await this.load(em, ctx.projectId, moduleId, true);
    if (module.archivedAt) throw new MeridianError('MODULE_ARCHIVED');
    const issues = await this.issuesOfProject(em, ctx.projectId, ids);
    const current = await this.repo.linksOfIssues(
      em,
      issues.map((i) => i.id),
      moduleId,
    );
    const added = issues.filter((i) => !current.some((l) => l.issueId === i.id));
    if (!added.length) return;
    await this.repo.insertLinks(
      em,
      added.map((i) => ({
        workspaceId: ctx.workspaceId,
        projectId: ctx.projectId,
        moduleId,
        issueId: i.id,
        createdById: ctx.userId,
        updatedById: ctx.userId,
      })),
    );
    await writeActivities(
      em,
      ctx,
      added.map((i): ActivityEntry => ({
        issueId: i.id,
        verb: 'updated',
        field: 'modules',
        newValue: module.name,
        newIdentifier: module.id,
        comment: 'added module ',
      })),
    );
  }

  /**
   * App API `POST issues/{issue_id}/modules/` `{modules, removed_modules}` → `{message: "success"}`:
   * adds the work item to `modules` and takes it out of `removed_modules` (modules of the project;
   * an unknown one is a 404, an archived one to add to 400 `MODULE_ARCHIVED`), in one transaction,
   * with the same history rows as the module routes. Not being in a removed module is no error.
   */
  async setIssueModules(
    ctx: ChangeContext,
    issueId: string,
    add: string[],
    remove: string[],
  ): Promise<{ message: string }> {
    await this.dataSource
      .transaction(async (em) => {
        await this.issuesOfProject(em, ctx.projectId, [issueId]).catch(() => {
          throw new MeridianError('NOT_FOUND');
        });
        for (const moduleId of new Set(add)) await this.addIssuesIn(em, ctx, moduleId, [issueId]);
        for (const moduleId of new Set(remove)) {
          const module = await this.load(em, ctx.projectId, moduleId, true);
          const link = await this.repo.findLink(em, moduleId, issueId);
          if (!link) continue;
          await this.repo.deleteLink(em, link.id);
          await writeActivities(em, ctx, [this.removedEntry(issueId, module)]);
        }
      })
      .catch((err) => this.rethrowAddConflict(err));
    return { message: 'success' };
  }

  /** The module's member ids, sorted, in `em`'s transaction (a webhook delivery renders them). */
  async memberIds(moduleId: string, em: EntityManager = this.modules.manager): Promise<string[]> {
    return (await this.modules.membersOf(em, [moduleId])).map((r) => r.memberId).sort();
  }

  /** Archives a module (204); only a completed or cancelled one (400 `MODULE_NOT_ARCHIVABLE`). */
  protected assertArchivable(module: Module): void {
    if (module.status !== 'completed' && module.status !== 'cancelled')
      throw new MeridianError('MODULE_NOT_ARCHIVABLE');
  }

  /**
   * Modules in the App API's shape (`appModuleView`): one statement each for the page's estimate
   * point sums and `userId`'s `is_favorite`; `detail` (retrieve) adds `sub_issues`, the distribution
   * and `link_module` of the one module. `favoritesFirst` moves the favourites to the front, keeping
   * the order otherwise (Plane's lists: `order_by("-is_favorite", "-created_at")`).
   */
  async forApp(
    modules: ModuleJson[],
    userId: string,
    opts: { detail?: boolean; favoritesFirst?: boolean } = {},
  ): Promise<AppModuleJson[]> {
    const em = this.modules.manager;
    const ids = modules.map((m) => m.id);
    const sums = await this.repo.sumEstimatePoints(em, ids);
    const favorites = await this.repo.favoriteIds(em, userId, ids);
    const out: AppModuleJson[] = [];
    const points = new Map<string, boolean>();
    for (const m of modules) {
      if (opts.detail && !points.has(m.project)) {
        points.set(m.project, await this.estimates.usesPointEstimate(m.project, em));
      }
      // both distributions from one reading of the module's work items
      const [byIssues, byPoints] = opts.detail
        ? await this.repo.distributionsOf(
            em,
            m.id,
            points.get(m.project) ? ['issues', 'points'] : ['issues'],
            MODULE_DISTRIBUTION,
          )
        : [];
      const extra = opts.detail
        ? {
            sub_issues: await this.repo.subIssuesOf(em, m.id),
            distribution: byIssues,
            estimate_distribution: byPoints,
            link_module: (await this.modules.liveLinks(em, m.id)).map(moduleLinkView),
          }
        : undefined;
      out.push(appModuleView(m, sums.get(m.id)!, favorites.has(m.id), extra));
    }
    return opts.favoritesFirst ? favoritesFirst(out) : out;
  }

  protected async render(modules: Module[]): Promise<ModuleJson[]> {
    const ids = modules.map((m) => m.id);
    const [counts, members] = await Promise.all([
      this.repo.countIssues(this.modules.manager, ids),
      ids.length ? this.modules.membersOf(this.modules.manager, ids) : Promise.resolve([]),
    ]);
    return modules.map((m) =>
      moduleView(
        m,
        members
          .filter((r) => r.moduleId === m.id)
          .map((r) => r.memberId)
          .sort(),
        counts.get(m.id),
      ),
    );
  }

  protected linkView(link: ModuleIssue, subIssues: number) {
    return moduleIssueView(link, subIssues);
  }

  private assertDates(start: string | null, target: string | null): void {
    if (start && target && start > target)
      throw validationError({ start_date: ['Start date cannot exceed target date.'] });
  }

  private async assertLead(em: EntityManager, workspaceId: string, userId: string): Promise<void> {
    if (!(await this.workspaces.isActiveMember(workspaceId, userId, em)))
      throw validationError({ lead: ['The lead must be an active member of the workspace.'] });
  }

  /** Plane: members who are not active members of the project are dropped. */
  private async filterMembers(em: EntityManager, projectId: string, ids: string[]): Promise<string[]> {
    if (!ids.length) return [];
    const rows = await this.projectMembers.activeMemberIdsAmong(projectId, ids, em);
    return [...new Set(rows)].sort();
  }

  private async assertNameFree(em: EntityManager, projectId: string, name: string, exceptId?: string): Promise<void> {
    const found = await this.modules.idByName(em, projectId, name.trim());
    if (found && found !== exceptId) throw new MeridianError('MODULE_NAME_TAKEN', undefined, { id: found });
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err, 'uq_modules_name_live')) throw new MeridianError('MODULE_NAME_TAKEN');
      if (isUniqueViolation(err, 'uq_modules_external_live')) throw new MeridianError('EXTERNAL_ID_TAKEN');
      throw err;
    }
  }
}
