import {
  ADMIN_SESSION_COOKIE,
  adminCookieOf,
  APP_CONFIG,
  AppConfig,
  AuthRateLimit,
  clearCookie,
  CSRF_COOKIE,
  issueCsrfToken,
  MeridianError,
  passesCsrfCheck,
  Public,
  setCookie,
  XSRF_COOKIE,
} from '#common';
import { InstanceAdminService } from '#domain';
import { Controller, Inject, Post, Redirect, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { beginFormFlow, readForm, WebFormError, WebFormErrorFilter } from '../shared/web-form';
import { AdminSignInDto, AdminSignUpDto } from './dto/instance.dto';
import { clientOf } from '../shared/client-info';

/** A form's checkbox or hidden boolean: "True"/"true"/"1"/"on" → true, "False"/"false"/"0"/"off" → false. */
function formBoolean(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const v = value.trim().toLowerCase();
  if (['true', '1', 'on'].includes(v)) return true;
  if (['false', '0', 'off', ''].includes(v)) return false;
  return value;
}

/**
 * The instance admin app's forms (`/api/instances/admins/{sign-up,sign-in,sign-out}/` posted as
 * `application/x-www-form-urlencoded`, routed here by `routeFormPosts`; Plane
 * `plane/license/api/views/admin.py`): CSRF token required (`csrfmiddlewaretoken`; a refusal is
 * logged and redirects with 5175 `ADMIN_AUTHENTICATION_FAILED`, see `formFlowOf`); 302 to `ADMIN_BASE_URL/general` with the HttpOnly `admin-session-id` cookie (the
 * admin access token, `ADMIN_SESSION_COOKIE_AGE` seconds at most), or back to `ADMIN_BASE_URL/`
 * with Plane's `error_code` and `error_message` (and `email`, `first_name`, `last_name`,
 * `company_name` on sign-up); a rate limit as 5900 `RATE_LIMIT_EXCEEDED`.
 */
@Controller('admins/web')
@Public()
@UseFilters(WebFormErrorFilter)
export class InstanceAdminWebController {
  constructor(
    private readonly admins: InstanceAdminService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /** The first set-up (see `POST /api/instances/admins/sign-up/`). */
  @Post('sign-up')
  @AuthRateLimit('sign-up')
  @Redirect()
  async signUp(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    beginFormFlow(req, this.config);
    const body = req.body as Record<string, unknown>;
    const form = await readForm(AdminSignUpDto, {
      ...body,
      is_telemetry_enabled: formBoolean(body?.is_telemetry_enabled),
    });
    if (form.missing.some((f) => ['email', 'password', 'first_name'].includes(f))) {
      throw new WebFormError('REQUIRED_ADMIN_EMAIL_PASSWORD_FIRST_NAME');
    }
    if (form.invalid.includes('email')) throw new WebFormError('INVALID_ADMIN_EMAIL');
    if (form.invalid.includes('password')) throw new WebFormError('INVALID_ADMIN_PASSWORD');
    if (form.invalid.length || form.missing.length) throw new WebFormError('REQUIRED_ADMIN_EMAIL_PASSWORD_FIRST_NAME');
    const result = await this.admins.setUp(form.value, clientOf(req));
    return this.signedIn(res, result.access_token, result.expires_in);
  }

  @Post('sign-in')
  @AuthRateLimit('sign-in')
  @Redirect()
  async signIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    beginFormFlow(req, this.config);
    const form = await readForm(AdminSignInDto, req.body);
    if (form.missing.length) throw new WebFormError('REQUIRED_ADMIN_EMAIL_PASSWORD');
    if (form.invalid.includes('email')) throw new WebFormError('INVALID_ADMIN_EMAIL');
    if (form.invalid.length) throw new WebFormError('ADMIN_AUTHENTICATION_FAILED');
    const result = await this.admins.signIn(form.value, clientOf(req));
    return this.signedIn(res, result.access_token, result.expires_in);
  }

  /**
   * The CSRF check first (403 `CSRF_FAILED`, the cookies kept, as Django refuses Plane's admin
   * sign-out), then ends the admin cookie's session on the server, deletes the cookies, 302 to the
   * admin app.
   */
  @Post('sign-out')
  @Redirect()
  async signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    if (!passesCsrfCheck(req, this.config)) throw new MeridianError('CSRF_FAILED');
    const cookie = adminCookieOf(req);
    if (cookie !== undefined) {
      const principal = await this.admins.verifyInstanceAdminToken(cookie);
      if (principal?.sessionId) await this.admins.signOut(principal.sessionId);
    }
    for (const name of [ADMIN_SESSION_COOKIE, CSRF_COOKIE, XSRF_COOKIE]) clearCookie(res, this.config, name);
    return { url: `${this.config.webSession.adminBaseUrl}/`, statusCode: 302 };
  }

  private signedIn(res: Response, token: string, expiresIn: number) {
    const maxAge = Math.min(expiresIn, this.config.webSession.adminCookieAgeSeconds);
    setCookie(res, this.config, ADMIN_SESSION_COOKIE, token, { maxAge });
    issueCsrfToken(res, this.config);
    return { url: `${this.config.webSession.adminBaseUrl}/general`, statusCode: 302 };
  }
}
