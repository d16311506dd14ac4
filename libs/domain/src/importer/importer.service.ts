import { MeridianError, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { CycleService } from '../cycle';
import { IntakeService } from '../intake';
import { IssueQueryService } from '../issue';
import { isUniqueViolation } from '../kernel/db-errors';
import { LabelService } from '../label';
import { ModuleService } from '../module';
import { ProjectMemberService, ProjectService } from '../project';
import { IssueRelationService } from '../relation';
import { StateService } from '../state';
import { UserProfileService } from '../user';
import { activateWorkspaceMember, WorkspaceService } from '../workspace';
import type { Workspace } from '../workspace';

/** The kinds of object an import records its origin on (`external_source` + `external_id`). */
export type ExternalKind = 'project' | 'state' | 'label' | 'issue' | 'comment' | 'cycle' | 'module' | 'intake';

/** The key of an unordered pair of work items. */
export function relatedPair(a: string, b: string): string {
  return a < b ? `${a}\n${b}` : `${b}\n${a}`;
}

/** Emails are stored trimmed and lower-cased (the auth room's rule). */
const normaliseEmail = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What an import (`meridian import plane`) needs beyond the features' own services: the target
 * workspace and the importing admin, the origin records (`external_source` + `external_id`) already
 * present, and the people of the source, matched by email. The origin records and the natural keys
 * (names, links, relations, cycle and module memberships) are read through the owning rooms' doors.
 *
 * People: a source member whose email belongs to a Meridian user is that user; an unknown email
 * becomes a user **without a password** (as Plane's own v1 `POST …/members/` creates one), active,
 * email not verified, so the work items keep their assignees and the comments their authors. That
 * person claims the account by signing in with a magic code or OAuth on that email, or by a password
 * reset. Either way the user becomes an active member of the workspace with the source's role.
 */
@Injectable()
export class ImporterService {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    private readonly workspaces: WorkspaceService,
    private readonly users: UserProfileService,
    private readonly projectMembers: ProjectMemberService,
    private readonly projects: ProjectService,
    private readonly states: StateService,
    private readonly labels: LabelService,
    private readonly issues: IssueQueryService,
    private readonly relations: IssueRelationService,
    private readonly cycles: CycleService,
    private readonly modules: ModuleService,
    private readonly intakes: IntakeService,
  ) {}

  /**
   * The target workspace and the user the import acts as: `asEmail`, else the workspace's owner.
   * 404 `NOT_FOUND` for an unknown workspace or user; 403 `PERMISSION_DENIED` unless that user is
   * an active Admin of the workspace.
   */
  async target(slug: string, asEmail?: string): Promise<{ workspace: Workspace; userId: string }> {
    const workspace = await this.workspaces.findLiveBySlug(slug);
    if (!workspace) throw new MeridianError('NOT_FOUND', `No workspace "${slug}" in this Meridian.`);
    let userId = workspace.ownerId;
    if (asEmail) {
      const user = await this.users.userByEmail(normaliseEmail(asEmail));
      if (!user) throw new MeridianError('NOT_FOUND', `No user with the email ${asEmail}.`);
      userId = user.id;
    }
    if ((await this.workspaceRole(workspace.id, userId)) !== ROLE.ADMIN) {
      throw new MeridianError('PERMISSION_DENIED', 'The import acts as an active Admin of the target workspace.');
    }
    return { workspace, userId };
  }

  /**
   * `external_id` → id of the live objects of a kind that came from `source` (`external_source`):
   * inside the workspace `scopeId` for projects, inside the project `scopeId` for the rest; each
   * through its owner's door.
   */
  externalIds(kind: ExternalKind, scopeId: string, source: string, em?: EntityManager): Promise<Map<string, string>> {
    switch (kind) {
      case 'project':
        return this.projects.externalIds(scopeId, source, em);
      case 'state':
        return this.states.externalIds(scopeId, source, em);
      case 'label':
        return this.labels.externalIds(scopeId, source, em);
      case 'issue':
      case 'comment':
        return this.issues.externalIds(kind, scopeId, source, em);
      case 'cycle':
        return this.cycles.externalIds(scopeId, source, em);
      case 'module':
        return this.modules.externalIds(scopeId, source, em);
      case 'intake':
        return this.intakes.externalIds(scopeId, source, em);
    }
  }

  /** Live states or labels of a project by name (the project's own defaults, adopted by an import). */
  namesOf(
    kind: 'state' | 'label',
    projectId: string,
    em?: EntityManager,
  ): Promise<Map<string, { id: string; externalId: string | null }>> {
    return kind === 'state' ? this.states.namesOf(projectId, em) : this.labels.namesOf(projectId, em);
  }

  /** `issue_id + "\n" + url` of the project's live links. */
  async linkKeys(projectId: string, em?: EntityManager): Promise<Set<string>> {
    const rows = await this.issues.linkKeys(projectId, em);
    return new Set(rows.map((r) => `${r.issueId}\n${r.url}`));
  }

  /** Work item ids in a cycle or a module (live links). */
  planningIssueIds(kind: 'cycle' | 'module', id: string, em?: EntityManager): Promise<Set<string>> {
    return kind === 'cycle' ? this.cycles.issueIds(id, em) : this.modules.issueIds(id, em);
  }

  /** The related pairs of the project's live relations (a pair holds one relation), as `relatedPair` keys. */
  async relatedPairs(projectId: string, em?: EntityManager): Promise<Set<string>> {
    const rows = await this.relations.pairsOfProject(projectId, em);
    return new Set(rows.map((r) => relatedPair(r.issueId, r.relatedIssueId)));
  }

  /** The key of an unordered pair of work items: `smaller id + "\n" + larger id`. */
  relatedPair(a: string, b: string): string {
    return relatedPair(a, b);
  }

  /** Active project roles by user id (through the project door). */
  async projectRoles(projectId: string): Promise<Map<string, number>> {
    const rows = await this.projectMembers.activeMemberships(projectId);
    return new Map(rows.map((r) => [r.memberId, r.role]));
  }

  /**
   * The user with this email, created without a password when unknown (see the class comment),
   * made an active member of the workspace with `role` (5, 15 or 20) when not one already.
   * `user`: created or existing; `member`: created (or reactivated) or already active. 422 for an
   * invalid email.
   */
  async ensureMember(
    workspaceId: string,
    actorId: string,
    input: { email: string; first_name?: string; last_name?: string; display_name?: string; role: number },
  ): Promise<{ userId: string; user: 'created' | 'existing'; member: 'created' | 'existing' }> {
    const email = normaliseEmail(input.email ?? '');
    if (!EMAIL.test(email)) throw validationError({ email: ['Enter a valid email address.'] });
    const role = ([ROLE.ADMIN, ROLE.MEMBER, ROLE.GUEST] as number[]).includes(input.role) ? input.role : ROLE.MEMBER;
    try {
      return await this.dataSource.transaction(async (em) => {
        let user = await this.users.userByEmail(email, em);
        const created = !user;
        if (!user) {
          user = await this.users.createUser(
            {
              email,
              passwordHash: null,
              firstName: (input.first_name ?? '').slice(0, 255),
              lastName: (input.last_name ?? '').slice(0, 255),
              displayName: (input.display_name?.trim() || email.split('@')[0]).slice(0, 255),
              isActive: true,
              isEmailVerified: false,
            },
            em,
          );
        }
        const before = await this.workspaceRole(workspaceId, user.id, em);
        if (before === null) await activateWorkspaceMember(em, workspaceId, user.id, role, actorId);
        return {
          userId: user.id,
          user: created ? ('created' as const) : ('existing' as const),
          member: before === null ? ('created' as const) : ('existing' as const),
        };
      });
    } catch (err) {
      // a concurrent sign-up took the email: use that user
      if (isUniqueViolation(err, 'uq_users_email')) return this.ensureMember(workspaceId, actorId, input);
      throw err;
    }
  }

  /** The user's active workspace role, or null (through the workspace door). */
  private async workspaceRole(workspaceId: string, userId: string, em?: EntityManager): Promise<number | null> {
    const row = await this.workspaces.membership(workspaceId, userId, em);
    return row?.isActive ? row.role : null;
  }
}
