import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager, In, IsNull } from 'typeorm';
import { Cycle, CycleIssue } from '../cycle';
import { CommentReaction, Issue, IssueAssignee, IssueComment, IssueLabel, IssueReaction, IssueVote } from '../issue';
import { Label } from '../label';
import { Module, ModuleIssue } from '../module';
import { Project, ProjectMember } from '../project';
import { State } from '../state';
import { User } from '../user';
import { Workspace } from '../workspace';
import { DeployBoard } from './deploy-board.entity';

/** A never-matching id, so `In([...])` of an empty list stays valid SQL. */
const NO_ID = '00000000-0000-0000-0000-000000000000';

/**
 * The published boards' reads and writes of other rooms' tables (the Public API: comments, votes,
 * reactions, the project's lists, the rows a board's work item shows). Every method is scoped by
 * the caller (the service resolved the board and its project first). Methods that take an
 * `EntityManager` run in the caller's transaction.
 */
@Injectable()
export class PublicBoardRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** The DataSource's manager, for reads outside a transaction. */
  get manager(): EntityManager {
    return this.dataSource.manager;
  }

  /** The live board with this anchor (lower case), or null. */
  boardByAnchor(anchor: string): Promise<DeployBoard | null> {
    return this.dataSource.getRepository(DeployBoard).findOneBy({ anchor });
  }

  /** The live project `id`, or null. */
  project(id: string): Promise<Project | null> {
    return this.dataSource.getRepository(Project).findOneBy({ id });
  }

  /** The live workspace `id`, or null. */
  workspace(id: string): Promise<Workspace | null> {
    return this.dataSource.getRepository(Workspace).findOneBy({ id });
  }

  // ---- comments

  /** The work item's EXTERNAL comments in the project, oldest first. */
  externalComments(projectId: string, issueId: string): Promise<IssueComment[]> {
    return this.dataSource
      .getRepository(IssueComment)
      .find({ where: { issueId, projectId, access: 'EXTERNAL' }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The live EXTERNAL comment `id` of the project (of `issueId` and by `actorId` when given), or null. */
  externalComment(
    em: EntityManager,
    projectId: string,
    id: string,
    of: { issueId?: string; actorId?: string } = {},
  ): Promise<IssueComment | null> {
    return em.getRepository(IssueComment).findOneBy({ id, projectId, access: 'EXTERNAL', ...of });
  }

  /** The live comment `id`; throws when it is gone. */
  comment(id: string): Promise<IssueComment> {
    return this.dataSource.getRepository(IssueComment).findOneByOrFail({ id });
  }

  /** Inserts a comment (an entity built by the caller); the saved row. */
  insertComment(em: EntityManager, row: IssueComment): Promise<IssueComment> {
    return em.save(row);
  }

  /** Writes `patch` to the comment `id`. */
  async updateComment(em: EntityManager, id: string, patch: Partial<IssueComment>): Promise<void> {
    await em.update(IssueComment, { id }, patch as never);
  }

  /** The ids of the project's active members (whose comments are `is_member`). */
  async activeMemberIds(projectId: string): Promise<Set<string>> {
    const rows = await this.dataSource
      .getRepository(ProjectMember)
      .find({ where: { projectId, isActive: true }, select: { memberId: true } });
    return new Set(rows.map((m) => m.memberId));
  }

  // ---- reactions and votes

  /** The work item's live reactions, oldest first. */
  issueReactions(issueId: string): Promise<IssueReaction[]> {
    return this.dataSource
      .getRepository(IssueReaction)
      .find({ where: { issueId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The comment's live reactions, newest first (Plane's order). */
  commentReactions(commentId: string): Promise<CommentReaction[]> {
    return this.dataSource
      .getRepository(CommentReaction)
      .find({ where: { commentId }, order: { createdAt: 'DESC', id: 'DESC' } });
  }

  /** The work item's live votes, oldest first. */
  votes(issueId: string): Promise<IssueVote[]> {
    return this.dataSource
      .getRepository(IssueVote)
      .find({ where: { issueId }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The caller's live vote on the work item, or null. */
  findVote(em: EntityManager, issueId: string, actorId: string): Promise<IssueVote | null> {
    return em.getRepository(IssueVote).findOneBy({ issueId, actorId });
  }

  /** The live vote `id`; throws when it is gone. */
  voteById(em: EntityManager, id: string): Promise<IssueVote> {
    return em.getRepository(IssueVote).findOneByOrFail({ id });
  }

  /** Inserts a vote (an entity built by the caller); the saved row. */
  insertVote(em: EntityManager, row: IssueVote): Promise<IssueVote> {
    return em.save(row);
  }

  /** Writes `patch` to the vote `id` (a soft delete with `deletedAt`). */
  async updateVote(em: EntityManager, id: string, patch: Partial<IssueVote>): Promise<void> {
    await em.update(IssueVote, { id }, patch as never);
  }

  // ---- the project's lists

  /** The project's states that are not triage, by sequence. */
  async states(projectId: string): Promise<State[]> {
    const rows = await this.dataSource
      .getRepository(State)
      .find({ where: { projectId, isTriage: false }, order: { sequence: 'ASC', id: 'ASC' } });
    return rows.filter((s) => s.group !== 'triage');
  }

  /** The project's live labels by sort order. */
  labels(projectId: string): Promise<Label[]> {
    return this.dataSource.getRepository(Label).find({ where: { projectId }, order: { sortOrder: 'ASC', id: 'ASC' } });
  }

  /** The project's active members, oldest first. */
  activeMembers(projectId: string): Promise<ProjectMember[]> {
    return this.dataSource
      .getRepository(ProjectMember)
      .find({ where: { projectId, isActive: true }, order: { createdAt: 'ASC', id: 'ASC' } });
  }

  /** The live users among `ids` (any order). */
  users(ids: string[]): Promise<User[]> {
    return this.dataSource.getRepository(User).findBy({ id: In(ids.concat([NO_ID])) });
  }

  /** The project's live, unarchived cycles `{id, name}`, oldest first. */
  cycles(projectId: string): Promise<Array<Pick<Cycle, 'id' | 'name'>>> {
    return this.dataSource.getRepository(Cycle).find({
      select: { id: true, name: true },
      where: { projectId, archivedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  /** The project's live, unarchived modules `{id, name}`, oldest first. */
  modules(projectId: string): Promise<Array<Pick<Module, 'id' | 'name'>>> {
    return this.dataSource.getRepository(Module).find({
      select: { id: true, name: true },
      where: { projectId, archivedAt: IsNull() },
      order: { createdAt: 'ASC', id: 'ASC' },
    });
  }

  // ---- what a board's work items show

  /**
   * The rows a page of work items shows, one statement each: assignees, labels (only live ones),
   * votes and reactions (oldest first), cycle and module links, and their states (deleted ones too,
   * for the group).
   */
  async issueDetails(issues: Issue[]) {
    const ids = issues.map((i) => i.id);
    const stateIds = issues.map((i) => i.stateId).filter((s): s is string => !!s);
    const repo = <T extends object>(e: new () => T) => this.dataSource.getRepository(e);
    const [assignees, labels, votes, reactions, cycleLinks, moduleLinks, states] = await Promise.all([
      repo(IssueAssignee).findBy({ issueId: In(ids) }),
      repo(IssueLabel).findBy({ issueId: In(ids) }),
      repo(IssueVote).find({ where: { issueId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } }),
      repo(IssueReaction).find({ where: { issueId: In(ids) }, order: { createdAt: 'ASC', id: 'ASC' } }),
      repo(CycleIssue).findBy({ issueId: In(ids) }),
      repo(ModuleIssue).findBy({ issueId: In(ids) }),
      repo(State).find({ where: { id: In(stateIds.concat([NO_ID])) }, withDeleted: true }),
    ]);
    const liveLabels = new Set(
      (await repo(Label).findBy({ id: In(labels.map((l) => l.labelId).concat([NO_ID])) })).map((l) => l.id),
    );
    return {
      assignees,
      labels: labels.filter((l) => liveLabels.has(l.labelId)),
      votes,
      reactions,
      cycleLinks,
      moduleLinks,
      states,
    };
  }
}
