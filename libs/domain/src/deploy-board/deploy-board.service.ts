import { isUuid, MeridianError, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { randomBytes } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { found, isUniqueViolation } from '../kernel/db-errors';
import { lockProject } from '../kernel/locks';
import { IntakeService } from '../intake';
import { ProjectService } from '../project';
import { WorkspaceService } from '../workspace';
import { DEFAULT_BOARD_VIEWS, DeployBoard } from './deploy-board.entity';
import { DeployBoardJson, deployBoardView } from './deploy-board.view';
import { DeployBoardRepository } from './deploy-board.repository';

/** Board settings, Plane's names (`plane/db/models/deploy_board.py` DeployBoard). */
export interface DeployBoardInput {
  is_comments_enabled?: boolean;
  is_reactions_enabled?: boolean;
  is_votes_enabled?: boolean;
  is_activity_enabled?: boolean;
  is_disabled?: boolean;
  /** the intake shown on the board, or null */
  intake?: string | null;
  /** layouts offered (`{list, kanban, calendar, gantt, spreadsheet}`); `views` on publish in Plane */
  views?: Record<string, boolean>;
  view_props?: Record<string, boolean>;
}

/** A new anchor: 32 random hex characters (Plane: uuid4 hex). */
export function newAnchor(): string {
  return randomBytes(16).toString('hex');
}

/**
 * Publishing a project (the App side of the Public API, Plane `plane/app/views/project/base.py`
 * DeployBoardViewSet): one live board per project, addressed publicly by its anchor. Who may call is the
 * controllers' (`@ProjectRole`); the project is already resolved inside the workspace.
 */
@Injectable()
export class DeployBoardService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly boards: DeployBoardRepository,
    private readonly projects: ProjectService,
    private readonly workspaces: WorkspaceService,
    private readonly intakes: IntakeService,
  ) {}

  /** The project's live board, or null when it is not published. */
  async current(workspaceId: string, projectId: string): Promise<DeployBoardJson | null> {
    const board = await this.boards.findCurrent(this.boards.manager, workspaceId, projectId);
    return board ? this.render(board) : null;
  }

  /** The board `boardId` of the project; 404 `NOT_FOUND` for any other id (unpublished included). */
  async get(workspaceId: string, projectId: string, boardId: string): Promise<DeployBoardJson> {
    return this.render(await this.find(this.boards.manager, workspaceId, projectId, boardId));
  }

  /**
   * Publishes the project (Plane's get-or-create): a new board with a fresh anchor and the given
   * settings (defaults: comments, reactions and votes off, every layout on) → `created: true`; an
   * already published project keeps its board and anchor and takes the given settings → `created: false`.
   */
  async publish(
    workspaceId: string,
    projectId: string,
    userId: string,
    input: DeployBoardInput,
  ): Promise<{ created: boolean; board: DeployBoardJson }> {
    await this.assertIntake(projectId, input.intake);
    try {
      return await this.dataSource.transaction(async (em) => {
        await lockProject(em, projectId);
        const existing = await this.boards.findCurrent(em, workspaceId, projectId);
        if (existing) {
          await this.boards.update(em, existing.id, { ...this.patch(input), updatedById: userId });
          return { created: false, board: await this.render(await this.boards.byId(em, existing.id), em) };
        }
        const board = await this.boards.insert(
          em,
          em.create(DeployBoard, {
            workspaceId,
            projectId,
            entityName: 'project',
            entityIdentifier: projectId,
            anchor: newAnchor(),
            isCommentsEnabled: false,
            isReactionsEnabled: false,
            isVotesEnabled: false,
            intakeId: null,
            viewProps: { ...DEFAULT_BOARD_VIEWS },
            ...this.patch(input),
            createdById: userId,
            updatedById: userId,
          }),
        );
        return { created: true, board: await this.render(board, em) };
      });
    } catch (err) {
      // a concurrent publish of the same project won the race: answer with its board
      if (isUniqueViolation(err, 'uq_deploy_boards_entity_live'))
        return { created: false, board: (await this.current(workspaceId, projectId))! };
      throw err;
    }
  }

  /** Changes the settings given; 200 with the board. */
  async update(
    workspaceId: string,
    projectId: string,
    boardId: string,
    userId: string,
    input: DeployBoardInput,
  ): Promise<DeployBoardJson> {
    await this.assertIntake(projectId, input.intake);
    const board = await this.find(this.boards.manager, workspaceId, projectId, boardId);
    await this.boards.update(this.boards.manager, board.id, { ...this.patch(input), updatedById: userId });
    return this.get(workspaceId, projectId, boardId);
  }

  /** Unpublishes: the board is soft-deleted and its anchor answers 404 from then on. */
  async unpublish(workspaceId: string, projectId: string, boardId: string, userId: string): Promise<void> {
    const board = await this.find(this.boards.manager, workspaceId, projectId, boardId);
    await this.boards.update(this.boards.manager, board.id, { deletedAt: new Date(), updatedById: userId });
  }

  private patch(input: DeployBoardInput): Partial<DeployBoard> {
    const patch: Partial<DeployBoard> = {};
    if (input.is_comments_enabled !== undefined) patch.isCommentsEnabled = input.is_comments_enabled;
    if (input.is_reactions_enabled !== undefined) patch.isReactionsEnabled = input.is_reactions_enabled;
    if (input.is_votes_enabled !== undefined) patch.isVotesEnabled = input.is_votes_enabled;
    if (input.is_activity_enabled !== undefined) patch.isActivityEnabled = input.is_activity_enabled;
    if (input.is_disabled !== undefined) patch.isDisabled = input.is_disabled;
    if (input.intake !== undefined) patch.intakeId = input.intake;
    const views = input.view_props ?? input.views;
    if (views !== undefined) patch.viewProps = { ...DEFAULT_BOARD_VIEWS, ...views };
    return patch;
  }

  /** The board's `intake`, when given, must be one of the project's live intakes (else 422). */
  private async assertIntake(projectId: string, intake: string | null | undefined): Promise<void> {
    if (intake === undefined || intake === null) return;
    const found = isUuid(intake) && (await this.intakes.isProjectIntake(projectId, intake));
    if (!found) throw validationError({ intake: ['No intake with this id exists in the project.'] });
  }

  private async find(em: EntityManager, workspaceId: string, projectId: string, boardId: string): Promise<DeployBoard> {
    const board = await this.boards.findInProject(em, workspaceId, projectId, boardId);
    if (!board) throw new MeridianError('NOT_FOUND');
    return board;
  }

  private async render(board: DeployBoard, em: EntityManager = this.boards.manager): Promise<DeployBoardJson> {
    const project = await found(this.projects.findLive(board.projectId, em));
    const workspace = await found(this.workspaces.findLive(board.workspaceId, em));
    return deployBoardView(board, project, workspace);
  }
}
