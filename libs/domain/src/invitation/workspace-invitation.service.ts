import {
  APP_CONFIG,
  AppConfig,
  AuditActor,
  MeridianError,
  Page,
  PageRequest,
  randomToken,
  sha256,
  validationError,
} from '#common';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { auditActorById, recordAudit } from '../kernel/audit';
import { MailService } from '../mail';
import { UserProfileService } from '../user';
import { activateWorkspaceMember, WorkspaceService } from '../workspace';
import type { Workspace } from '../workspace';
import { findAcceptedForEmail, InvitationRepository, updateInvitation } from './invitation.repository';
import { WorkspaceInvitation } from './workspace-invitation.entity';
import { InvitationJson, invitationView } from './workspace-invitation.view';

/** As `normaliseEmail` of the account service (not imported: that module imports the session service, which imports this one). */
const normaliseEmail = (email: string) => email.trim().toLowerCase();

export interface InviteInput {
  emails: Array<{ email: string; role?: number }>;
  message?: string;
}

export interface JoinInput {
  email: string;
  accepted: boolean;
  token: string;
}

/** The answer to an invitation made while no email can be sent (production without SMTP). */
export const NOT_EMAILED =
  'Invitations created, but no email was sent: no mail server (SMTP) is configured. The invitees accept them after signing in with the invited email address.';

/** The inviter, as invitation rules need it. */
export interface Inviter {
  userId: string;
  email: string;
  /** the inviter's workspace role */
  role: number;
  /** who and from where, for the audit log (default: `userId` without an address) */
  audit?: AuditActor;
}

/**
 * Workspace invitations (Plane `plane/app/views/workspace/invite.py`): invite by email with a
 * role, list, retrieve, change role, revoke; answer through the emailed link (public, with the
 * link's secret) or, signed in, accept several at once.
 *
 * Each invitation email carries `WEB_URL/workspace-invitations/?invitation_id=…&email=…&slug=…&token=…`;
 * the token is 256 random bits, stored as SHA-256 and renewed on every (re)send.
 */
@Injectable()
export class WorkspaceInvitationService {
  private readonly logger = new Logger('Invitations');

  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly mail: MailService,
    private readonly invitations: InvitationRepository,
    private readonly workspaces: WorkspaceService,
    private readonly users: UserProfileService,
  ) {}

  /**
   * Invites each email with its role (default Guest 5) and sends one email each. 403 when a role is
   * above the inviter's own; 409 `ALREADY_WORKSPACE_MEMBER` (with `workspace_users`) when some
   * emails belong to active members; 422 on duplicates or bad emails. Inviting an email that already
   * has a pending invitation updates its role and sends a fresh link.
   *
   * In production without SMTP the invitations are created but no email is sent and no link is
   * logged; the answer's `message` says so (`NOT_EMAILED`). The invitees accept them signed in
   * (`POST /api/users/me/workspaces/invitations/`), which needs no link.
   */
  async invite(workspaceId: string, inviter: Inviter, input: InviteInput): Promise<{ message: string }> {
    const wanted = new Map<string, number>();
    for (const entry of input.emails) {
      const email = normaliseEmail(entry.email);
      if (wanted.has(email)) throw validationError({ emails: [`${email} is listed more than once.`] });
      wanted.set(email, entry.role ?? 5);
    }
    if (wanted.size === 0) throw validationError({ emails: ['Emails are required.'] });
    if ([...wanted.values()].some((role) => role > inviter.role)) {
      throw new MeridianError('PERMISSION_DENIED', 'You cannot invite a user with a role above your own.');
    }
    const emails = [...wanted.keys()];
    const members = await this.workspaces.activeRolesByEmail(workspaceId, emails);
    if (members.size) {
      throw new MeridianError('ALREADY_WORKSPACE_MEMBER', undefined, {
        workspace_users: [...members.keys()].sort(),
      });
    }

    const workspace = await this.workspaces.liveOrFail(workspaceId);
    const sent: Array<{ invitation: WorkspaceInvitation; token: string }> = [];
    await this.dataSource.transaction(async (em) => {
      const existing = await this.invitations.findForEmails(em, workspaceId, emails);
      const byEmail = new Map(existing.map((i) => [i.email, i]));
      for (const [email, role] of wanted) {
        const token = randomToken(32);
        const previous = byEmail.get(email);
        const fields = {
          role,
          message: input.message ?? '',
          tokenDigest: sha256(token),
          accepted: false,
          respondedAt: null,
          updatedById: inviter.userId,
        };
        const invitation = previous
          ? em.merge(WorkspaceInvitation, previous, fields)
          : em.create(WorkspaceInvitation, { ...fields, workspaceId, email, createdById: inviter.userId });
        const saved = await this.invitations.save(em, invitation);
        sent.push({ invitation: saved, token });
        await recordAudit(em, {
          event: 'member.invited',
          actor: inviter.audit ?? auditActorById(inviter.userId, inviter.email),
          workspaceId,
          target: { type: 'workspace_invitation', id: saved.id },
          metadata: { email, role },
        });
      }
    });
    if (!(await this.mail.canDeliver())) {
      // production without SMTP: the links cannot reach anyone and are never logged
      this.logger.warn(
        { workspace: workspace.id, invitations: sent.map((s) => s.invitation.id) },
        'No SMTP server configured; invitation emails not sent',
      );
      return { message: NOT_EMAILED };
    }
    for (const { invitation, token } of sent) await this.sendInvitation(workspace, invitation, token, inviter.email);
    return { message: 'Emails sent successfully' };
  }

  /** Live invitations of the workspace, oldest first. */
  async list(workspaceId: string, page: PageRequest): Promise<Page<InvitationJson>> {
    const workspace = await this.workspaces.liveOrFail(workspaceId);
    return (await this.invitations.listPageInWorkspace(workspaceId, page)).map((i) => invitationView(i, workspace));
  }

  /** One invitation of the workspace; another workspace's id is a 404 `INVITATION_NOT_FOUND`. */
  async get(workspaceId: string, id: string): Promise<InvitationJson> {
    const { invitation, workspace } = await this.find(workspaceId, id);
    return invitationView(invitation, workspace);
  }

  /** Changes the role of a pending invitation; 403 above the caller's own role. */
  async updateRole(workspaceId: string, inviter: Inviter, id: string, role: number): Promise<InvitationJson> {
    const { invitation, workspace } = await this.find(workspaceId, id);
    if (role > inviter.role || invitation.role > inviter.role) {
      throw new MeridianError('PERMISSION_DENIED', 'You cannot give or change a role above your own.');
    }
    await this.invitations.update(null, id, { role, updatedById: inviter.userId });
    return invitationView(
      { ...invitation, role, updatedById: inviter.userId, updatedAt: new Date() } as WorkspaceInvitation,
      workspace,
    );
  }

  /** Revokes (soft-deletes) an invitation: its link stops working. */
  async revoke(workspaceId: string, id: string): Promise<void> {
    await this.find(workspaceId, id);
    await this.invitations.update(null, id, { deletedAt: new Date() });
  }

  /** Public: the invitation behind an emailed link; a wrong slug, id or token is a 404 `INVITATION_NOT_FOUND`. */
  async getByLink(slug: string, id: string, token: string): Promise<InvitationJson> {
    const { invitation, workspace } = await this.findByLink(slug, id, token);
    return invitationView(invitation, workspace);
  }

  /**
   * Public: answers an invitation through its emailed link (Plane's join, plus the link's secret).
   * 403 `INVITATION_EMAIL_MISMATCH` when `email` is not the invited one; 400
   * `INVITATION_ALREADY_RESPONDED` when answered before. Accepted with an existing account: the
   * membership is created or reactivated with the invitation's role and the invitation is deleted.
   * Accepted without an account yet: the invitation is kept as accepted; the user joins after
   * signing up, through `POST /api/users/me/workspaces/invitations/`. Declined: kept as declined.
   */
  async join(slug: string, id: string, input: JoinInput): Promise<{ message: string }> {
    const { invitation, workspace } = await this.findByLink(slug, id, input.token);
    if (normaliseEmail(input.email) !== invitation.email) throw new MeridianError('INVITATION_EMAIL_MISMATCH');
    if (invitation.respondedAt) throw new MeridianError('INVITATION_ALREADY_RESPONDED');
    if (!input.accepted) {
      await this.invitations.update(null, id, { accepted: false, respondedAt: new Date() });
      return { message: 'Workspace Invitation was not accepted' };
    }
    await this.dataSource.transaction(async (em) => {
      const found = await this.users.userByEmail(invitation.email, em);
      const user = found?.isActive ? found : null;
      if (user) {
        await activateWorkspaceMember(em, workspace.id, user.id, invitation.role, invitation.createdById);
        await this.invitations.update(em, id, { accepted: true, respondedAt: new Date(), deletedAt: new Date() });
      } else {
        await this.invitations.update(em, id, { accepted: true, respondedAt: new Date() });
      }
    });
    return { message: 'Workspace Invitation Accepted' };
  }

  /** Live invitations addressed to the caller's email, in live workspaces, oldest first. */
  async listForEmail(email: string, page: PageRequest): Promise<Page<InvitationJson>> {
    return (await this.invitations.listPageForEmail(normaliseEmail(email), page)).map((i) =>
      invitationView(i, i.workspace!),
    );
  }

  /**
   * Accepts several of the caller's invitations at once: each becomes an active membership with
   * the invitation's role (a former membership is reactivated) and is deleted, in one transaction.
   * Ids that are not live invitations for the caller's email (declined ones included) are a 404
   * `INVITATION_NOT_FOUND` and nothing is accepted.
   */
  async acceptMine(user: { userId: string; email: string }, ids: string[]): Promise<void> {
    const unique = [...new Set(ids.map((i) => i.toLowerCase()))];
    await this.dataSource.transaction(async (em) => {
      const candidates = await this.invitations.findPendingOrAcceptedForEmail(em, unique, normaliseEmail(user.email));
      const live = new Set(
        (
          await this.workspaces.liveWorkspaces(
            candidates.map((i) => i.workspaceId),
            em,
          )
        ).map((w) => w.id),
      );
      const found = candidates.filter((i) => live.has(i.workspaceId));
      if (found.length !== unique.length) throw new MeridianError('INVITATION_NOT_FOUND');
      const now = new Date();
      for (const inv of found) {
        await activateWorkspaceMember(em, inv.workspaceId, user.userId, inv.role, inv.createdById);
        await this.invitations.update(em, inv.id, {
          accepted: true,
          respondedAt: inv.respondedAt ?? now,
          deletedAt: now,
        });
      }
    });
  }

  // ---- for the member room (the user's settings, a workspace deleted)

  /** How many unanswered invitations of live workspaces go to `email` (Plane's `invites` of `users/me/settings/`); in the caller's transaction when `em` is given. */
  countPendingForEmail(email: string, em: EntityManager = this.dataSource.manager): Promise<number> {
    return this.invitations.countPendingForEmail(em, email);
  }

  /** Soft-deletes the workspace's live invitations (`deleted_at` = `now`: their links stop working), in the caller's transaction. */
  deleteAllInWorkspace(workspaceId: string, now: Date, em: EntityManager): Promise<void> {
    return this.invitations.deleteAllInWorkspace(em, workspaceId, now);
  }

  private async find(workspaceId: string, id: string) {
    const invitation = await this.invitations.findInWorkspace(workspaceId, id);
    const workspace = invitation && (await this.workspaces.findLive(workspaceId));
    if (!invitation || !workspace) throw new MeridianError('INVITATION_NOT_FOUND');
    return { invitation, workspace };
  }

  private async findByLink(slug: string, id: string, token: string) {
    const workspace = await this.workspaces.findLiveBySlug(slug);
    const invitation = workspace && (await this.invitations.findByDigest(workspace.id, id, sha256(token)));
    if (!workspace || !invitation) throw new MeridianError('INVITATION_NOT_FOUND');
    return { invitation, workspace };
  }

  private async sendInvitation(
    workspace: Workspace,
    invitation: WorkspaceInvitation,
    token: string,
    inviterEmail: string,
  ) {
    const query = new URLSearchParams({
      invitation_id: invitation.id,
      email: invitation.email,
      slug: workspace.slug,
      token,
    });
    const link = `${this.config.webUrl}/workspace-invitations/?${query}`;
    const text = [
      `${inviterEmail} has invited you to join the workspace "${workspace.name}" on Meridian.`,
      invitation.message ? `\n${invitation.message}\n` : '',
      `Accept or decline the invitation: ${link}`,
    ].join('\n');
    try {
      await this.mail.send({
        to: invitation.email,
        subject: `${inviterEmail} invited you to join ${workspace.name} on Meridian`,
        text,
      });
    } catch (err) {
      // the invitation stands; the inviter can send it again
      this.logger.error(
        { invitation: invitation.id, err: (err as Error).message },
        'Could not send the invitation email',
      );
    }
  }

  // ---- for the auth room's sign-in and deactivation

  /**
   * Whether a live, unanswered invitation to `email` (normalised, lower-case) exists in any
   * workspace: an invitation-only SSO connection (OIDC, SAML, LDAP) creates the account then.
   */
  hasPendingFor(email: string): Promise<boolean> {
    return this.invitations.hasPendingFor(email);
  }

  /**
   * Soft-deletes every invitation to `email` (lower-cased as invitations store it), in the caller's
   * transaction when `em` is given (Plane's `UserEndpoint.deactivate`).
   */
  async deleteInvitationsTo(email: string, em: EntityManager = this.dataSource.manager): Promise<void> {
    await this.invitations.softDeleteTo(em, email.toLowerCase());
  }
}

/**
 * Plane's sign-in effect (`plane/authentication/utils/workspace_project_join.py`): invitations to
 * `email` that were accepted through their link before the account existed become active memberships
 * with their role, and are deleted. Called when a session opens (sign-up and every sign-in), in that
 * transaction.
 */
export async function joinAcceptedInvitations(em: EntityManager, userId: string, email: string): Promise<void> {
  const accepted = await findAcceptedForEmail(em, normaliseEmail(email));
  const now = new Date();
  for (const inv of accepted) {
    await activateWorkspaceMember(em, inv.workspaceId, userId, inv.role, inv.createdById);
    await updateInvitation(em, inv.id, { deletedAt: now });
  }
}
