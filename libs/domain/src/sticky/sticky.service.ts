import { MeridianError, Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { stripHtml } from '../issue';
import { iso } from '../kernel/time';
import { Sticky } from './sticky.entity';

export interface StickyInput {
  name?: string | null;
  description?: Record<string, unknown>;
  description_html?: string;
  logo_props?: Record<string, unknown>;
  color?: string | null;
  background_color?: string | null;
  sort_order?: number;
}

/** Plane CE's sticky JSON (the SDK's `Sticky`); `description_binary` is not kept (always null). */
export function stickyView(s: Sticky) {
  return {
    id: s.id,
    name: s.name,
    description: s.description,
    description_html: s.descriptionHtml,
    description_stripped: s.descriptionStripped,
    description_binary: null,
    logo_props: s.logoProps,
    color: s.color,
    background_color: s.backgroundColor,
    workspace: s.workspaceId,
    owner: s.ownerId,
    sort_order: s.sortOrder,
    created_at: iso(s.createdAt),
    updated_at: iso(s.updatedAt),
    deleted_at: iso(s.deletedAt),
    created_by: s.createdById,
    updated_by: s.updatedById,
  };
}
export type StickyJson = ReturnType<typeof stickyView>;

/**
 * The caller's own stickies in a workspace (Plane CE's `/api/v1/workspaces/{slug}/stickies/`).
 * Another user's sticky is a 404 `NOT_FOUND`, whatever the caller's role.
 */
@Injectable()
export class StickyService {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** Newest first; paginated (default page 20); `search` matches the name or text, case-insensitively. */
  async list(workspaceId: string, userId: string, page: PageRequest, search?: string): Promise<Page<StickyJson>> {
    const qb = this.dataSource.getRepository(Sticky).createQueryBuilder('s')
      .where('s.workspaceId = :workspaceId AND s.ownerId = :userId', { workspaceId, userId });
    if (search) {
      const like = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      qb.andWhere(`(s.name ILIKE :like ESCAPE '\\' OR s.descriptionStripped ILIKE :like ESCAPE '\\')`, { like });
    }
    return (await paginate(qb, page, { order: 'DESC' })).map(stickyView);
  }

  async retrieve(workspaceId: string, userId: string, id: string): Promise<StickyJson> {
    return stickyView(await this.sticky(workspaceId, userId, id));
  }

  /** 201; every field optional; `sort_order` defaults to the owner's largest + 10000. */
  async create(workspaceId: string, userId: string, input: StickyInput): Promise<StickyJson> {
    return this.dataSource.transaction(async (em) => {
      let sortOrder = input.sort_order;
      if (sortOrder === undefined) {
        const row = await em.getRepository(Sticky).createQueryBuilder('s').select('MAX(s.sortOrder)', 'max')
          .where('s.workspaceId = :workspaceId AND s.ownerId = :userId', { workspaceId, userId }).getRawOne<{ max: number | null }>();
        sortOrder = row?.max === null || row?.max === undefined ? 65535 : Number(row.max) + 10000;
      }
      const html = input.description_html || '<p></p>';
      const s = await em.save(em.create(Sticky, {
        workspaceId, ownerId: userId, name: input.name ?? null, description: input.description ?? {},
        descriptionHtml: html, descriptionStripped: stripHtml(html), logoProps: input.logo_props ?? {},
        color: input.color ?? null, backgroundColor: input.background_color ?? null, sortOrder,
        createdById: userId, updatedById: userId,
      }));
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
    await this.dataSource.getRepository(Sticky).update({ id: s.id }, patch as never);
    return this.retrieve(workspaceId, userId, id);
  }

  /** 204; soft delete. */
  async remove(workspaceId: string, userId: string, id: string): Promise<void> {
    const s = await this.sticky(workspaceId, userId, id);
    await this.dataSource.getRepository(Sticky).update({ id: s.id }, { deletedAt: new Date(), updatedById: userId });
  }

  private async sticky(workspaceId: string, userId: string, id: string): Promise<Sticky> {
    const s = await this.dataSource.getRepository(Sticky).findOne({ where: { id, workspaceId, ownerId: userId } });
    if (!s) throw new MeridianError('NOT_FOUND');
    return s;
  }
}
