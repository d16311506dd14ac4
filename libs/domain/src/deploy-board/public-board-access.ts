import { MeridianError } from '#common';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { IssueChildrenService, IssueQueryService } from '../issue';
import type { Issue, IssueComment } from '../issue';
import { ProjectService } from '../project';
import type { Project } from '../project';
import { UserProfileService } from '../user';
import { WorkspaceService } from '../workspace';
import type { Workspace } from '../workspace';
import { DeployBoard } from './deploy-board.entity';
import { DeployBoardRepository } from './deploy-board.repository';
import { PublicActorJson, publicActorView } from './deploy-board.view';

/** A published board with its live project and workspace. */
export interface Board {
  board: DeployBoard;
  project: Project;
  workspace: Workspace;
}

/**
 * The lookups every part of the Public API starts with: the board of an anchor (404
 * `BOARD_NOT_FOUND`), a work item or an EXTERNAL comment the board shows (404 `NOT_FOUND`), the
 * board's intake, and people as visitors see them (name and avatar, never email).
 */
@Injectable()
export class PublicBoardAccess {
  constructor(
    private readonly boards: DeployBoardRepository,
    private readonly projects: ProjectService,
    private readonly workspaces: WorkspaceService,
    private readonly users: UserProfileService,
    private readonly issues: IssueQueryService,
    private readonly comments: IssueChildrenService,
  ) {}

  /** The live board of the anchor, with a live, unarchived project in a live workspace; else 404. */
  async board(anchor: string): Promise<Board> {
    if (!/^[0-9a-f]{32}$/i.test(anchor)) throw new MeridianError('BOARD_NOT_FOUND');
    const board = await this.boards.boardByAnchor(anchor.toLowerCase());
    if (!board) throw new MeridianError('BOARD_NOT_FOUND');
    const project = await this.projects.findLive(board.projectId);
    if (!project || project.archivedAt || project.workspaceId !== board.workspaceId)
      throw new MeridianError('BOARD_NOT_FOUND');
    const workspace = await this.workspaces.findLive(board.workspaceId);
    if (!workspace) throw new MeridianError('BOARD_NOT_FOUND');
    return { board, project, workspace };
  }

  /**
   * A work item the board shows (the issue room's `boardIssue`: visible and not in a triage state),
   * in the caller's transaction when `em` is given, locked `FOR UPDATE` when `lock`; else 404.
   */
  async findIssue(projectId: string, issueId: string, em?: EntityManager, lock = false): Promise<Issue> {
    const issue = await this.issues.boardIssue(projectId, issueId, { em, lock });
    if (!issue) throw new MeridianError('NOT_FOUND');
    return issue;
  }

  /** An EXTERNAL comment of a work item the board shows; else 404 `NOT_FOUND`. */
  async publicComment(projectId: string, commentId: string): Promise<IssueComment> {
    const c = await this.comments.externalComment(projectId, commentId);
    if (!c) throw new MeridianError('NOT_FOUND');
    await this.findIssue(projectId, c.issueId);
    return c;
  }

  /** The board of the anchor with its intake `intakeId`: 403 `BOARD_INTAKE_DISABLED` without one, 404 for another id. */
  async intakeBoard(anchor: string, intakeId: string): Promise<Board> {
    const b = await this.board(anchor);
    if (!b.board.intakeId) throw new MeridianError('BOARD_INTAKE_DISABLED');
    if (b.board.intakeId !== intakeId.toLowerCase()) throw new MeridianError('NOT_FOUND');
    return b;
  }

  /** The users `ids` as visitors see them, by id. */
  async actors(ids: string[]): Promise<Map<string, PublicActorJson>> {
    const unique = [...new Set(ids)];
    if (!unique.length) return new Map();
    const users = await this.users.liveUsers(unique);
    return new Map(users.map((u) => [u.id, publicActorView(u)!]));
  }
}
