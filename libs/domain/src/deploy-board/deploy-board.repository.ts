import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { DeployBoard } from './deploy-board.entity';

/**
 * All SQL of the deploy-board feature: its own table, `deploy_boards`. What a board shows of other
 * rooms (the project and workspace, work items, comments, votes, reactions, states, labels,
 * members, cycles, modules, the intake) is read through their doors by the services. Methods that
 * take an `EntityManager` run in the caller's transaction.
 */
@Injectable()
export class DeployBoardRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The live board with this anchor (lower case), or null. */
  boardByAnchor(anchor: string): Promise<DeployBoard | null> {
    return this.dataSource.getRepository(DeployBoard).findOneBy({ anchor });
  }

  /** The live board of the project in the workspace (any `entity_name`), or null. */
  boardOfProject(workspaceId: string, projectId: string): Promise<DeployBoard | null> {
    return this.dataSource.getRepository(DeployBoard).findOneBy({ workspaceId, projectId });
  }

  /** The ids of the workspace's projects that have a live board. */
  async publishedProjectIds(workspaceId: string): Promise<string[]> {
    const rows = await this.dataSource
      .getRepository(DeployBoard)
      .find({ select: { projectId: true }, where: { workspaceId } });
    return [...new Set(rows.map((b) => b.projectId))];
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
}
