import { MeridianError, ROLE, validationError } from '#common';
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { isUniqueViolation } from '../kernel/db-errors';
import { ProjectMemberService } from '../project';
import { UserProfileService } from '../user';
import { activateWorkspaceMember, WorkspaceService } from '../workspace';
import type { Workspace } from '../workspace';
import { ExternalKind, ImporterRepository, relatedPair } from './importer.repository';

/** Emails are stored trimmed and lower-cased (the auth room's rule). */
const normaliseEmail = (email: string) => email.trim().toLowerCase();
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * What an import (`meridian import plane`) needs beyond the features' own services: the target
 * workspace and the importing admin, the origin records (`external_source` + `external_id`) already
 * present, and the people of the source, matched by email.
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
    private readonly repo: ImporterRepository,
    private readonly workspaces: WorkspaceService,
    private readonly users: UserProfileService,
    private readonly projectMembers: ProjectMemberService,
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

  /** `external_id` → id of the objects of a kind that came from `source` (see `ImporterRepository.externalIds`). */
  externalIds(kind: ExternalKind, scopeId: string, source: string): Promise<Map<string, string>> {
    return this.repo.externalIds(kind, scopeId, source);
  }

  namesOf(kind: 'state' | 'label', projectId: string) {
    return this.repo.namesOf(kind, projectId);
  }

  linkKeys(projectId: string) {
    return this.repo.linkKeys(projectId);
  }

  planningIssueIds(kind: 'cycle' | 'module', id: string) {
    return this.repo.planningIssueIds(kind, id);
  }

  relatedPairs(projectId: string) {
    return this.repo.relatedPairs(projectId);
  }

  relatedPair(a: string, b: string) {
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
