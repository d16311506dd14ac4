import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { isUniqueViolation } from '../kernel/db-errors';
import { iso } from '../kernel/time';
import { PreferenceRepository } from './preference.repository';
import { WorkspaceTheme } from './workspace-theme.entity';

/** Plane's `WorkspaceThemeSerializer` (`fields = "__all__"`). */
export function workspaceThemeView(t: WorkspaceTheme) {
  return {
    id: t.id,
    created_at: iso(t.createdAt),
    updated_at: iso(t.updatedAt),
    deleted_at: iso(t.deletedAt),
    name: t.name,
    colors: t.colors,
    created_by: t.createdById,
    updated_by: t.updatedById,
    workspace: t.workspaceId,
    actor: t.actorId,
  };
}
export type WorkspaceThemeJson = ReturnType<typeof workspaceThemeView>;

/** The writable fields of a theme. */
export interface WorkspaceThemeInput {
  name?: string;
  colors?: Record<string, unknown>;
}

/**
 * A workspace's saved colour themes (Plane 0.25.3 `plane/app/views/workspace/base.py`
 * WorkspaceThemeViewSet): any Admin or Member lists, creates, changes and deletes them; the author
 * is `actor`. A name is unique among the workspace's live themes (409 `THEME_NAME_TAKEN`).
 */
@Injectable()
export class WorkspaceThemeService {
  constructor(private readonly preferences: PreferenceRepository) {}

  /** The workspace's live themes, newest first (Plane's default order), a bare array. */
  async list(workspaceId: string): Promise<WorkspaceThemeJson[]> {
    const rows = await this.preferences.themes(workspaceId);
    return rows.map(workspaceThemeView);
  }

  async create(workspaceId: string, actorId: string, input: WorkspaceThemeInput & { name: string }) {
    return this.guard(async () => {
      const row = await this.preferences.insertTheme({
        workspaceId,
        actorId,
        name: input.name,
        colors: input.colors ?? {},
        createdById: actorId,
        updatedById: actorId,
      });
      return workspaceThemeView(row);
    });
  }

  async get(workspaceId: string, id: string): Promise<WorkspaceThemeJson> {
    return workspaceThemeView(await this.find(workspaceId, id));
  }

  async update(workspaceId: string, actorId: string, id: string, input: WorkspaceThemeInput) {
    const row = await this.find(workspaceId, id);
    return this.guard(async () => {
      row.updatedById = actorId;
      if (input.name !== undefined) row.name = input.name;
      if (input.colors !== undefined) row.colors = input.colors;
      return workspaceThemeView(await this.preferences.saveTheme(row));
    });
  }

  async remove(workspaceId: string, id: string): Promise<void> {
    const row = await this.find(workspaceId, id);
    await this.preferences.softDeleteTheme(row.id);
  }

  private async find(workspaceId: string, id: string): Promise<WorkspaceTheme> {
    const row = await this.preferences.theme(workspaceId, id);
    if (!row) throw new MeridianError('NOT_FOUND');
    return row;
  }

  private async guard<T>(fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err, 'uq_workspace_themes_name_live')) throw new MeridianError('THEME_NAME_TAKEN');
      throw err;
    }
  }
}
