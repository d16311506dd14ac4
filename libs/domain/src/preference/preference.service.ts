import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { FindOptionsWhere } from 'typeorm';
import { CycleService } from '../cycle';
import { ModuleService } from '../module';
import { found } from '../kernel/db-errors';
import { CycleUserProperties } from './cycle-user-properties.entity';
import { defaultDisplayFilters, defaultDisplayProperties, defaultFilters } from '../kernel/display-defaults';
import { DisplayPropertiesBase } from './display-properties.base';
import { IssueUserProperty } from './issue-user-property.entity';
import { ModuleUserProperties } from './module-user-properties.entity';
import { PreferenceRepository } from './preference.repository';
import {
  DisplayPropertiesJson,
  displayPropertiesView,
  HomePreferenceJson,
  homePreferenceUpdatedView,
  homePreferenceView,
  sidebarPreferenceView,
  SidebarPreferenceJson,
} from './preference.view';
import { HOME_WIDGET_KEYS, WorkspaceHomePreference } from './workspace-home-preference.entity';
import { SIDEBAR_KEYS, WorkspaceUserPreference } from './workspace-user-preference.entity';
import { WorkspaceUserProperties } from './workspace-user-properties.entity';

export interface HomePreferenceInput {
  is_enabled?: boolean;
  sort_order?: number;
  config?: Record<string, unknown>;
}

export interface SidebarPreferenceInput {
  is_pinned?: boolean;
  sort_order?: number;
}

export interface DisplayPropertiesInput {
  filters?: Record<string, unknown>;
  display_filters?: Record<string, unknown>;
  display_properties?: Record<string, unknown>;
}

/** Which list a user's display settings are for. */
export type DisplayScope =
  | { kind: 'workspace'; workspaceId: string }
  | { kind: 'project'; workspaceId: string; projectId: string }
  | { kind: 'cycle'; workspaceId: string; projectId: string; cycleId: string }
  | { kind: 'module'; workspaceId: string; projectId: string; moduleId: string };

type DisplayTarget =
  typeof WorkspaceUserProperties | typeof IssueUserProperty | typeof CycleUserProperties | typeof ModuleUserProperties;

/**
 * A user's own settings in a workspace (Plane 0.25.3 `plane/app/views/workspace/home.py`,
 * `user_preference.py`, `user.py` WorkspaceUserPropertiesEndpoint, `issue/base.py`
 * IssueUserDisplayPropertyEndpoint, `cycle/base.py` CycleUserPropertiesEndpoint, `module/base.py`
 * ModuleUserPropertiesEndpoint): home widgets, sidebar pins and the work item lists' filters and
 * display settings. Every row is created with Plane's defaults on first read (or first write).
 */
@Injectable()
export class PreferenceService {
  constructor(
    private readonly repo: PreferenceRepository,
    private readonly cycles: CycleService,
    private readonly modules: ModuleService,
  ) {}

  /** The home widgets `quick_links` (999), `recents` (998), `my_stickies` (997), highest `sort_order` first. */
  async homePreferences(workspaceId: string, userId: string): Promise<HomePreferenceJson[]> {
    return (await this.ensureHome(workspaceId, userId)).map(homePreferenceView);
  }

  /** Turns a widget on or off or moves it; 404 `NOT_FOUND` for a key that is not a widget. */
  async updateHomePreference(workspaceId: string, userId: string, key: string, input: HomePreferenceInput) {
    const row = (await this.ensureHome(workspaceId, userId)).find((p) => p.key === key);
    if (!row) throw new MeridianError('NOT_FOUND', 'Preference not found.');
    const patch: Partial<WorkspaceHomePreference> = { updatedById: userId };
    if (input.is_enabled !== undefined) patch.isEnabled = input.is_enabled;
    if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
    if (input.config !== undefined) patch.config = input.config;
    await this.repo.update(WorkspaceHomePreference, row.id, patch);
    return homePreferenceUpdatedView(await found(this.repo.findOne(WorkspaceHomePreference, { id: row.id })));
  }

  /** `{<key>: {is_pinned, sort_order}}` for `views`, `active_cycles`, `analytics`, `drafts`, `your_work`, `archives`. */
  async sidebarPreferences(
    workspaceId: string,
    userId: string,
  ): Promise<Record<string, Omit<SidebarPreferenceJson, 'key'>>> {
    const out: Record<string, Omit<SidebarPreferenceJson, 'key'>> = {};
    for (const p of await this.ensureSidebar(workspaceId, userId)) {
      out[p.key] = { is_pinned: p.isPinned, sort_order: p.sortOrder };
    }
    return out;
  }

  /** Pins, unpins or moves a sidebar entry; 404 `NOT_FOUND` for a key that is not one. */
  async updateSidebarPreference(
    workspaceId: string,
    userId: string,
    key: string,
    input: SidebarPreferenceInput,
  ): Promise<SidebarPreferenceJson> {
    const row = (await this.ensureSidebar(workspaceId, userId)).find((p) => p.key === key);
    if (!row) throw new MeridianError('NOT_FOUND', 'Preference not found.');
    const patch: Partial<WorkspaceUserPreference> = { updatedById: userId };
    if (input.is_pinned !== undefined) patch.isPinned = input.is_pinned;
    if (input.sort_order !== undefined) patch.sortOrder = input.sort_order;
    await this.repo.update(WorkspaceUserPreference, row.id, patch);
    return sidebarPreferenceView(await found(this.repo.findOne(WorkspaceUserPreference, { id: row.id })));
  }

  /**
   * The user's filters, display filters and display properties for the list (created with Plane's
   * defaults on first read). A cycle or module that is not the project's is a 404 `NOT_FOUND`.
   */
  async displayProperties(scope: DisplayScope, userId: string): Promise<DisplayPropertiesJson> {
    return displayPropertiesView(await this.ensureDisplay(scope, userId));
  }

  /** Replaces the given objects whole (Plane's PATCH); the others stay. */
  async updateDisplayProperties(
    scope: DisplayScope,
    userId: string,
    input: DisplayPropertiesInput,
  ): Promise<DisplayPropertiesJson> {
    const row = await this.ensureDisplay(scope, userId);
    const patch: Partial<DisplayPropertiesBase> = { updatedById: userId };
    if (input.filters !== undefined) patch.filters = input.filters;
    if (input.display_filters !== undefined) patch.displayFilters = input.display_filters;
    if (input.display_properties !== undefined) patch.displayProperties = input.display_properties;
    const target = this.displayTarget(scope);
    await this.repo.update<DisplayPropertiesBase>(target, row.id, patch);
    return displayPropertiesView(await found(this.repo.findOne<DisplayPropertiesBase>(target, { id: row.id })));
  }

  private async ensureHome(workspaceId: string, userId: string): Promise<WorkspaceHomePreference[]> {
    let rows = await this.repo.homePreferences(workspaceId, userId);
    const missing = HOME_WIDGET_KEYS.filter((key) => !rows.some((r) => r.key === key));
    if (missing.length > 0) {
      await this.repo.insertMissing(
        WorkspaceHomePreference,
        missing.map((key) => ({
          workspaceId,
          userId,
          key,
          sortOrder: 999 - HOME_WIDGET_KEYS.indexOf(key),
          createdById: userId,
          updatedById: userId,
        })),
      );
      rows = await this.repo.homePreferences(workspaceId, userId);
    }
    return rows;
  }

  private async ensureSidebar(workspaceId: string, userId: string): Promise<WorkspaceUserPreference[]> {
    let rows = await this.repo.sidebarPreferences(workspaceId, userId);
    const missing = SIDEBAR_KEYS.filter((key) => !rows.some((r) => r.key === key));
    if (missing.length > 0) {
      await this.repo.insertMissing(
        WorkspaceUserPreference,
        missing.map((key) => ({
          workspaceId,
          userId,
          key,
          sortOrder: 65535 + SIDEBAR_KEYS.indexOf(key) * 10000,
          createdById: userId,
          updatedById: userId,
        })),
      );
      rows = await this.repo.sidebarPreferences(workspaceId, userId);
    }
    return rows;
  }

  private displayTarget(scope: DisplayScope): DisplayTarget {
    return {
      workspace: WorkspaceUserProperties,
      project: IssueUserProperty,
      cycle: CycleUserProperties,
      module: ModuleUserProperties,
    }[scope.kind];
  }

  private async ensureDisplay(scope: DisplayScope, userId: string): Promise<DisplayPropertiesBase> {
    if (scope.kind === 'cycle' && !(await this.cycles.existsInProject(scope.projectId, scope.cycleId)))
      throw new MeridianError('NOT_FOUND', 'No cycle with that id in this project.');
    if (scope.kind === 'module' && !(await this.modules.existsInProject(scope.projectId, scope.moduleId)))
      throw new MeridianError('NOT_FOUND', 'No module with that id in this project.');
    const target = this.displayTarget(scope);
    const { kind: _kind, ...keys } = scope;
    const where = { ...keys, userId } as FindOptionsWhere<DisplayPropertiesBase>;
    const existing = await this.repo.findOne<DisplayPropertiesBase>(target, where);
    if (existing) return existing;
    await this.repo.insertMissing<DisplayPropertiesBase>(target, [
      {
        ...keys,
        userId,
        filters: defaultFilters(),
        displayFilters: defaultDisplayFilters(),
        displayProperties: defaultDisplayProperties(),
        createdById: userId,
        updatedById: userId,
      } as Partial<DisplayPropertiesBase>,
    ]);
    return found(this.repo.findOne<DisplayPropertiesBase>(target, where));
  }
}
