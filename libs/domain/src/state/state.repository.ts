import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In } from 'typeorm';
import { externalIdMap, liveByName } from '../kernel/external-id';
import type { Issue } from '../issue';
import { State } from './state.entity';

/** All SQL of the state feature. */
@Injectable()
export class StateRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** A page of the project's non-triage states by `sequence` ascending; none while the project is archived. */
  async listPageInProject(projectId: string, page: PageRequest): Promise<Page<State>> {
    const qb = this.dataSource
      .getRepository(State)
      .createQueryBuilder('s')
      .innerJoin('Project', 'p', 'p.id = s.projectId AND p.archivedAt IS NULL')
      .where('s.projectId = :projectId AND s.isTriage = false', { projectId });
    return paginate(qb, page, { key: 's.sequence', keyType: 'double' });
  }

  /** A page of the non-triage states of the workspace's live, non-archived projects `userId` is an active member of, oldest first. */
  async listPageInMemberProjects(workspaceId: string, userId: string, page: PageRequest): Promise<Page<State>> {
    const qb = this.dataSource
      .getRepository(State)
      .createQueryBuilder('s')
      .innerJoin('Project', 'p', 'p.id = s.projectId AND p.archivedAt IS NULL AND p.deletedAt IS NULL')
      .innerJoin('ProjectMember', 'pm', 'pm.projectId = p.id AND pm.memberId = :userId AND pm.isActive = true', {
        userId,
      })
      .where('p.workspaceId = :workspaceId AND s.isTriage = false', { workspaceId });
    return paginate(qb, page);
  }

  /** The highest `sequence` of the project's live states, or null for none. */
  async maxSequence(em: EntityManager, projectId: string): Promise<number | null> {
    const row = await em
      .getRepository(State)
      .createQueryBuilder('s')
      .select('MAX(s.sequence)', 'max')
      .where('s.projectId = :projectId', { projectId })
      .getRawOne<{ max: number | null }>();
    return row?.max === null || row?.max === undefined ? null : Number(row.max);
  }

  /**
   * The live state of the project: with `lock`, any state, row-locked (`FOR UPDATE`) for `em`'s
   * transaction; else only a non-triage state of a non-archived project. Null otherwise.
   */
  async findInProject(em: EntityManager, projectId: string, stateId: string, lock = false): Promise<State | null> {
    const qb = em
      .getRepository(State)
      .createQueryBuilder('s')
      .where('s.id = :stateId AND s.projectId = :projectId', { stateId, projectId });
    if (!lock)
      qb.andWhere('s.isTriage = false').innerJoin('Project', 'p', 'p.id = s.projectId AND p.archivedAt IS NULL');
    else qb.setLock('pessimistic_write');
    return qb.getOne();
  }

  /** The project's live default state, else its first live non-triage state by `sequence`; or null. */
  defaultOrFirst(em: EntityManager, projectId: string): Promise<State | null> {
    return em
      .getRepository(State)
      .createQueryBuilder('s')
      .where('s.projectId = :projectId AND s.isTriage = false', { projectId })
      .orderBy('s.default', 'DESC')
      .addOrderBy('s.sequence', 'ASC')
      .getOne();
  }

  /** The ids among `ids` of states (deleted ones too) in the `completed` group. */
  async completedAmong(em: EntityManager, ids: string[]): Promise<Set<string>> {
    const rows: Array<{ id: string }> = await em.query(
      `SELECT id::text AS id FROM states WHERE id = ANY($1::uuid[]) AND "group" = 'completed'`,
      [ids],
    );
    return new Set(rows.map((r) => r.id));
  }

  /** The project's live state `preferredId`, else its first live `cancelled` state by sequence; or null. */
  async preferredOrFirstCancelled(
    em: EntityManager,
    projectId: string,
    preferredId: string | null,
  ): Promise<Pick<State, 'id' | 'name' | 'group'> | null> {
    const rows: Array<Pick<State, 'id' | 'name' | 'group'>> = await em.query(
      `SELECT s.id, s.name, s."group" FROM states s
       WHERE s.project_id = $1 AND s.deleted_at IS NULL AND (s.id = $2::uuid OR s."group" = 'cancelled')
       ORDER BY (s.id = $2::uuid) DESC NULLS LAST, s.sequence, s.id LIMIT 1`,
      [projectId, preferredId],
    );
    return rows[0] ?? null;
  }

  /** The project's live state `id` (any group, archived project too), or null. */
  liveInProject(em: EntityManager, projectId: string, id: string): Promise<State | null> {
    return em.getRepository(State).findOne({ where: { id, projectId } });
  }

  /** Inserts states (rows built by the caller), in one statement. */
  async insertMany(em: EntityManager, rows: Array<Partial<State>>): Promise<void> {
    await em.insert(State, rows as never);
  }

  /** Whether a live work item is in the state. */
  async hasWorkItems(em: EntityManager, stateId: string): Promise<boolean> {
    return em.getRepository<Issue>('Issue').exists({ where: { stateId } });
  }

  /** Inserts a state (an entity built by the caller); the saved row. */
  insert(em: EntityManager, state: State): Promise<State> {
    return em.save(state);
  }

  /** Writes `patch` to the state `id` (a soft delete with `deletedAt`). */
  async update(em: EntityManager, id: string, patch: Partial<State>): Promise<void> {
    await em.update(State, { id }, patch as never);
  }

  /** The project has no default state any more (before another becomes it). */
  async clearDefault(em: EntityManager, projectId: string, userId: string): Promise<void> {
    await em.update(State, { projectId, default: true }, { default: false, updatedById: userId });
  }

  /** The live state `id` of the project, or null. */
  findById(projectId: string, id: string): Promise<State | null> {
    return this.dataSource.getRepository(State).findOne({ where: { id, projectId } });
  }

  /** The id of the project's live state named `name` (exactly, after trimming), or null. */
  async idByName(em: EntityManager, projectId: string, name: string): Promise<string | null> {
    const found = await em
      .getRepository(State)
      .findOne({ where: { projectId, name: name.trim() }, select: { id: true } });
    return found?.id ?? null;
  }

  // ---- reads for the rooms above (through StateService)

  /** The project's states that are not triage (neither flag nor group), by `sequence`. */
  async nonTriage(projectId: string): Promise<State[]> {
    const rows = await this.dataSource
      .getRepository(State)
      .find({ where: { projectId, isTriage: false }, order: { sequence: 'ASC', id: 'ASC' } });
    return rows.filter((s) => s.group !== 'triage');
  }

  /** The project's live default state, or null. */
  defaultOf(em: EntityManager, projectId: string): Promise<State | null> {
    return em.getRepository(State).findOne({ where: { projectId, default: true } });
  }

  /** The project's first live state of the `cancelled` group (by `sequence`), or null. */
  firstCancelled(em: EntityManager, projectId: string): Promise<State | null> {
    return em.getRepository(State).findOne({ where: { projectId, group: 'cancelled' }, order: { sequence: 'ASC' } });
  }

  /** The states `ids`, soft-deleted ones too, in no order. */
  withDeleted(em: EntityManager, ids: string[]): Promise<State[]> {
    if (!ids.length) return Promise.resolve([]);
    return em.getRepository(State).find({ where: { id: In(ids) }, withDeleted: true });
  }

  // ---- the import's dedupe reads (through the service's door)

  /** `external_id` → id of the project's live states that came from `source` (`external_source`). */
  externalIds(
    projectId: string,
    source: string,
    em: EntityManager = this.dataSource.manager,
  ): Promise<Map<string, string>> {
    return externalIdMap(em, State, 'project_id', projectId, source);
  }

  /** The project's live states by name: id and `external_id`. */
  namesOf(projectId: string, em: EntityManager = this.dataSource.manager) {
    return liveByName(em, State, projectId);
  }
}
