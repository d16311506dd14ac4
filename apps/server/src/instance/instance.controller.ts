import {
  AuditActor,
  CurrentActor,
  APP_PAGING,
  adminCookieOf,
  AuthRateLimit,
  CurrentPrincipal,
  InstanceAdminAuth,
  MeridianError,
  PageQuery,
  PageRequest,
  Principal,
  Public,
  UuidPipe,
} from '#common';
import {
  ConfigurationEntry,
  InstanceAdminService,
  InstanceService,
  InstanceSettings,
  MailService,
  WorkspaceService,
} from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Patch, Post, Query, Req } from '@nestjs/common';
import type { Request } from 'express';
import {
  AddInstanceAdminDto,
  AdminRefreshDto,
  AdminSignInDto,
  AdminSignUpDto,
  EmailCheckDto,
  InstanceCreateWorkspaceDto,
  UpdateInstanceDto,
} from './dto/instance.dto';
import { clientOf } from '../shared/client-info';

/**
 * The instance (`/api/instances/`, Plane `plane/license/api/views/instance.py` InstanceEndpoint): its
 * public description and first set-up. Admin tokens come from the set-up or `admins/sign-in/`.
 */
@Controller()
export class InstanceController {
  constructor(
    private readonly instances: InstanceService,
    private readonly admins: InstanceAdminService,
  ) {}

  /**
   * Public. 200 `{instance: {id, instance_name, current_version: "0.25.3" (Plane's),
   * meridian_version (package.json), edition, is_setup_done,
   * workspaces_exist, …}, config: {enable_signup, is_email_password_enabled, is_magic_login_enabled,
   * is_google_enabled, is_github_enabled, is_gitlab_enabled, is_workspace_creation_disabled,
   * is_smtp_configured, file_size_limit, …}}`: flags computed from the configuration, no secrets.
   */
  @Get()
  @Public()
  info() {
    return this.instances.info();
  }

  /**
   * Public, once: the first set-up. 201 `{access_token, refresh_token, token_type, expires_in,
   * refresh_expires_in, user, instance}` (admin tokens). 403 `ADMIN_ALREADY_EXIST` once an instance
   * admin exists; 401 `ADMIN_AUTHENTICATION_FAILED` for an existing user's email with another password;
   * 422 on bad input; 429 past `AUTH_SIGN_UP_RATE_LIMIT` requests per client address.
   */
  @Post('admins/sign-up')
  @Public()
  @AuthRateLimit('sign-up')
  signUp(@Body() body: AdminSignUpDto, @Req() req: Request) {
    return this.admins.setUp(body, clientOf(req));
  }

  /**
   * Public. 200 with admin tokens and `user`; 401 `ADMIN_AUTHENTICATION_FAILED`; 403
   * `INSTANCE_NOT_CONFIGURED` before set-up; 429 as password sign-in (`/auth/sign-in/`: per address,
   * failures per (email, address) and per email, counted together with it).
   */
  @Post('admins/sign-in')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('sign-in')
  signIn(@Body() body: AdminSignInDto, @Req() req: Request) {
    return this.admins.signIn(body, clientOf(req));
  }

  /** Public. 200 with a new admin token pair (both rotate); 401 `INVALID_REFRESH_TOKEN`. */
  @Post('admins/token/refresh')
  @Public()
  @HttpCode(200)
  refresh(@Body() body: AdminRefreshDto) {
    return this.admins.refresh(body.refresh_token);
  }

  /**
   * Public: the admin app's session check. 200 `{is_authenticated: true, user}` for a live admin
   * access token (`Authorization: Bearer` or the `admin-session-id` cookie), else 200
   * `{is_authenticated: false}` (a user token, an expired or unknown one included).
   */
  @Get('admins/session')
  @Public()
  session(@Req() req: Request) {
    const header = /^bearer\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '');
    return this.admins.session(header ? header[1] : adminCookieOf(req));
  }

  /** Public, as Plane's `SignUpScreenVisitedEndpoint`: 204; `is_signup_screen_visited` becomes true. */
  @Post('admins/sign-up-screen-visited')
  @Public()
  @AuthRateLimit('address')
  @HttpCode(204)
  async signUpScreenVisited(): Promise<void> {
    await this.instances.markSignUpScreenVisited();
  }
}

/** Instance administration (`/api/instances/`): admin tokens only (`@InstanceAdminAuth()`). */
@Controller()
@InstanceAdminAuth()
export class InstanceAdminController {
  constructor(
    private readonly instances: InstanceService,
    private readonly admins: InstanceAdminService,
    private readonly settings: InstanceSettings,
    private readonly mail: MailService,
    private readonly workspaceService: WorkspaceService,
  ) {}

  /**
   * `{receiver_email}`: sends Plane's sample message through the configured SMTP settings. 200
   * `{message: "Email successfully sent."}`; 400 `SMTP_CHECK_FAILED` naming the cause; 422 for a
   * bad address.
   */
  @Post('email-credentials-check')
  @HttpCode(200)
  emailCheck(@Body() body: EmailCheckDto) {
    return this.mail.sendTest(body.receiver_email);
  }

  /**
   * Plane's `InstanceWorkSpaceEndpoint.post`: 201 with the new workspace, the signed-in admin its
   * owner and Admin (`DISABLE_WORKSPACE_CREATION` does not apply); 409 `WORKSPACE_SLUG_TAKEN`; 422.
   */
  @Post('workspaces')
  createWorkspace(@CurrentPrincipal() me: Principal, @Body() body: InstanceCreateWorkspaceDto) {
    return this.workspaceService.create(me.userId, body, true);
  }

  /** 200: updates `instance_name`, `domain`, `is_telemetry_enabled`, `is_support_required`; returns the instance. */
  @Patch()
  update(@Body() body: UpdateInstanceDto, @CurrentActor() actor: AuditActor) {
    return this.instances.update(body, actor);
  }

  /** 204: ends the caller's admin session (its access and refresh tokens). */
  @Post('admins/sign-out')
  @HttpCode(204)
  async signOut(@CurrentPrincipal() me: Principal): Promise<void> {
    await this.admins.signOut(me.sessionId!);
  }

  /** 200: the signed-in admin's user `{id, email, first_name, last_name, display_name, …}`. */
  @Get('admins/me')
  me(@CurrentPrincipal() me: Principal) {
    return this.admins.me(me.userId);
  }

  /** 200: every instance admin `[{id, user, instance, role, is_verified, user_detail, …}]` (a bare array, as Plane). */
  @Get('admins')
  listAdmins() {
    return this.admins.list();
  }

  /** 201: makes an existing user an instance admin; 404 `USER_DOES_NOT_EXIST`; 409 `ADMIN_USER_ALREADY_EXIST`. */
  @Post('admins')
  addAdmin(@CurrentPrincipal() me: Principal, @Body() body: AddInstanceAdminDto) {
    return this.admins.add(body.email, me.userId);
  }

  /** 204; 404 `NOT_FOUND`; 409 `LAST_INSTANCE_ADMIN`. The removed admin's tokens stop working at once. */
  @Delete('admins/:admin_id')
  @HttpCode(204)
  async removeAdmin(@Param('admin_id', UuidPipe) adminId: string): Promise<void> {
    await this.admins.remove(adminId);
  }

  /**
   * 200: every configuration key `[{id, key, value, category, is_encrypted, is_set, source, …}]`;
   * secrets read `"********"` once set.
   */
  @Get('configurations')
  configurations(): Promise<ConfigurationEntry[]> {
    return this.settings.list();
  }

  /**
   * `{"KEY": "value" | null, …}`: sets values (null = back to the environment / default), effective
   * from the next request. 200 with the changed keys as GET shows them; 422 `VALIDATION_ERROR` for
   * an unknown key or a bad value (nothing is changed then).
   */
  @Patch('configurations')
  updateConfigurations(
    @CurrentPrincipal() me: Principal,
    @CurrentActor() actor: AuditActor,
    @Body() body: unknown,
  ): Promise<ConfigurationEntry[]> {
    if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new MeridianError('MALFORMED_REQUEST');
    return this.settings.update(body as Record<string, unknown>, me.userId, actor);
  }

  /**
   * Every workspace of the instance in the cursor envelope, with `owner`, `total_members` and
   * `total_projects`; `?search=` filters by name or slug.
   */
  @Get('workspaces')
  workspaces(@PageQuery(APP_PAGING) page: PageRequest, @Query('search') search?: unknown) {
    if (search !== undefined && typeof search !== 'string') throw new MeridianError('INVALID_QUERY_PARAMETER');
    return this.instances.listWorkspaces(page, search);
  }

  /** 200 `{status: true}` when `?slug=` is free for a new workspace; 400 `INVALID_QUERY_PARAMETER` without one. */
  @Get('workspace-slug-check')
  async slugCheck(@Query('slug') slug?: unknown) {
    if (typeof slug !== 'string' || slug.trim() === '') {
      throw new MeridianError('INVALID_QUERY_PARAMETER', 'The slug query parameter is required.');
    }
    return { status: await this.instances.isSlugAvailable(slug.trim()) };
  }
}
