import {
  BearerAuth,
  CurrentPrincipal,
  CurrentWorkspace,
  PageQuery,
  PageRequest,
  PagingPolicy,
  Principal,
  singleParam,
  UuidPipe,
  WorkspaceAccess,
} from '#common';
import { StickyService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query } from '@nestjs/common';
import { StickyDto } from '../shared/dto/sticky.dto';

/** Stickies page by 20 by default, as in Plane, up to 1000. */
const STICKY_PAGING: PagingPolicy = { defaultPerPage: 20, maxPerPage: 1000 };

/**
 * The caller's own stickies in a workspace on the App API (Plane 0.25.3 `app/urls/sticky.py`),
 * through the same `StickyService` as v1: any workspace member; someone else's sticky is a 404.
 */
@Controller('workspaces/:slug/stickies')
@BearerAuth()
export class AppStickiesController {
  constructor(private readonly stickies: StickyService) {}

  /** Newest first, paginated; `?search=` matches name or text. */
  @Get()
  list(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @PageQuery(STICKY_PAGING) page: PageRequest,
    @Query('search') search?: unknown,
  ) {
    return this.stickies.list(ws.workspaceId, me.userId, page, singleParam({ search }, 'search') || undefined);
  }

  @Post()
  create(@CurrentPrincipal() me: Principal, @CurrentWorkspace() ws: WorkspaceAccess, @Body() body: StickyDto) {
    return this.stickies.create(ws.workspaceId, me.userId, body);
  }

  @Get(':sticky_id')
  retrieve(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('sticky_id', UuidPipe) id: string,
  ) {
    return this.stickies.retrieve(ws.workspaceId, me.userId, id);
  }

  @Patch(':sticky_id')
  update(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('sticky_id', UuidPipe) id: string,
    @Body() body: StickyDto,
  ) {
    return this.stickies.update(ws.workspaceId, me.userId, id, body);
  }

  @Delete(':sticky_id')
  @HttpCode(204)
  async remove(
    @CurrentPrincipal() me: Principal,
    @CurrentWorkspace() ws: WorkspaceAccess,
    @Param('sticky_id', UuidPipe) id: string,
  ) {
    await this.stickies.remove(ws.workspaceId, me.userId, id);
  }
}
