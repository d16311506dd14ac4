import { Page, PageRequest, paginate } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, SelectQueryBuilder } from 'typeorm';
import { Intake } from '../intake';
import { Issue } from '../issue';
import type { IssueOrderKey } from '../issue';
import { Project } from '../project';
import { State } from '../state';
import { Workspace } from '../workspace';
import { DeployBoard } from './deploy-board.entity';

/** The filters of the public work item list (any value of a filter matches; empty or absent: no filter). */
export interface PublicIssueFilters {
  state?: string[];
  state_group?: string[];
  priority?: string[];
  labels?: string[];
  assignees?: string[];
}

/** The order of the public list: a key expression over alias `i`, its type for the cursor, and the direction. */
export interface PublicIssueOrder extends IssueOrderKey {
  order: 'ASC' | 'DESC';
}

/**
 * All SQL of the deploy-board feature: boards by workspace slug, the project lock of a publish, and
 * the work items a published board shows. A board shows a work item of its project that is visible
 * (the issue room's `VISIBLE_ISSUE`: not deleted, archived, a draft or waiting in intake, passed in
 * by the service as `visibleSql`) and not in a triage state. Methods that take
 * an `EntityManager` run in the caller's transaction.
 */
@Injectable()
export class DeployBoardRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The board of the project, when its workspace (live) has this slug; null otherwise. */
  findByWorkspaceSlug(slug: string, projectId: string): Promise<DeployBoard | null> {
    return this.dataSource
      .getRepository(DeployBoard)
      .createQueryBuilder('b')
      .innerJoin(Workspace, 'w', 'w.id = b.workspaceId AND w.deletedAt IS NULL')
      .where('w.slug = :slug AND b.projectId = :projectId', { slug, projectId })
      .getOne();
  }

  /** The DataSource's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The project's live board (the one with `entity_name` project), or null when it is not published. */
  findCurrent(em: EntityManager, workspaceId: string, projectId: string): Promise<DeployBoard | null> {
    return em.getRepository(DeployBoard).findOneBy({ workspaceId, projectId, entityName: 'project' });
  }

  /** The live board `boardId` of the project, or null. */
  findInProject(
    em: EntityManager,
    workspaceId: string,
    projectId: string,
    boardId: string,
  ): Promise<DeployBoard | null> {
    return em.getRepository(DeployBoard).findOneBy({ id: boardId, workspaceId, projectId });
  }

  /** The live board `id`; throws when it is gone. */
  byId(em: EntityManager, id: string): Promise<DeployBoard> {
    return em.getRepository(DeployBoard).findOneByOrFail({ id });
  }

  /** Inserts a board (an entity built by the caller); the saved row. */
  insert(em: EntityManager, board: DeployBoard): Promise<DeployBoard> {
    return em.save(board);
  }

  /** Writes `patch` to the board `id` (soft delete included: `deletedAt`). */
  async update(em: EntityManager, id: string, patch: Partial<DeployBoard>): Promise<void> {
    await em.update(DeployBoard, { id }, patch as never);
  }

  /** Whether `intakeId` is a live intake of the project (the board's `intake` setting). */
  intakeExists(projectId: string, intakeId: string): Promise<boolean> {
    return this.dataSource.getRepository(Intake).existsBy({ id: intakeId, projectId });
  }

  /** The board's project and workspace (live), for its JSON; throws when either is gone. */
  async owners(em: EntityManager, board: DeployBoard): Promise<{ project: Project; workspace: Workspace }> {
    const project = await em.getRepository(Project).findOneByOrFail({ id: board.projectId });
    const workspace = await em.getRepository(Workspace).findOneByOrFail({ id: board.workspaceId });
    return { project, workspace };
  }

  /** Locks the project row (`FOR UPDATE`) until the transaction ends: serialises publishes of one project. Throws when it is gone. */
  async lockProject(em: EntityManager, projectId: string): Promise<void> {
    await em
      .getRepository(Project)
      .createQueryBuilder('p')
      .setLock('pessimistic_write')
      .where('p.id = :projectId', { projectId })
      .getOneOrFail();
  }

  /** A page of the board's visible work items with the filters, in `order`. */
  listVisibleIssuesPage(
    projectId: string,
    visibleSql: string,
    filters: PublicIssueFilters,
    page: PageRequest,
    order: PublicIssueOrder,
  ): Promise<Page<Issue>> {
    const qb = this.visible(this.dataSource.manager, projectId, visibleSql);
    if (filters.state?.length) qb.andWhere('i.stateId IN (:...states)', { states: filters.state });
    if (filters.state_group?.length) qb.andWhere('s.group IN (:...groups)', { groups: filters.state_group });
    if (filters.priority?.length) qb.andWhere('i.priority IN (:...priorities)', { priorities: filters.priority });
    if (filters.labels?.length) {
      qb.andWhere('EXISTS (SELECT 1 FROM issue_labels il WHERE il.issue_id = i.id AND il.label_id IN (:...labels))', {
        labels: filters.labels,
      });
    }
    if (filters.assignees?.length) {
      qb.andWhere(
        'EXISTS (SELECT 1 FROM issue_assignees ia WHERE ia.issue_id = i.id AND ia.assignee_id IN (:...assignees))',
        {
          assignees: filters.assignees,
        },
      );
    }
    return paginate(qb, page, order);
  }

  /**
   * The live, unarchived projects of the live workspace `slug` that have a live board, by name:
   * `{id, identifier, name, description, emoji, icon_prop, cover_image}` (Plane's `project-boards/`).
   */
  publishedProjects(slug: string): Promise<Project[]> {
    return this.dataSource
      .getRepository(Project)
      .createQueryBuilder('p')
      .innerJoin(Workspace, 'w', 'w.id = p.workspaceId AND w.deletedAt IS NULL')
      .innerJoin(DeployBoard, 'b', 'b.projectId = p.id AND b.deletedAt IS NULL')
      .where('w.slug = :slug', { slug })
      .andWhere('p.archivedAt IS NULL')
      .orderBy('p.name', 'ASC')
      .addOrderBy('p.id', 'ASC')
      .getMany();
  }

  /** The visible work item `issueId` of the project (locked `FOR UPDATE` when `lock`), or null. */
  findVisibleIssue(
    em: EntityManager,
    projectId: string,
    visibleSql: string,
    issueId: string,
    lock = false,
  ): Promise<Issue | null> {
    const qb = this.visible(em, projectId, visibleSql).andWhere('i.id = :issueId', { issueId });
    if (lock) qb.setLock('pessimistic_write', undefined, ['i']);
    return qb.getOne();
  }

  private visible(em: EntityManager, projectId: string, visibleSql: string): SelectQueryBuilder<Issue> {
    return em
      .getRepository(Issue)
      .createQueryBuilder('i')
      .leftJoin(State, 's', 's.id = i.stateId')
      .where('i.projectId = :projectId', { projectId })
      .andWhere(`(s.id IS NULL OR (s.is_triage = false AND s."group" <> 'triage'))`)
      .andWhere(visibleSql);
  }
}
