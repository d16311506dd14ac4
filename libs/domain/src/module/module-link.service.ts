import { MeridianError, Page, PageRequest } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import type { ChangeContext } from '../kernel/change-context';
import { isUniqueViolation } from '../kernel/db-errors';
import { assertProjectWritable } from '../kernel/project-writable';
import { ModuleLink } from './module-link.entity';
import type { PlanningRepository } from '../cycle';
import type { Module } from './module.entity';
import type { ModuleIssue } from './module-issue.entity';
import { MODULE_PLANNING, ModuleRepository } from './module.repository';
import { ModuleLinkJson, moduleLinkView } from './module-link.view';

/** What a module link create or update may carry. */
export interface ModuleLinkInput {
  url?: string;
  title?: string | null;
  metadata?: Record<string, unknown>;
}

/**
 * Links of a module (Plane `plane/app/views/module/base.py` `ModuleLinkViewSet`,
 * `ModuleLinkSerializer`): the module is looked up inside the project (a foreign or deleted one is
 * 404 `NOT_FOUND`); a URL is on a module at most once among live links (409 `LINK_URL_TAKEN`;
 * Plane: 400). Deletes are soft, as in Plane.
 */
@Injectable()
export class ModuleLinkService {
  constructor(
    private readonly modules: ModuleRepository,
    @Inject(MODULE_PLANNING) private readonly planning: PlanningRepository<Module, ModuleIssue>,
    @InjectDataSource() private readonly dataSource: DataSource,
  ) {}

  /** The module's links, newest first (cursor envelope). */
  async list(projectId: string, moduleId: string, page: PageRequest): Promise<Page<ModuleLinkJson>> {
    await this.module(this.modules.manager, projectId, moduleId);
    return (await this.modules.linksPage(moduleId, page)).map(moduleLinkView);
  }

  async retrieve(projectId: string, moduleId: string, linkId: string): Promise<ModuleLinkJson> {
    return moduleLinkView(await this.link(this.modules.manager, projectId, moduleId, linkId));
  }

  /** 201 with the link; 409 `LINK_URL_TAKEN` for a URL already on the module. */
  async create(
    ctx: ChangeContext,
    moduleId: string,
    input: ModuleLinkInput & { url: string },
  ): Promise<ModuleLinkJson> {
    return this.guard(() =>
      this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        await this.module(em, ctx.projectId, moduleId);
        await this.assertUrlFree(em, moduleId, input.url);
        const link = await this.modules.saveUrlLink(
          em,
          em.create(ModuleLink, {
            workspaceId: ctx.workspaceId,
            projectId: ctx.projectId,
            moduleId,
            url: input.url,
            title: input.title ?? null,
            metadata: input.metadata ?? {},
            createdById: ctx.userId,
            updatedById: ctx.userId,
          }),
        );
        return moduleLinkView(link);
      }),
    );
  }

  /** 200 with the link; the fields given change. */
  async update(ctx: ChangeContext, moduleId: string, linkId: string, input: ModuleLinkInput): Promise<ModuleLinkJson> {
    return this.guard(() =>
      this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, ctx.projectId);
        const link = await this.link(em, ctx.projectId, moduleId, linkId);
        if (input.url !== undefined && input.url !== link.url)
          await this.assertUrlFree(em, moduleId, input.url, linkId);
        if (input.url !== undefined) link.url = input.url;
        if (input.title !== undefined) link.title = input.title;
        if (input.metadata !== undefined) link.metadata = input.metadata;
        link.updatedById = ctx.userId;
        return moduleLinkView(await this.modules.saveUrlLink(em, link));
      }),
    );
  }

  /** 204; the link is soft-deleted. */
  async remove(ctx: ChangeContext, moduleId: string, linkId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, ctx.projectId);
      const link = await this.link(em, ctx.projectId, moduleId, linkId);
      await this.modules.deleteUrlLink(em, link.id, ctx.userId);
    });
  }

  private async module(em: EntityManager, projectId: string, moduleId: string): Promise<void> {
    if (!(await this.planning.findInProject(em, projectId, moduleId))) throw new MeridianError('NOT_FOUND');
  }

  private async link(em: EntityManager, projectId: string, moduleId: string, linkId: string): Promise<ModuleLink> {
    await this.module(em, projectId, moduleId);
    const link = await this.modules.findUrlLink(em, moduleId, linkId);
    if (!link) throw new MeridianError('NOT_FOUND');
    return link;
  }

  private async assertUrlFree(em: EntityManager, moduleId: string, url: string, exceptId?: string): Promise<void> {
    const holder = await this.modules.liveLinkWithUrl(em, moduleId, url);
    if (holder && holder.id !== exceptId)
      throw new MeridianError('LINK_URL_TAKEN', 'URL already exists for this module.', { id: holder.id });
  }

  /** Two creates of the same URL at once: the unique index answers for the second. */
  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err)) throw new MeridianError('LINK_URL_TAKEN', 'URL already exists for this module.');
      throw err;
    }
  }
}
