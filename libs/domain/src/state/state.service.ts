import { MeridianError, Page, PageRequest, ROLE } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { assertExternalIdFree } from '../kernel/external-id';
import { isUniqueViolation } from '../kernel/db-errors';
import { assertProjectWritable } from '../kernel/project-writable';
import { DEFAULT_STATES, slugify } from './default-states';
import { State, StateGroup } from './state.entity';
import { StateRepository } from './state.repository';
import { StateJson, stateView } from './state.view';

/** Writable state fields, Plane's names (`plane/api/serializers/state.py` StateSerializer). */
export interface StateInput {
  name?: string;
  description?: string;
  color?: string;
  sequence?: number;
  group?: StateGroup;
  is_triage?: boolean;
  default?: boolean;
  external_source?: string | null;
  external_id?: string | null;
}

/** A project's work item states (Plane `plane/api/views/state.py` StateAPIEndpoint). */
@Injectable()
export class StateService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly states: StateRepository,
  ) {}

  /** Non-triage states of the project, by `sequence` ascending; paginated. Empty while the project is archived (Plane). */
  async list(projectId: string, page: PageRequest): Promise<Page<StateJson>> {
    return (await this.states.listPageInProject(projectId, page)).map(stateView);
  }

  /**
   * Non-triage states of every live, non-archived project of the workspace the user is an active
   * member of (Plane's `workspaces/{slug}/states/`), oldest first; paginated.
   */
  async listForWorkspace(workspaceId: string, userId: string, page: PageRequest): Promise<Page<StateJson>> {
    return (await this.states.listPageInMemberProjects(workspaceId, userId, page)).map(stateView);
  }

  /** One non-triage state of the project; 404 `NOT_FOUND` otherwise. */
  async retrieve(projectId: string, stateId: string): Promise<StateJson> {
    return stateView(await this.load(this.states.manager, projectId, stateId));
  }

  /**
   * Creates a state. `sequence` defaults to the project's highest + 15000 (65535 for the first);
   * `default: true` makes it the only default state. A taken name is 409 `STATE_NAME_TAKEN`, a
   * taken external id 409 `EXTERNAL_ID_TAKEN` (both with the holder's `id`).
   */
  async create(
    workspaceId: string,
    projectId: string,
    userId: string,
    input: StateInput & { name: string; color: string },
  ): Promise<StateJson> {
    return this.guardNames(projectId, async () => {
      const state = await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, projectId);
        await this.assertNameFree(em, projectId, input.name);
        await assertExternalIdFree(em, State, projectId, input.external_source, input.external_id);
        let sequence = input.sequence;
        if (sequence === undefined) {
          const max = await this.states.maxSequence(em, projectId);
          sequence = max === null ? 65535 : max + 15000;
        }
        if (input.default) await this.states.clearDefault(em, projectId, userId);
        return this.states.insert(
          em,
          em.create(State, {
            workspaceId,
            projectId,
            name: input.name.trim(),
            description: input.description ?? '',
            color: input.color,
            slug: slugify(input.name),
            sequence,
            group: input.group ?? 'backlog',
            isTriage: input.is_triage ?? false,
            default: input.default ?? false,
            externalSource: input.external_source ?? null,
            externalId: input.external_id ?? null,
            createdById: userId,
            updatedById: userId,
          }),
        );
      });
      return stateView(state);
    });
  }

  /**
   * Partial update. `default: true` makes this the only default state (Plane leaves the others
   * set, a quirk not copied). Name and external-id clashes as on create. With the caller's
   * `projectRole` (App API), changing `default` needs a project Admin (403 `PERMISSION_DENIED`), as
   * Plane's `mark-default/` does.
   */
  async update(
    projectId: string,
    stateId: string,
    userId: string,
    input: StateInput,
    projectRole?: number | null,
  ): Promise<StateJson> {
    if (projectRole !== undefined && input.default !== undefined && (projectRole ?? 0) < ROLE.ADMIN) {
      throw new MeridianError('PERMISSION_DENIED', 'Only project admins can change the default state.');
    }
    return this.guardNames(projectId, async () => {
      await this.dataSource.transaction(async (em) => {
        await assertProjectWritable(em, projectId);
        const state = await this.load(em, projectId, stateId, true);
        if (input.name !== undefined && input.name.trim() !== state.name)
          await this.assertNameFree(em, projectId, input.name, stateId);
        const externalId = input.external_id !== undefined ? input.external_id : state.externalId;
        const externalSource = input.external_source !== undefined ? input.external_source : state.externalSource;
        if (input.external_id !== undefined || input.external_source !== undefined) {
          await assertExternalIdFree(em, State, projectId, externalSource, externalId, stateId);
        }
        if (input.default) await this.states.clearDefault(em, projectId, userId);
        const patch: Partial<State> = { updatedById: userId };
        if (input.name !== undefined) {
          patch.name = input.name.trim();
          patch.slug = slugify(input.name);
        }
        if (input.description !== undefined) patch.description = input.description;
        if (input.color !== undefined) patch.color = input.color;
        if (input.sequence !== undefined) patch.sequence = input.sequence;
        if (input.group !== undefined) patch.group = input.group;
        if (input.is_triage !== undefined) patch.isTriage = input.is_triage;
        if (input.default !== undefined) patch.default = input.default;
        if (input.external_id !== undefined) patch.externalId = input.external_id;
        if (input.external_source !== undefined) patch.externalSource = input.external_source;
        await this.states.update(em, stateId, patch);
      });
      return this.retrieveAny(projectId, stateId);
    });
  }

  /**
   * Soft-deletes a state. The default state is refused (400 `DEFAULT_STATE_NOT_DELETABLE`), and so
   * is one that live work items still use (400 `STATE_NOT_EMPTY`).
   */
  async remove(projectId: string, stateId: string, userId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      await assertProjectWritable(em, projectId);
      const state = await this.load(em, projectId, stateId, true);
      if (state.default) throw new MeridianError('DEFAULT_STATE_NOT_DELETABLE');
      const used = await this.states.hasWorkItems(em, stateId);
      if (used) throw new MeridianError('STATE_NOT_EMPTY');
      await this.states.update(em, stateId, { updatedById: userId, deletedAt: new Date() });
    });
  }

  private async retrieveAny(projectId: string, stateId: string): Promise<StateJson> {
    const state = await this.states.findById(projectId, stateId);
    if (!state) throw new MeridianError('NOT_FOUND');
    return stateView(state);
  }

  private async load(em: EntityManager, projectId: string, stateId: string, lock = false): Promise<State> {
    const state = await this.states.findInProject(em, projectId, stateId, lock);
    if (!state) throw new MeridianError('NOT_FOUND');
    return state;
  }

  private async assertNameFree(em: EntityManager, projectId: string, name: string, exceptId?: string): Promise<void> {
    const found = await this.states.idByName(em, projectId, name);
    if (found && found !== exceptId) throw new MeridianError('STATE_NAME_TAKEN', undefined, { id: found });
  }

  /** A concurrent insert that passed the name check still meets the unique index: same 409. */
  private async guardNames<T>(projectId: string, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      if (isUniqueViolation(err, 'uq_states_name_live')) throw new MeridianError('STATE_NAME_TAKEN');
      throw err;
    }
  }

  // ---- for the rooms below and above, in the caller's transaction

  /**
   * Writes a new project's default states (`DEFAULT_STATES`, Plane's Backlog, Todo, In Progress,
   * Done, Cancelled and the intake's Triage), in one statement in the project's create transaction.
   */
  async insertDefaults(workspaceId: string, projectId: string, actorId: string, em: EntityManager): Promise<void> {
    await this.states.insertMany(
      em,
      DEFAULT_STATES.map((s) => ({
        ...s,
        slug: slugify(s.name),
        workspaceId,
        projectId,
        createdById: actorId,
        updatedById: actorId,
      })),
    );
  }

  /**
   * The project's live state `id` (entity, any group), or null: a project's `default_state`, a work
   * item's `state_id`; in the caller's transaction when `em` is given.
   */
  stateInProject(projectId: string, id: string, em: EntityManager = this.dataSource.manager): Promise<State | null> {
    return this.states.liveInProject(em, projectId, id);
  }

  /**
   * The project's default state, else its first non-triage state by `sequence` (entity), or null:
   * where a work item goes when its state is cleared. In the caller's transaction when `em` is given.
   */
  defaultOrFirstState(projectId: string, em: EntityManager = this.dataSource.manager): Promise<State | null> {
    return this.states.defaultOrFirst(em, projectId);
  }

  /** Which of `ids` are states (deleted ones too) of the `completed` group, in the caller's transaction when `em` is given. */
  completedAmong(ids: string[], em: EntityManager = this.dataSource.manager): Promise<Set<string>> {
    if (!ids.length) return Promise.resolve(new Set());
    return this.states.completedAmong(em, [...new Set(ids)]);
  }

  /**
   * Where the project's stale open work items are closed (the daily automation): its live state
   * `defaultStateId` (the project's `default_state`), else its first live `cancelled` state by
   * sequence; null when it has neither. In the caller's transaction when `em` is given.
   */
  closeState(
    projectId: string,
    defaultStateId: string | null,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Pick<State, 'id' | 'name' | 'group'> | null> {
    return this.states.preferredOrFirstCancelled(em, projectId, defaultStateId);
  }

  // ---- reads for the rooms above (the published boards)

  /** The project's states that are not triage, by `sequence` (entities; live ones only). */
  nonTriageStates(projectId: string): Promise<State[]> {
    return this.states.nonTriage(projectId);
  }

  // ---- reads for the intake's decisions, in the caller's transaction

  /**
   * The project's live default state (entity), or null: where an intake item accepted from a triage
   * state goes (Plane's `IntakeIssueViewSet.partial_update`). No errors.
   */
  defaultState(projectId: string, em: EntityManager = this.dataSource.manager): Promise<State | null> {
    return this.states.defaultOf(em, projectId);
  }

  /**
   * The project's first live state of the `cancelled` group by `sequence` (entity), or null: where
   * a declined or duplicate intake item goes (Plane's `IntakeIssueViewSet.partial_update`). No errors.
   */
  firstCancelledState(projectId: string, em: EntityManager = this.dataSource.manager): Promise<State | null> {
    return this.states.firstCancelled(em, projectId);
  }

  /**
   * The states `ids`, soft-deleted ones too (entities, in no order: a work item's state as a board or
   * a notification shows it), in the caller's transaction when `em` is given.
   */
  statesWithDeleted(ids: string[], em: EntityManager = this.dataSource.manager): Promise<State[]> {
    return this.states.withDeleted(em, [...new Set(ids)]);
  }

  // ---- the import's dedupe reads (`meridian import plane`)

  /**
   * `external_id` → id of the project's live states that came from `source` (their
   * `external_source`); those without an `external_id` are left out. `em`: the caller's transaction.
   */
  externalIds(projectId: string, source: string, em?: EntityManager): Promise<Map<string, string>> {
    return this.states.externalIds(projectId, source, em);
  }

  /**
   * The project's live states by name: `{id, externalId}` (the project's own, which an import
   * adopts when the source has one of the same name). `em`: the caller's transaction.
   */
  namesOf(projectId: string, em?: EntityManager): Promise<Map<string, { id: string; externalId: string | null }>> {
    return this.states.namesOf(projectId, em);
  }
}
