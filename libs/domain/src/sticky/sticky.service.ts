import { MeridianError, Page, PageRequest } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { stripHtml } from '../issue';
import { Sticky } from './sticky.entity';
import { StickyRepository } from './sticky.repository';
import { StickyJson, stickyView } from './sticky.view';

export interface StickyInput {
  name?: string | null;
  description?: Record<string, unknown>;
  description_html?: string;
  logo_props?: Record<string, unknown>;
  color?: string | null;
  background_color?: string | null;
  sort_order?: number;
}

/**
 * The caller's own stickies in a workspace (Plane CE's `/api/v1/workspaces/{slug}/stickies/`).
 * Another user's sticky is a 404 `NOT_FOUND`, whatever the caller's role.
 */
@Injectable()
export class StickyService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly stickies: StickyRepository,
  ) {}

  /** Newest first; paginated (default page 20); `search` matches the name or text, case-insensitively. */
  async list(workspaceId: string, userId: string, page: PageRequest, search?: string): Promise<Page<StickyJson>> {
    return (await this.stickies.listPage(workspaceId, userId, page, search)).map(stickyView);
  }

  async retrieve(workspaceId: string, userId: string, id: string): Promise<StickyJson> {
    return stickyView(await this.sticky(workspaceId, userId, id));
  }

  /** 201; every field optional; `sort_order` defaults to the owner's largest + 10000. */
  async create(workspaceId: string, userId: string, input: StickyInput): Promise<StickyJson> {
    return this.dataSource.transaction(async (em) => {
      let sortOrder = input.sort_order;
      if (sortOrder === undefined) {
        const max = await this.stickies.highestSortOrder(em, workspaceId, userId);
        sortOrder = max === null ? 65535 : max + 10000;
      }
      const html = input.description_html || '<p></p>';
      const s = await this.stickies.insert(
        em,
        em.create(Sticky, {
          workspaceId,
          ownerId: userId,
          name: input.name ?? null,
          description: input.description ?? {},
          descriptionHtml: html,
          descriptionStripped: stripHtml(html),
          logoProps: input.logo_props ?? {},
          color: input.color ?? null,
          backgroundColor: input.background_color ?? null,
          sortOrder,
          createdById: userId,
          updatedById: userId,
        }),
      );
      return stickyView(s);
    });
  }

  async update(workspaceId: string, userId: string, id: string, input: StickyInput): Promise<StickyJson> {
    const s = await this.sticky(workspaceId, userId, id);
    const patch: Partial<Sticky> = { updatedById: userId };
    if (input.name !== undefined) patch.name = input.name;
    if (input.description !== undefined) patch.description = input.description;
    if (input.description_html !== undefined) {
      patch.descriptionHtml = input.description_html || '<p></p>';
      patch.descriptionStripped = stripHtml(patch.descriptionHtml);
    }
    if (input.logo_props !== undefined) patch.logoProps = input.logo_props;
    if (input.color !== undefined) patch.color = input.color;
    if (input.background_color !== undefined) patch.backgroundColor = input.background_color;
    if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
    await this.stickies.update(s.id, patch);
    return this.retrieve(workspaceId, userId, id);
  }

  /** 204; soft delete. */
  async remove(workspaceId: string, userId: string, id: string): Promise<void> {
    const s = await this.sticky(workspaceId, userId, id);
    await this.stickies.update(s.id, { deletedAt: new Date(), updatedById: userId });
  }

  private async sticky(workspaceId: string, userId: string, id: string): Promise<Sticky> {
    const s = await this.stickies.findOwn(workspaceId, userId, id);
    if (!s) throw new MeridianError('NOT_FOUND');
    return s;
  }
}
