import { MeridianError, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { FavoriteService } from '../favorite';
import { stripHtml } from '../issue';
import { LabelService } from '../label';
import { ProjectService } from '../project';
import { assertProjectWritable } from '../kernel/project-writable';
import { documentFromHtml, renderDocument } from './page-document';
import { Page, PAGE_ACCESS } from './page.entity';
import { PageRepository, PageVisibility } from './page.repository';
import {
  PageDetailJson,
  pageDetailView,
  PageJson,
  pageVersionDetailView,
  PageVersionDetailJson,
  PageVersionJson,
  pageVersionView,
  pageView,
} from './page.view';

/** Who asks, and where: the caller's id and project role in the route's project. */
export interface PageScope {
  workspaceId: string;
  projectId: string;
  userId: string;
  role: number | null;
}

/** Writable page fields, Plane's names (`PageSerializer` / `PageDetailSerializer`). */
export interface PageInput {
  name?: string;
  access?: number;
  color?: string;
  parent?: string | null;
  view_props?: Record<string, unknown>;
  logo_props?: Record<string, unknown>;
  /** Label ids (Plane's write-only `labels`); the web app's `label_ids` is read as the same list. */
  labels?: string[];
  label_ids?: string[];
  description_html?: string;
}

/** Create also takes the first description (Plane's serializer context). */
export interface CreatePageInput extends PageInput {
  description?: unknown;
  /** base64 of the editor's document. */
  description_binary?: string | null;
}

/** `PATCH …/description/` (the web app's `TDocumentPayload`). */
export interface PageDescriptionInput {
  /** base64 of the editor's Yjs document. */
  description_binary: string;
  description_html?: string | null;
  description?: unknown;
}

/** Today's date (UTC), Plane's `archived_at` (a `DateField`). */
const today = () => new Date().toISOString().slice(0, 10);

/**
 * Project pages (Plane 0.25.3 `plane/app/views/page/base.py`: `PageViewSet`, `PageFavoriteViewSet`,
 * `PagesDescriptionViewSet`, `PageDuplicateEndpoint`; `page/version.py`: `PageVersionEndpoint`).
 *
 * A caller sees the project's public pages and their own private ones; a Guest only their own
 * unless the project has `guest_view_all_features`; nothing while the project is archived. A page
 * the caller cannot see is a 404 on every route. Project Admins and Members create, edit and
 * duplicate pages; lock, unlock, access, archive, unarchive and delete are for a project Admin or
 * the page's creator (403), and of those only the owner changes `access` (400
 * `PAGE_ACCESS_OWNER_ONLY`), and only the owner or an Admin archives or deletes (403). A locked page
 * cannot be edited (400 `PAGE_LOCKED`); its description neither while it is archived (400
 * `PAGE_ARCHIVED`); a page is deleted only once archived (400 `PAGE_NOT_ARCHIVED`).
 */
@Injectable()
export class PageService {
  private readonly managedListeners = new Set<(pageId: string) => void>();

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly pages: PageRepository,
    private readonly favorites: FavoriteService,
    private readonly projects: ProjectService,
    private readonly labels: LabelService,
  ) {}

  /** The top-level pages the caller sees: favourites first, then newest first (Plane's order). */
  async list(scope: PageScope): Promise<PageJson[]> {
    const visibility = await this.visibility(scope);
    if (!visibility) return [];
    const rows = await this.pages.list(visibility);
    const out = (await this.render(scope.userId, rows)).map(({ page, extras }) => pageView(page, extras));
    return out.sort((a, b) => Number(b.is_favorite) - Number(a.is_favorite));
  }

  /**
   * One page the caller sees, as Plane's `PageDetailSerializer` with `issue_ids` (Plane's work
   * items the page's history links; Meridian keeps no page history, so always empty).
   */
  async retrieve(scope: PageScope, id: string): Promise<PageDetailJson & { issue_ids: string[] }> {
    return { ...(await this.detail(scope.userId, await this.load(scope, id))), issue_ids: [] };
  }

  /**
   * Creates a page owned by the caller in the project (201, Plane's `PageDetailSerializer`).
   * `access` defaults to public; `description_html` to `<p></p>`; `parent` must be a page of the
   * project the caller sees (404); labels of other projects are dropped (as on work items).
   * 400 `PROJECT_ARCHIVED`.
   */
  async create(scope: PageScope, input: CreatePageInput): Promise<PageDetailJson> {
    const binary = decodeBinary(input.description_binary);
    const page = await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const visibility = await this.writableVisibility(em, scope);
      if (input.parent) await this.parentPage(em, visibility, input.parent);
      const html = input.description_html ?? '<p></p>';
      const row = await this.pages.insert(em, {
        workspaceId: scope.workspaceId,
        name: input.name ?? '',
        access: input.access ?? PAGE_ACCESS.PUBLIC,
        color: input.color ?? '',
        parentId: input.parent ?? null,
        viewProps: input.view_props ?? { full_width: false },
        logoProps: input.logo_props ?? {},
        description: input.description ?? {},
        descriptionBinary: binary,
        descriptionHtml: html,
        descriptionStripped: html === '' ? null : stripHtml(html),
        ownedById: scope.userId,
        createdById: scope.userId,
        updatedById: scope.userId,
      });
      await this.pages.addToProjects(em, row, [scope.projectId], scope.userId);
      const labels = input.labels ?? input.label_ids;
      if (labels?.length)
        await this.pages.setLabels(
          em,
          row,
          await this.labels.liveLabelIdsInProject(scope.projectId, labels, em),
          scope.userId,
        );
      return row;
    });
    return this.detail(scope.userId, page);
  }

  /**
   * Partial update (200, Plane's `PageDetailSerializer`) by a project Admin or Member of a page they
   * see. 400 `PAGE_LOCKED` on a locked page; a change of `access` by anyone but the owner is 400
   * `PAGE_ACCESS_OWNER_ONLY`; `parent` must be another page of the project the caller sees (404).
   * `labels` (or `label_ids`), when given, replace the set. 400 `PROJECT_ARCHIVED`.
   */
  async update(scope: PageScope, id: string, input: PageInput): Promise<PageDetailJson> {
    const page = await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const visibility = await this.writableVisibility(em, scope);
      const page = await this.pages.findVisible(em, visibility, id, true);
      if (!page) throw new MeridianError('NOT_FOUND');
      if (page.isLocked) throw new MeridianError('PAGE_LOCKED');
      if (input.access !== undefined && input.access !== page.access && page.ownedById !== scope.userId)
        throw new MeridianError('PAGE_ACCESS_OWNER_ONLY');
      if (input.parent) {
        if (input.parent === id) throw validationError({ parent: ['A page cannot be its own parent.'] });
        await this.parentPage(em, visibility, input.parent);
      }
      const patch: Partial<Page> = { updatedById: scope.userId };
      if (input.name !== undefined) patch.name = input.name;
      if (input.access !== undefined) patch.access = input.access;
      if (input.color !== undefined) patch.color = input.color;
      if (input.parent !== undefined) patch.parentId = input.parent;
      if (input.view_props !== undefined) patch.viewProps = input.view_props;
      if (input.logo_props !== undefined) patch.logoProps = input.logo_props;
      if (input.description_html !== undefined) {
        patch.descriptionHtml = input.description_html;
        patch.descriptionStripped = input.description_html === '' ? null : stripHtml(input.description_html);
      }
      await this.pages.update(em, id, patch);
      const labels = input.labels ?? input.label_ids;
      if (labels !== undefined)
        await this.pages.setLabels(
          em,
          page,
          await this.labels.liveLabelIdsInProject(scope.projectId, labels, em),
          scope.userId,
        );
      return (await this.pages.byId(em, id))!;
    });
    return this.detail(scope.userId, page);
  }

  /** Locks or unlocks the page (204); a project Admin or the page's creator (403). */
  async setLocked(scope: PageScope, id: string, locked: boolean): Promise<void> {
    await this.manage(scope, id, async (em, page) => {
      await this.pages.update(em, page.id, { isLocked: locked, updatedById: scope.userId });
    });
  }

  /**
   * Sets `access` (0 public, 1 private; 204); a project Admin or the page's creator (403), and a
   * change only by its owner (400 `PAGE_ACCESS_OWNER_ONLY`).
   */
  async setAccess(scope: PageScope, id: string, access: number): Promise<void> {
    await this.manage(scope, id, async (em, page) => {
      if (access !== page.access && page.ownedById !== scope.userId) throw new MeridianError('PAGE_ACCESS_OWNER_ONLY');
      await this.pages.update(em, page.id, { access, updatedById: scope.userId });
    });
  }

  /**
   * Archives the page and its sub-pages (Plane's `archive`): the owner or a project Admin (403).
   * Everyone's favourites of the page go. Answers `{archived_at}` as Plane (the time of archiving).
   */
  async archive(scope: PageScope, id: string): Promise<{ archived_at: string }> {
    await this.manage(scope, id, async (em, page) => {
      this.assertOwnerOrAdmin(scope, page, 'Only the owner or admin can archive the page.');
      await this.favorites.removeAllOf(em, 'page', page.id);
      await this.pages.setArchivedWithDescendants(em, page.id, today());
    });
    return { archived_at: new Date().toISOString() };
  }

  /**
   * Restores the page and its sub-pages (204): the owner or a project Admin (403). A page whose
   * parent is still archived becomes a top-level page (Plane's `unarchive`).
   */
  async unarchive(scope: PageScope, id: string): Promise<void> {
    await this.manage(scope, id, async (em, page) => {
      this.assertOwnerOrAdmin(scope, page, 'Only the owner or admin can restore the page.');
      if (page.parentId) {
        const parent = await this.pages.byId(em, page.parentId);
        if (!parent || parent.archivedAt !== null) await this.pages.update(em, page.id, { parentId: null });
      }
      await this.pages.setArchivedWithDescendants(em, page.id, null);
    });
  }

  /**
   * Deletes an archived page (204; 400 `PAGE_NOT_ARCHIVED` otherwise): the owner or a project Admin
   * (403). Its sub-pages become top-level pages; everyone's favourites of it go.
   */
  async remove(scope: PageScope, id: string): Promise<void> {
    await this.manage(scope, id, async (em, page) => {
      if (page.archivedAt === null) throw new MeridianError('PAGE_NOT_ARCHIVED');
      this.assertOwnerOrAdmin(scope, page, 'Only admin or owner can delete the page.');
      await this.pages.detachChildren(em, page.id);
      await this.pages.softDelete(em, page.id);
      await this.favorites.removeAllOf(em, 'page', page.id);
    });
  }

  /**
   * Copies a page the caller sees (201, Plane's `PageDuplicateEndpoint`): `"<name> (Copy)"`, owned
   * and created by the caller, in the same projects, with the description's HTML and JSON but no
   * binary document (the editor rebuilds it from the HTML), and Plane's other fields as they are
   * (`access`, `color`, `parent`, `is_locked`, `archived_at`, props); labels are not copied.
   */
  async duplicate(scope: PageScope, id: string): Promise<PageDetailJson> {
    const copy = await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const page = await this.pages.findVisible(em, await this.writableVisibility(em, scope), id);
      if (!page) throw new MeridianError('NOT_FOUND');
      const projectIds = (await this.pages.projectIds([page.id], em)).get(page.id) ?? [scope.projectId];
      const row = await this.pages.insert(em, {
        workspaceId: page.workspaceId,
        name: `${page.name} (Copy)`,
        description: page.description,
        descriptionBinary: null,
        descriptionHtml: page.descriptionHtml,
        descriptionStripped: page.descriptionStripped,
        ownedById: scope.userId,
        access: page.access,
        color: page.color,
        parentId: page.parentId,
        archivedAt: page.archivedAt,
        isLocked: page.isLocked,
        viewProps: page.viewProps,
        logoProps: page.logoProps,
        isGlobal: page.isGlobal,
        createdById: scope.userId,
        updatedById: scope.userId,
      });
      await this.pages.addToProjects(em, row, projectIds, scope.userId);
      return row;
    });
    return this.detail(scope.userId, copy);
  }

  /** The page's binary document (empty when it has none); 404 for a page the caller cannot see. */
  async description(scope: PageScope, id: string): Promise<Buffer> {
    const page = await this.load(scope, id);
    return page.descriptionBinary ? Buffer.from(page.descriptionBinary) : Buffer.alloc(0);
  }

  /**
   * Saves the page's description (Plane's `PagesDescriptionViewSet.partial_update`): the binary
   * document (base64, 422 if it is not), `description_html` and `description` (JSON). The page's
   * owner, or a project Admin or Member (403; the web app's `isContentEditable`); 400 `PAGE_LOCKED`,
   * `PAGE_ARCHIVED`, `PROJECT_ARCHIVED`. When the HTML changes, a version is stored (the page keeps
   * its 20 latest). Answers `{message}` as Plane.
   */
  async updateDescription(scope: PageScope, id: string, input: PageDescriptionInput): Promise<{ message: string }> {
    const binary = decodeBinary(input.description_binary);
    await this.saveDescription(scope, id, binary, input.description_html ?? '', input.description ?? {});
    return { message: 'Updated successfully' };
  }

  /**
   * Whether the caller may open the page in the live editor, and how: 404 `NOT_FOUND` for a page
   * the caller cannot see (as `GET …/pages/{id}/`; nothing while the project is archived);
   * `readOnly` when the page is locked or archived, the project is archived, or the caller may not
   * edit its description (not its owner, and below project Member): the rules of
   * `updateDescription`, so a live editor never holds changes the page would refuse.
   */
  async liveAccess(scope: PageScope, id: string): Promise<{ readOnly: boolean }> {
    const page = await this.load(scope, id);
    const mayEdit = page.ownedById === scope.userId || (scope.role ?? 0) >= ROLE.MEMBER;
    return { readOnly: !mayEdit || page.isLocked || page.archivedAt !== null };
  }

  /**
   * The page's editor document for the live editor (Plane's live server `fetchPageDescriptionBinary`):
   * its `description_binary`, or when it has none, one made from its `description_html`
   * (`documentFromHtml`). 404 for a page the caller cannot see.
   */
  async liveDocument(scope: PageScope, id: string): Promise<Uint8Array> {
    const page = await this.load(scope, id);
    if (page.descriptionBinary && page.descriptionBinary.byteLength > 0) return new Uint8Array(page.descriptionBinary);
    return documentFromHtml(page.descriptionHtml, page.id);
  }

  /**
   * Stores the live editor's document (Plane's live server `updatePageDescription`): the binary
   * and the HTML and JSON derived from it (`renderDocument`), by the rules and with the version
   * history of `updateDescription` (403, 404, 400 `PAGE_LOCKED`, `PAGE_ARCHIVED`, `PROJECT_ARCHIVED`).
   */
  async saveLiveDocument(scope: PageScope, id: string, binary: Uint8Array): Promise<void> {
    const { html, json } = renderDocument(binary);
    await this.saveDescription(scope, id, Buffer.from(binary), html, json);
  }

  /**
   * Calls `listener(pageId)` after a page's lock, access, archive or delete changed (committed, in
   * this process): who may open or edit it live may have changed. Returns the remover.
   */
  onManaged(listener: (pageId: string) => void): () => void {
    this.managedListeners.add(listener);
    return () => this.managedListeners.delete(listener);
  }

  private async saveDescription(
    scope: PageScope,
    id: string,
    binary: Buffer | null,
    html: string,
    description: unknown,
  ): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const page = await this.pages.findVisible(em, await this.writableVisibility(em, scope), id, true);
      if (!page) throw new MeridianError('NOT_FOUND');
      if (page.ownedById !== scope.userId && (scope.role ?? 0) < ROLE.MEMBER)
        throw new MeridianError(
          'PERMISSION_DENIED',
          'Only the owner, or a project Admin or Member, can edit the page.',
        );
      if (page.isLocked) throw new MeridianError('PAGE_LOCKED');
      if (page.archivedAt !== null) throw new MeridianError('PAGE_ARCHIVED');
      await this.pages.update(em, page.id, {
        descriptionBinary: binary,
        descriptionHtml: html,
        descriptionStripped: html === '' ? null : stripHtml(html),
        description,
        updatedById: scope.userId,
      });
      if (html !== page.descriptionHtml) {
        const saved = (await this.pages.byId(em, page.id))!;
        await this.pages.addVersion(em, {
          workspaceId: page.workspaceId,
          pageId: page.id,
          descriptionHtml: html,
          descriptionStripped: saved.descriptionStripped,
          descriptionBinary: binary,
          descriptionJson: description,
          ownedById: scope.userId,
          lastSavedAt: saved.updatedAt,
          createdById: scope.userId,
          updatedById: scope.userId,
        });
      }
    });
  }

  /** The versions of a page the caller sees, newest first (Plane's `PageVersionSerializer`). */
  async versions(scope: PageScope, pageId: string): Promise<PageVersionJson[]> {
    await this.load(scope, pageId);
    return (await this.pages.versions(pageId)).map(pageVersionView);
  }

  /** One version of a page the caller sees (Plane's `PageVersionDetailSerializer`); 404 otherwise. */
  async version(scope: PageScope, pageId: string, id: string): Promise<PageVersionDetailJson> {
    await this.load(scope, pageId);
    const version = await this.pages.version(pageId, id);
    if (!version) throw new MeridianError('NOT_FOUND');
    return pageVersionDetailView(version);
  }

  /** Adds a page of this project the caller sees (not archived) to their favourites; a no-op when it is one; else 404. */
  async favorite(scope: PageScope, id: string): Promise<void> {
    await this.favorites.createInProject(scope.workspaceId, scope.userId, scope.projectId, 'page', id);
  }

  /** Removes the page from the caller's favourites; 404 if it is not one. */
  async unfavorite(scope: PageScope, id: string): Promise<void> {
    await this.favorites.removeEntity(scope.workspaceId, scope.userId, 'page', id, scope.projectId);
  }

  /**
   * Lock, unlock, access, archive, unarchive, delete: Plane's `allow_permission([ADMIN],
   * creator=True)` (a project Admin or the page's creator, 403), on a page the caller sees (404),
   * in a project that is not archived (400), with the page's row locked.
   */
  private async manage(scope: PageScope, id: string, work: (em: EntityManager, page: Page) => Promise<void>) {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, scope.projectId);
      const page = await this.pages.findVisible(em, await this.writableVisibility(em, scope), id, true);
      if (!page) throw new MeridianError('NOT_FOUND');
      if (scope.role !== ROLE.ADMIN && page.createdById !== scope.userId) throw new MeridianError('PERMISSION_DENIED');
      await work(em, page);
    });
    for (const listener of this.managedListeners) listener(id);
  }

  private assertOwnerOrAdmin(scope: PageScope, page: Page, detail: string): void {
    if (scope.role !== ROLE.ADMIN && page.ownedById !== scope.userId)
      throw new MeridianError('PERMISSION_DENIED', detail);
  }

  /** A page of the project the caller sees, to be a parent: 404 otherwise. */
  private async parentPage(em: EntityManager, visibility: PageVisibility, id: string): Promise<void> {
    if (!(await this.pages.findVisible(em, visibility, id)))
      throw new MeridianError('NOT_FOUND', 'No page with that parent id.');
  }

  /** Which pages the caller sees; null while the project is archived (nothing). */
  private async visibility(scope: PageScope, em: EntityManager = this.pages.manager): Promise<PageVisibility | null> {
    const project = await this.projects.findLive(scope.projectId, em);
    if (!project) throw new MeridianError('PROJECT_NOT_FOUND');
    if (project.archivedAt !== null) return null;
    return {
      workspaceId: scope.workspaceId,
      projectId: scope.projectId,
      userId: scope.userId,
      ownOnly: scope.role === ROLE.GUEST && !project.guestViewAllFeatures,
    };
  }

  /** The visibility inside a write (the project was checked writable first). */
  private async writableVisibility(em: EntityManager, scope: PageScope): Promise<PageVisibility> {
    const visibility = await this.visibility(scope, em);
    if (!visibility) throw new MeridianError('PROJECT_ARCHIVED');
    return visibility;
  }

  private async load(scope: PageScope, id: string): Promise<Page> {
    const visibility = await this.visibility(scope);
    const page = visibility && (await this.pages.findVisible(this.pages.manager, visibility, id));
    if (!page) throw new MeridianError('NOT_FOUND');
    return page;
  }

  private async detail(userId: string, page: Page): Promise<PageDetailJson> {
    const [{ extras }] = await this.render(userId, [page]);
    return pageDetailView(page, extras);
  }

  /**
   * Each page with the caller's favourite, its live labels and its projects (four statements per
   * batch: the label links, then which of their labels are live, through the label room's door).
   */
  private async render(userId: string, rows: Page[]) {
    const ids = rows.map((r) => r.id);
    const [favorite, labels, projects] = await Promise.all([
      this.favorites.favoriteIds(userId, 'page', ids),
      this.liveLabelIds(ids),
      this.pages.projectIds(ids),
    ]);
    return rows.map((page) => ({
      page,
      extras: {
        isFavorite: favorite.has(page.id),
        labelIds: labels.get(page.id) ?? [],
        projectIds: projects.get(page.id) ?? [],
      },
    }));
  }

  /** The live label ids of each page (sorted): its label links, less the labels deleted since. */
  private async liveLabelIds(pageIds: string[]): Promise<Map<string, string[]>> {
    const links = await this.pages.labelIds(pageIds);
    const live = await this.labels.liveLabelIds([...links.values()].flat());
    return new Map([...links].map(([pageId, labelIds]) => [pageId, labelIds.filter((id) => live.has(id))]));
  }
}

/**
 * The editor's document from base64 (null when absent); 422 `description_binary` when it is not
 * base64. (The DTOs check it too; this keeps the domain safe for any caller.)
 */
function decodeBinary(value: string | null | undefined): Buffer | null {
  if (value === undefined || value === null || value === '') return null;
  const compact = value.replace(/\s+/g, '');
  if (compact.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(compact))
    throw validationError({ description_binary: ['This field must be base64.'] });
  return Buffer.from(compact, 'base64');
}
