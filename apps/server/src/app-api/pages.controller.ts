import {
  BearerAuth,
  CurrentPrincipal,
  CurrentProject,
  CurrentWorkspace,
  Principal,
  ProjectAccess,
  ProjectRole,
  ROLE,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { PageScope, PageService } from '#domain';
import { Body, Controller, Delete, Get, Header, HttpCode, Param, Patch, Post, StreamableFile } from '@nestjs/common';
import { CreatePageDto, PageAccessDto, PageDescriptionDto, UpdatePageDto } from './dto/page.dto';

const scope = (me: Principal, ws: WorkspaceAccess, project: ProjectAccess): PageScope => ({
  workspaceId: ws.workspaceId,
  projectId: project.projectId,
  userId: me.userId,
  role: project.role,
});

/**
 * A project's pages (Plane 0.25.3 `app/urls/page.py`: `PageViewSet`, `PageFavoriteViewSet`,
 * `PagesDescriptionViewSet`, `PageVersionEndpoint`, `PageDuplicateEndpoint`), each as Plane's
 * `PageSerializer` (lists) or `PageDetailSerializer` (one page). A caller sees the public pages and
 * their own private ones; a Guest only their own unless the project has `guest_view_all_features`;
 * a page the caller cannot see is a 404. Project Admins and Members create, edit, duplicate and
 * favourite pages; lock, access, archive and delete are for a project Admin or the page's creator
 * (see `PageService`). Plane's `transactions/` and `sub-pages/` routes are not built
 * (docs/decisions.md, "Pages").
 */
@Controller('workspaces/:slug/projects/:project_id')
@BearerAuth()
export class AppPagesController {
  constructor(private readonly pages: PageService) {}

  /** The top-level pages the caller sees (archived ones too, with `archived_at`), favourites first then newest; a bare array. */
  @Get('pages')
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
  ) {
    return this.pages.list(scope(me, ws, project));
  }

  /** 201 with the page (`description_html` too), owned by the caller; 404 for a `parent` the caller cannot see; 400 `PROJECT_ARCHIVED`; 422. */
  @Post('pages')
  @ProjectRole(ROLE.MEMBER)
  create(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Body() body: CreatePageDto,
  ) {
    return this.pages.create(scope(me, ws, project), body);
  }

  /** The page with `description_html` and `issue_ids`. */
  @Get('pages/:page_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    return this.pages.retrieve(scope(me, ws, project), id);
  }

  /** 200 with the page; 400 `PAGE_LOCKED`, `PAGE_ACCESS_OWNER_ONLY` (changing `access` of another's page); 422. */
  @Patch('pages/:page_id')
  @ProjectRole(ROLE.MEMBER)
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
    @Body() body: UpdatePageDto,
  ) {
    return this.pages.update(scope(me, ws, project), id, body);
  }

  /** 204; an archived page only (400 `PAGE_NOT_ARCHIVED`); its owner or a project Admin (403). */
  @Delete('pages/:page_id')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    await this.pages.remove(scope(me, ws, project), id);
  }

  /** 200 `{archived_at}`; the page and its sub-pages; its owner or a project Admin (403). */
  @Post('pages/:page_id/archive')
  @HttpCode(200)
  @ProjectRole(ROLE.GUEST)
  archive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    return this.pages.archive(scope(me, ws, project), id);
  }

  /** 204; restores the page and its sub-pages; its owner or a project Admin (403). */
  @Delete('pages/:page_id/archive')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async unarchive(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    await this.pages.unarchive(scope(me, ws, project), id);
  }

  /** 204; a project Admin or the page's creator (403). */
  @Post('pages/:page_id/lock')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async lock(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    await this.pages.setLocked(scope(me, ws, project), id, true);
  }

  /** 204; a project Admin or the page's creator (403). */
  @Delete('pages/:page_id/lock')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async unlock(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    await this.pages.setLocked(scope(me, ws, project), id, false);
  }

  /** 204; `{access}` 0 (public, the default) or 1 (private); a project Admin or the creator (403); a change by the owner only (400 `PAGE_ACCESS_OWNER_ONLY`). */
  @Post('pages/:page_id/access')
  @HttpCode(204)
  @ProjectRole(ROLE.GUEST)
  async access(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
    @Body() body: PageAccessDto,
  ) {
    await this.pages.setAccess(scope(me, ws, project), id, body.access ?? 0);
  }

  /** 201 with the copy, `"<name> (Copy)"`, owned by the caller. */
  @Post('pages/:page_id/duplicate')
  @ProjectRole(ROLE.MEMBER)
  duplicate(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    return this.pages.duplicate(scope(me, ws, project), id);
  }

  /** The page's binary (Yjs) document, `application/octet-stream` (empty when it has none). */
  @Get('pages/:page_id/description')
  @Header('Content-Disposition', 'attachment; filename="page_description.bin"')
  async description(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    const bytes = await this.pages.description(scope(me, ws, project), id);
    return new StreamableFile(bytes, { type: 'application/octet-stream', length: bytes.length });
  }

  /**
   * 200 `{message}`; saves `description_binary` (base64, required), `description_html` and
   * `description`; the owner, or a project Admin or Member (403); 400 `PAGE_LOCKED`,
   * `PAGE_ARCHIVED`; 422. A changed HTML stores a version.
   */
  @Patch('pages/:page_id/description')
  @ProjectRole(ROLE.GUEST)
  updateDescription(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
    @Body() body: PageDescriptionDto,
  ) {
    return this.pages.updateDescription(scope(me, ws, project), id, body);
  }

  /** The page's versions (without descriptions), newest first; a bare array. */
  @Get('pages/:page_id/versions')
  versions(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) pageId: string,
  ) {
    return this.pages.versions(scope(me, ws, project), pageId);
  }

  /** One version with `description_binary` (base64), `description_html`, `description_json`. */
  @Get('pages/:page_id/versions/:version_id')
  version(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) pageId: string,
    @Param('version_id', UuidPipe) id: string,
  ) {
    return this.pages.version(scope(me, ws, project), pageId, id);
  }

  /** 204; a page of this project the caller sees and not archived, else 404; twice is a no-op. */
  @Post('favorite-pages/:page_id')
  @HttpCode(204)
  @ProjectRole(ROLE.MEMBER)
  async addFavorite(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    await this.pages.favorite(scope(me, ws, project), id);
  }

  /** 204; 404 if the page is not among the caller's favourites. */
  @Delete('favorite-pages/:page_id')
  @HttpCode(204)
  @ProjectRole(ROLE.MEMBER)
  async removeFavorite(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @CurrentProject() project: ProjectAccess,
    @Param('page_id', UuidPipe) id: string,
  ) {
    await this.pages.unfavorite(scope(me, ws, project), id);
  }
}
