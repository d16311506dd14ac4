import { APP_CONFIG, AppConfig, InstanceAdminVerifier, MeridianError, Principal, randomToken, sha256 } from '#common';
import { Inject, Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { recordAudit } from '../kernel/audit';
import { verifyPassword } from '../kernel/password';
import type { ClientInfo } from '../auth';
import { isUniqueViolation } from '../kernel/db-errors';
import { UserProfileService } from '../user';
import type { User } from '../user';
import { WorkspaceService } from '../workspace';
import { InstanceSetupInput, setUpInstance } from './instance-setup';
import { InstanceRepository } from './instance.repository';
import { adminSessionUserView, adminUserView, instanceAdminView, instanceView } from './instance.view';

/** Tokens of an instance admin session; valid only on `/api/instances/`. */
export interface AdminTokens {
  access_token: string;
  refresh_token: string;
  token_type: 'Bearer';
  /** seconds until the access token expires (`INSTANCE_ADMIN_ACCESS_TOKEN_TTL`, default 3600) */
  expires_in: number;
  /** seconds until the session ends and the refresh token stops working (`INSTANCE_ADMIN_SESSION_TTL`, default 8 hours) */
  refresh_expires_in: number;
}

export type AdminSignInResult = AdminTokens & { user: ReturnType<typeof adminUserView> };

/**
 * Instance admins ("god mode", Plane `plane/license/api/views/admin.py`): the first set-up,
 * admin sign-in and sessions, and the list of admins. Admin tokens are a separate kind from user
 * tokens (table `instance_admin_sessions`): shorter-lived, accepted only by `@InstanceAdminAuth()`
 * routes, and dead as soon as their user is no longer an instance admin or is deactivated.
 */
@Injectable()
export class InstanceAdminService implements InstanceAdminVerifier {
  constructor(
    @InjectDataSource() private readonly dataSource: DataSource,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly instances: InstanceRepository,
    private readonly users: UserProfileService,
    private readonly workspaces: WorkspaceService,
  ) {}

  /**
   * `POST /api/instances/admins/sign-up/`: the first set-up (see `setUpInstance`), then an admin
   * session. 201 `{…tokens, user, instance}`; 403 `ADMIN_ALREADY_EXIST` once an admin exists.
   */
  async setUp(input: InstanceSetupInput, client: ClientInfo) {
    return this.dataSource.transaction(async (em) => {
      const { user, instance } = await setUpInstance(em, input);
      const tokens = await this.open(em, user, client);
      const workspacesExist = await this.workspaces.anyLive(em);
      return { ...tokens, user: adminUserView(user), instance: instanceView(instance, workspacesExist) };
    });
  }

  /**
   * `POST /api/instances/admins/sign-in/`: 200 with admin tokens. A wrong password, an unknown
   * email, a deactivated user and a user who is not an instance admin all get the same 401
   * `ADMIN_AUTHENTICATION_FAILED`. Before the first set-up: 403 `INSTANCE_NOT_CONFIGURED`.
   */
  async signIn(input: { email: string; password: string }, client: ClientInfo): Promise<AdminSignInResult> {
    const instance = await this.instances.ensureInstance(this.instances.manager);
    if (!instance.isSetupDone) throw new MeridianError('INSTANCE_NOT_CONFIGURED');
    const user = await this.users.userByEmail(input.email.trim().toLowerCase());
    const ok = await verifyPassword(user?.passwordHash ?? null, input.password);
    const isAdmin = user ? await this.instances.isAdmin(this.instances.manager, user.id) : false;
    const actor = {
      userId: user?.id ?? null,
      email: user?.email ?? input.email.trim().toLowerCase().slice(0, 255),
      apiTokenId: null,
      ipAddress: client.ipAddress ?? null,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
    };
    if (!user || !ok || !user.isActive || !isAdmin) {
      // a refusal changes nothing else: its row has a short transaction of its own
      await this.dataSource.transaction((em) =>
        recordAudit(em, {
          event: 'auth.sign_in.failed',
          actor,
          target: user ? { type: 'user', id: user.id } : null,
          metadata: { method: 'password', site: 'instance_admin', reason: 'ADMIN_AUTHENTICATION_FAILED' },
        }),
      );
      throw new MeridianError('ADMIN_AUTHENTICATION_FAILED');
    }
    const tokens = await this.dataSource.transaction(async (em) => {
      const issued = await this.open(em, user, client);
      await recordAudit(em, {
        event: 'auth.sign_in.succeeded',
        actor,
        target: { type: 'user', id: user.id },
        metadata: { method: 'password', site: 'instance_admin' },
      });
      return issued;
    });
    return { ...tokens, user: adminUserView(user) };
  }

  /**
   * `POST /api/instances/admins/token/refresh/`: rotates both tokens of a live admin session.
   * An unknown, used, expired or revoked refresh token is a 401 `INVALID_REFRESH_TOKEN`.
   */
  async refresh(refreshToken: string): Promise<AdminTokens> {
    return this.dataSource.transaction(async (em) => {
      const session = await this.instances.findLiveAdminSessionByRefreshDigestForUpdate(em, sha256(refreshToken));
      if (!session || !(await this.stillAdmin(em, session.userId))) throw new MeridianError('INVALID_REFRESH_TOKEN');
      const access = randomToken(32);
      const refresh = randomToken(32);
      const accessTtl = this.config.instanceAdmin.accessTokenTtlSeconds;
      await this.instances.updateAdminSession(em, session.id, {
        accessDigest: sha256(access),
        refreshDigest: sha256(refresh),
        accessExpiresAt: new Date(Math.min(Date.now() + accessTtl * 1000, session.expiresAt.getTime())),
      });
      return this.tokens(access, refresh, session.expiresAt);
    });
  }

  /** `POST /api/instances/admins/sign-out/`: ends the caller's admin session (both tokens). */
  async signOut(sessionId: string): Promise<void> {
    await this.instances.revokeAdminSession(sessionId);
  }

  /**
   * `INSTANCE_ADMIN_VERIFIER`: the admin principal behind an admin access token (a live session of
   * a user who is still an instance admin and active), or null.
   */
  async verifyInstanceAdminToken(token: string): Promise<Principal | null> {
    const row = await this.instances.findLiveAdminSessionByAccessDigest(sha256(token));
    if (!row) return null;
    const user = await this.users.userById(row.user_id);
    if (!user?.isActive) return null;
    return { userId: row.user_id, email: user.email, via: 'instance-admin', sessionId: row.session_id };
  }

  /** `GET /api/instances/admins/me/`: the signed-in admin's user. */
  async me(userId: string) {
    const user = await this.users.userById(userId);
    if (!user) throw new MeridianError('NOT_FOUND');
    return adminUserView(user);
  }

  /**
   * `GET /api/instances/admins/session/` (Plane `plane/license/api/views/admin.py`
   * InstanceAdminUserSessionEndpoint): `{is_authenticated: true, user}` (Plane's
   * `InstanceAdminMeSerializer`) for a live admin access token, else `{is_authenticated: false}`.
   */
  async session(token: string | undefined) {
    const principal = token ? await this.verifyInstanceAdminToken(token) : null;
    if (!principal) return { is_authenticated: false };
    const user = await this.users.userById(principal.userId);
    if (!user) return { is_authenticated: false };
    return { is_authenticated: true, user: adminSessionUserView(user) };
  }

  /** `GET /api/instances/admins/`: every instance admin, oldest first, with `user_detail`. */
  async list() {
    const admins = await this.instances.listAdmins();
    const users = new Map((await this.users.liveUsers(admins.map((a) => a.userId))).map((u) => [u.id, u]));
    return admins.map((a) => instanceAdminView(a, users.get(a.userId)!));
  }

  /**
   * `POST /api/instances/admins/` `{email}`: makes an existing, active user an instance admin.
   * 201 with the admin; 404 `USER_DOES_NOT_EXIST`; 409 `ADMIN_USER_ALREADY_EXIST`.
   */
  async add(email: string, actorId: string) {
    const found = await this.users.userByEmail(email.trim().toLowerCase());
    const user = found?.isActive ? found : null;
    if (!user) throw new MeridianError('USER_DOES_NOT_EXIST');
    const instance = await this.instances.ensureInstance(this.instances.manager);
    try {
      const admin = await this.instances.saveAdmin({
        userId: user.id,
        instanceId: instance.id,
        role: 20,
        isVerified: true,
        createdById: actorId,
      });
      return instanceAdminView(admin, user);
    } catch (err) {
      if (isUniqueViolation(err, 'uq_instance_admins_user')) throw new MeridianError('ADMIN_USER_ALREADY_EXIST');
      throw err;
    }
  }

  /**
   * `DELETE /api/instances/admins/{id}/`: removes an instance admin and ends their admin sessions.
   * 404 `NOT_FOUND` for an unknown id; 409 `LAST_INSTANCE_ADMIN` for the only one left.
   */
  async remove(adminId: string): Promise<void> {
    await this.dataSource.transaction(async (em) => {
      const instance = await this.instances.ensureInstance(em);
      await this.instances.lockInstance(em, instance.id);
      const admin = await this.instances.findAdmin(em, adminId);
      if (!admin) throw new MeridianError('NOT_FOUND');
      if ((await this.instances.countAdmins(em)) <= 1) throw new MeridianError('LAST_INSTANCE_ADMIN');
      await this.instances.deleteAdmin(em, admin);
    });
  }

  private async stillAdmin(em: EntityManager, userId: string): Promise<boolean> {
    const user = await this.users.userById(userId, em);
    return !!user?.isActive && (await this.instances.isAdmin(em, userId));
  }

  private async open(em: EntityManager, user: User, client: ClientInfo): Promise<AdminTokens> {
    const access = randomToken(32);
    const refresh = randomToken(32);
    const now = Date.now();
    const expiresAt = new Date(now + this.config.instanceAdmin.sessionTtlSeconds * 1000);
    await this.instances.insertAdminSession(em, {
      userId: user.id,
      accessDigest: sha256(access),
      accessExpiresAt: new Date(
        Math.min(now + this.config.instanceAdmin.accessTokenTtlSeconds * 1000, expiresAt.getTime()),
      ),
      refreshDigest: sha256(refresh),
      expiresAt,
      userAgent: client.userAgent?.slice(0, 512) ?? null,
      ipAddress: client.ipAddress ?? null,
    });
    return this.tokens(access, refresh, expiresAt);
  }

  private tokens(access: string, refresh: string, expiresAt: Date): AdminTokens {
    const left = Math.max(0, Math.round((expiresAt.getTime() - Date.now()) / 1000));
    return {
      access_token: access,
      refresh_token: refresh,
      token_type: 'Bearer',
      expires_in: Math.min(this.config.instanceAdmin.accessTokenTtlSeconds, left),
      refresh_expires_in: left,
    };
  }
}
