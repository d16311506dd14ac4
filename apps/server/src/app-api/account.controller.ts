import {
  APP_CONFIG,
  AppConfig,
  AuditActor,
  BearerAuth,
  CREDENTIAL_VERIFIER,
  CredentialVerifier,
  CurrentActor,
  CurrentPrincipal,
  Principal,
  Public,
  sessionCookieOf,
  UuidPipe,
} from '#common';
import {
  AccountSettingsService,
  LinkedAccountJson,
  NotificationPreferenceJson,
  NotificationPreferenceService,
  UserMeJson,
  UserProfileService,
} from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Patch, Req } from '@nestjs/common';
import type { Request } from 'express';
import { UpdateNotificationPreferencesDto } from './dto/profile.dto';

/**
 * The signed-in user's account settings beyond the profile (Plane 0.25.3 `plane/app/views/`:
 * `notification/base.py` UserNotificationPreferenceEndpoint; `user/base.py` UserEndpoint
 * `retrieve_instance_admin` and `deactivate`, AccountEndpoint).
 */
@Controller('users/me')
@BearerAuth()
export class AppAccountController {
  constructor(
    private readonly notificationPreferences: NotificationPreferenceService,
    private readonly account: AccountSettingsService,
  ) {}

  /** 200 Plane's `UserNotificationPreference` (made on first read, every switch on). */
  @Get('notification-preferences')
  notificationPrefs(@CurrentPrincipal() me: Principal): Promise<NotificationPreferenceJson> {
    return this.notificationPreferences.get(me.userId);
  }

  /** Partial update of `property_change`, `state_change`, `comment`, `mention`, `issue_completed` → 200; 422 a non-boolean. */
  @Patch('notification-preferences')
  updateNotificationPrefs(
    @CurrentPrincipal() me: Principal,
    @Body() body: UpdateNotificationPreferencesDto,
  ): Promise<NotificationPreferenceJson> {
    return this.notificationPreferences.update(me.userId, body);
  }

  /** 200 `{is_instance_admin}`. */
  @Get('instance-admin')
  instanceAdmin(@CurrentPrincipal() me: Principal): Promise<{ is_instance_admin: boolean }> {
    return this.account.instanceAdminStatus(me.userId);
  }

  /** The caller's linked OAuth accounts, a bare array (Plane's `AccountSerializer` without the provider's tokens). */
  @Get('accounts')
  accounts(@CurrentPrincipal() me: Principal): Promise<LinkedAccountJson[]> {
    return this.account.accounts(me.userId);
  }

  /** 200 one of the caller's linked accounts; 404 otherwise. */
  @Get('accounts/:account_id')
  linkedAccount(@CurrentPrincipal() me: Principal, @Param('account_id', UuidPipe) id: string) {
    return this.account.account(me.userId, id);
  }

  /** 204: unlinks one of the caller's accounts; 404 otherwise. */
  @Delete('accounts/:account_id')
  @HttpCode(204)
  async unlink(@CurrentPrincipal() me: Principal, @Param('account_id', UuidPipe) id: string): Promise<void> {
    await this.account.unlink(me.userId, id);
  }

  /**
   * 204: deactivates the caller's account and signs it out everywhere; 400
   * `DEACTIVATE_INSTANCE_ADMIN`, `DEACTIVATE_ONLY_PROJECT_ADMIN` or `DEACTIVATE_ONLY_WORKSPACE_ADMIN`.
   */
  @Delete()
  @HttpCode(204)
  async deactivate(@CurrentPrincipal() me: Principal, @CurrentActor() actor: AuditActor): Promise<void> {
    await this.account.deactivate(me.userId, actor);
  }
}

/**
 * `GET /api/users/session/` (Plane 0.25.3 `plane/app/views/user/base.py` UserSessionEndpoint,
 * `AllowAny`): `{is_authenticated: true, user}` (Plane's UserMe) for a valid Bearer access token
 * or web session cookie, else `{is_authenticated: false}`; never a 401.
 */
@Controller('users/session')
@Public()
export class AppUserSessionController {
  constructor(
    @Inject(CREDENTIAL_VERIFIER) private readonly credentials: CredentialVerifier,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly users: UserProfileService,
  ) {}

  @Get()
  async session(@Req() req: Request): Promise<{ is_authenticated: boolean; user?: UserMeJson }> {
    const bearer = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    const cookie = bearer ? undefined : sessionCookieOf(req, this.config);
    const principal = bearer
      ? await this.credentials.verifyAccessToken(bearer)
      : cookie
        ? await this.credentials.verifyWebSessionToken(cookie)
        : null;
    if (!principal) return { is_authenticated: false };
    return { is_authenticated: true, user: await this.users.me(principal.userId) };
  }
}
