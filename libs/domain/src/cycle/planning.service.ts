import { MeridianError, Page, PageRequest, ROLE, validationError } from '#common';
import { DataSource, EntityManager } from 'typeorm';
import {
  ActivityEntry,
  ChangeContext,
  Issue,
  IssueContext,
  IssueJson,
  IssueQueryService,
  writeActivities,
} from '../issue';
import { emitChange } from '../kernel/change-bus';
import type { ReadBatch } from '../kernel/hot-query';
import { isUniqueViolation } from '../kernel/db-errors';
import { Shape } from '../kernel/fields';
import { assertProjectWritable } from '../kernel/project-writable';
import { ProjectMemberService, ProjectService } from '../project';
import type { IssueCounts } from './cycle.view';
import { PlanningLinkRow, PlanningRepository, PlanningRow } from './planning.repository';

/**
 * What `CycleService` and `ModuleService` share (Plane's cycle and module views are twins): the
 * retrieve of a live or an archived row, the soft delete that takes the work items out with
 * history, the work item link routes (`cycle-issues/`, `module-issues/`), archive and unarchive.
 * `E` is the entity, `L` its link entity, `J` the v1 JSON of a row and `V` the JSON of a link row.
 * The rules that differ (what may be archived, how work items are added) are the subclass's.
 */
export abstract class PlanningService<E extends PlanningRow, L extends PlanningLinkRow, J, V> {
  /** `cycle` or `module`: the history's field (`cycles`, `modules`), messages and webhook kind. */
  protected abstract readonly kind: 'cycle' | 'module';
  /** The unique index a concurrent add runs into, and the 409 `CONFLICT` message it becomes. */
  protected abstract readonly addConflict: { index: string; message: string };

  protected constructor(
    protected readonly repo: PlanningRepository<E, L>,
    protected readonly dataSource: DataSource,
    protected readonly issues: IssueQueryService,
    protected readonly projects: ProjectService,
    protected readonly projectMembers: ProjectMemberService,
  ) {}

  /** The v1 JSON of these rows, in their order (one statement per annotation). */
  protected abstract render(rows: E[]): Promise<J[]>;
  /** The v1 JSON of a link row with its work item's `sub_issues_count`. */
  protected abstract linkView(link: L, subIssues: number): V;
  /** Adds the work items in the caller's transaction (see the subclass for the rules). */
  abstract addIssuesIn(em: EntityManager, ctx: ChangeContext, id: string, issueIds: string[]): Promise<void>;
  /** Throws when the row may not be archived (the subclass's rule and error). */
  protected abstract assertArchivable(row: E): void;

  /** One non-archived row of the project, with counts; 404 `NOT_FOUND` otherwise (also while the project is archived). */
  retrieve(projectId: string, id: string): Promise<J> {
    return this.retrieveIn(projectId, id, false);
  }

  /**
   * An archived row (Plane 0.25.3 `app/views/cycle/archive.py`, `module/archive.py`, `get` with a
   * `pk`): 404 `NOT_FOUND` when it is not archived, not this project's, or the project is archived.
   */
  retrieveArchived(projectId: string, id: string): Promise<J> {
    return this.retrieveIn(projectId, id, true);
  }

  /**
   * Soft-deletes the row (204): only its creator or a project Admin (403 `PERMISSION_DENIED`). Its
   * work items leave it, each with a history row.
   */
  async remove(ctx: IssueContext, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const row = await this.load(em, ctx.projectId, id, true);
      if (row.createdById !== ctx.userId && (ctx.role ?? 0) < ROLE.ADMIN) {
        throw new MeridianError('PERMISSION_DENIED', `Only admin or creator can delete the ${this.kind}.`);
      }
      await emitChange(em, 'model.changed', { kind: this.kind, action: 'deleted', row, actorId: ctx.userId });
      const links = await this.repo.links(em, id);
      await this.repo.deleteLinksOf(em, id);
      await writeActivities(
        em,
        ctx,
        links.map((l) => this.removedEntry(l.issueId, row)),
      );
      await this.repo.update(em, id, { deletedAt: new Date(), updatedById: ctx.userId } as Partial<E>);
    });
  }

  /**
   * `POST cycle-issues/` or `module-issues/` `{issues: [ids]}` (200): `addIssuesIn` in a transaction
   * of its own (a concurrent add: 409 `CONFLICT`); answers every link row, oldest first, each with
   * `sub_issues_count`.
   */
  async addIssues(ctx: ChangeContext, id: string, issueIds: string[]): Promise<V[]> {
    await this.dataSource
      .transaction((em) => this.addIssuesIn(em, ctx, id, issueIds))
      .catch((err) => this.rethrowAddConflict(err));
    const links = await this.repo.linksOldestFirst(this.repo.manager, id);
    const subs = await this.issues.subItemCounts(links.map((l) => l.issueId));
    return links.map((l) => this.linkView(l, subs.get(l.issueId) ?? 0));
  }

  /**
   * `GET cycle-issues/`, `module-issues/`: the row's visible work items as work item objects, oldest
   * first (`desc`: newest first); paginated; `fields=`/`expand=` apply. Archived rows' too.
   */
  async listIssues(
    projectId: string,
    id: string,
    page: PageRequest,
    shape: Shape,
    desc = false,
  ): Promise<Page<Partial<IssueJson>>> {
    await this.load(this.repo.manager, projectId, id);
    const found = await this.issues.linkedIssuesPage(projectId, this.repo.linkScope(id), page, desc ? 'DESC' : 'ASC');
    return renderPage(found, (issues) => this.issues.renderMany(issues, shape));
  }

  /** `GET …-issues/{issue_id}/`: the link row; 404 when the work item is not linked to this row. */
  async retrieveIssueLink(projectId: string, id: string, issueId: string): Promise<V> {
    await this.load(this.repo.manager, projectId, id);
    const link = await this.repo.findLink(this.repo.manager, id, issueId);
    if (!link) throw new MeridianError('NOT_FOUND');
    const subs = await this.issues.subItemCounts([issueId]);
    return this.linkView(link, subs.get(issueId) ?? 0);
  }

  /** `DELETE …-issues/{issue_id}/` (204): the work item leaves, with a history row; 404 when it is not in it. */
  async removeIssue(ctx: ChangeContext, id: string, issueId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const row = await this.load(em, ctx.projectId, id, true);
      const link = await this.repo.findLink(em, id, issueId);
      if (!link) throw new MeridianError('NOT_FOUND');
      await this.repo.deleteLink(em, link.id);
      await writeActivities(em, ctx, [this.removedEntry(issueId, row)]);
    });
  }

  /** Archives the row (204) when `assertArchivable` lets it; an archived one is left as it is. */
  async archive(ctx: ChangeContext, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const row = await this.load(em, ctx.projectId, id, true);
      this.assertArchivable(row);
      if (!row.archivedAt)
        await this.repo.update(em, id, { archivedAt: new Date(), updatedById: ctx.userId } as Partial<E>);
    });
  }

  /** Unarchives the row (204); one that is not archived is left as it is. */
  async unarchive(ctx: ChangeContext, id: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      await this.load(em, ctx.projectId, id, true);
      await this.repo.update(em, id, { archivedAt: null, updatedById: ctx.userId } as Partial<E>);
    });
  }

  /**
   * The live work items of the project with these ids, in their order (duplicates folded), in the
   * caller's transaction. An empty list is 422 (Plane: 400 "Issues are required"); an id that is not
   * a live work item of the project is 422 (Plane does not check; Meridian names the ids).
   */
  protected async issuesOfProject(em: EntityManager, projectId: string, ids: string[]): Promise<Issue[]> {
    const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
    if (!wanted.length) throw validationError({ issues: ['Issues are required.'] });
    const found = await this.issues.issuesInProject(projectId, wanted, em);
    const missing = wanted.filter((id) => !found.some((i) => i.id === id));
    if (missing.length) throw validationError({ issues: [`Not work items of this project: ${missing.join(', ')}.`] });
    return wanted.map((id) => found.find((i) => i.id === id)!);
  }

  /** The row of the project (archived too), locked with `lock`; 404 `NOT_FOUND` otherwise. */
  protected async load(em: EntityManager, projectId: string, id: string, lock = false): Promise<E> {
    const row = await this.repo.findInProject(em, projectId, id, lock);
    if (!row) throw new MeridianError('NOT_FOUND');
    return row;
  }

  /** A page of rows rendered by `render`. */
  protected renderRows(found: Page<E>): Promise<Page<J>> {
    return renderPage(found, (rows) => this.render(rows));
  }

  /** A concurrent add of the same work item (`addConflict.index`) is 409 `CONFLICT`; other errors pass. */
  protected rethrowAddConflict(err: unknown): never {
    if (isUniqueViolation(err, this.addConflict.index)) throw new MeridianError('CONFLICT', this.addConflict.message);
    throw err;
  }

  /** The history row of a work item that leaves the row ("removed cycle ", "removed module "). */
  protected removedEntry(issueId: string, row: E): ActivityEntry {
    return {
      issueId,
      verb: 'deleted',
      field: `${this.kind}s`,
      oldValue: row.name,
      oldIdentifier: row.id,
      comment: `removed ${this.kind} `,
    };
  }

  private async retrieveIn(projectId: string, id: string, archived: boolean): Promise<J> {
    if (await this.projects.isArchived(projectId)) throw new MeridianError('NOT_FOUND');
    const row = await this.load(this.repo.manager, projectId, id);
    if (!!row.archivedAt !== archived) throw new MeridianError('NOT_FOUND');
    return (await this.render([row]))[0];
  }

  // ---- reads for the rooms above (the published boards)

  /** The project's live, unarchived cycles or modules as `{id, name}`, oldest first. */
  openNames(projectId: string): Promise<Array<{ id: string; name: string }>> {
    return this.repo.openNames(projectId);
  }

  /** The live links (`cycle_issues` or `module_issues` rows) of these work items, in no order. */
  linksOfIssues(issueIds: string[]): Promise<L[]> {
    if (!issueIds.length) return Promise.resolve([]);
    return this.repo.linksOfIssues(this.repo.manager, issueIds);
  }

  /** The cycle or module `id` (entity), deleted or not, or null; in `em`'s transaction (a webhook delivery renders it). */
  async findWithDeleted(id: string, em: EntityManager = this.repo.manager): Promise<E | null> {
    return (await this.repo.findWithDeleted(em, [id]))[0] ?? null;
  }

  /** The work item counts by state group of each of `ids` (see `countIssues`), in `em`'s transaction. */
  issueCounts(ids: string[], em: EntityManager = this.repo.manager): Promise<Map<string, IssueCounts>> {
    return this.repo.countIssues(em, ids);
  }

  /** Whether `id` is a live cycle or module of the project (archived or not). */
  async existsInProject(projectId: string, id: string): Promise<boolean> {
    return (await this.repo.findInProject(this.repo.manager, projectId, id)) !== null;
  }

  /**
   * Which of `ids` are live, unarchived cycles or modules of the project (sorted, each once), in
   * the caller's transaction when `em` is given: a workspace draft's `cycle_id` and `module_ids`.
   */
  async openIdsInProject(projectId: string, ids: string[], em: EntityManager = this.repo.manager): Promise<string[]> {
    if (!ids.length) return [];
    return (await this.repo.openIdsInProject(em, projectId, [...new Set(ids)])).sort();
  }

  /**
   * The live cycle or module `id` of the workspace (entity, archived or not), or null, in the
   * caller's transaction when `em` is given: what a new favourite points at.
   */
  findInWorkspace(workspaceId: string, id: string, em: EntityManager = this.repo.manager): Promise<E | null> {
    return this.repo.findInWorkspace(em, workspaceId, id);
  }

  // ---- searches, for the rooms above (search)

  /**
   * The unarchived cycles or modules of `userId`'s live, unarchived projects of the workspace (one
   * project with `projectId`) whose name contains `q` (when given), newest first, at most `limit`:
   * `{name, id, project_id, project__identifier, workspace__slug}` rows, with `status` (a cycle's
   * computed as Plane's) when `withStatus` (the editor's entity search). With `opts.batch`, its
   * statement goes in it (the search room's `ReadBatch`).
   */
  searchOfMember(
    workspaceId: string,
    userId: string,
    q: string,
    opts: { projectId?: string; limit: number; withStatus: boolean; batch?: ReadBatch },
  ): Promise<unknown[]> {
    return this.repo.searchOfMember(workspaceId, userId, q, opts);
  }

  // ---- the import's dedupe reads (`meridian import plane`)

  /**
   * `external_id` → id of the project's live cycles or modules that came from `source` (their
   * `external_source`); those without an `external_id` are left out. `em`: the caller's transaction.
   */
  externalIds(projectId: string, source: string, em?: EntityManager): Promise<Map<string, string>> {
    return this.repo.externalIds(projectId, source, em);
  }

  /** The ids of the work items in the cycle or module `id` (its live `cycle_issues` or `module_issues` rows). */
  issueIds(id: string, em?: EntityManager): Promise<Set<string>> {
    return this.repo.issueIdsOf(id, em);
  }
}

/** The page with its rows rendered by `render` (one call for the whole page). */
export async function renderPage<T, U>(found: Page<T>, render: (rows: T[]) => Promise<U[]>): Promise<Page<U>> {
  return new Page(await render(found.results), found.perPage, found.totalCount, found.nextCursor, found.prevCursor);
}

/** The rows the caller has a favourite of first, keeping the order otherwise (Plane: `order_by("-is_favorite", …)`). */
export function favoritesFirst<T extends { is_favorite: boolean }>(rows: T[]): T[] {
  return [...rows.filter((r) => r.is_favorite), ...rows.filter((r) => !r.is_favorite)];
}
