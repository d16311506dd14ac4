import { APP_CONFIG, AppConfig, clearCookie, MeridianError, Public, requestCookies, setCookie } from '#common';
import {
  OIDC_FLOW_COOKIE,
  OIDC_SESSION_COOKIE,
  OidcService,
  SessionService,
  SsoConnectionService,
  SsoSite,
} from '#domain';
import { Controller, Get, Inject, Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientOf } from '../shared/client-info';
import { safeNextPath } from '../shared/web-form';
import { ssoFailureUrl, ssoSignedIn, startOidc } from './sso-redirect';

/**
 * OpenID Connect sign-in through an SSO connection (docs/sso-oidc.md). Plane's web app reaches it
 * by posting its sign-in form with an email of a connection's domain (the form routes redirect
 * here, see `WebAuthController`); these routes also serve a direct link.
 *
 * - `GET /auth/oidc/{connection_id}/?next_path=&email=` (web app) and
 *   `GET /auth/spaces/oidc/{connection_id}/` (boards' app): 302 to the provider (authorization code,
 *   PKCE S256, `state`, `nonce`, `login_hint` = email), with the sealed flow cookie
 *   (`meridian_oidc_flow`, 10 minutes);
 * - `GET /auth/oidc/callback/` (the one redirect URI of every connection): the session cookie as any
 *   sign-in, a fresh CSRF token and `meridian_oidc_session` (for the provider's sign-out), then 302 to
 *   `APP_BASE_URL/<next_path or landing>` or `SPACE_BASE_URL<next_path>`;
 * - every failure: no session, 302 to the sign-in page with Plane's `error_code` and `error_message`
 *   (`ssoFailureUrl`) and Meridian's code in `sso_error`: `SSO_NOT_CONFIGURED`,
 *   `SSO_DISCOVERY_FAILED`, `OIDC_STATE_MISMATCH`, `OIDC_NONCE_MISMATCH`, `OIDC_PROVIDER_ERROR`,
 *   `INVALID_EMAIL`, `SSO_INVITATION_REQUIRED`, `USER_ACCOUNT_DEACTIVATED`.
 */
@Controller()
@Public()
export class OidcController {
  constructor(
    private readonly oidc: OidcService,
    private readonly connections: SsoConnectionService,
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('oidc/callback')
  async callback(@Req() req: Request, @Res() res: Response): Promise<void> {
    const cookie = requestCookies(req)[OIDC_FLOW_COOKIE] ?? null;
    const known = this.oidc.flowOf(cookie);
    clearCookie(res, this.config, OIDC_FLOW_COOKIE);
    const query = req.originalUrl.includes('?') ? req.originalUrl.slice(req.originalUrl.indexOf('?') + 1) : '';
    try {
      const done = await this.oidc.finish(query, cookie, clientOf(req));
      const maxAge = this.config.webSession.cookieAgeSeconds;
      setCookie(res, this.config, OIDC_SESSION_COOKIE, done.sessionCookie, { maxAge });
      res.redirect(302, await ssoSignedIn(res, this.config, this.sessions, done));
    } catch (err) {
      if (!(err instanceof MeridianError)) throw err;
      res.redirect(302, ssoFailureUrl(this.config, known?.site ?? 'app', err, safeNextPath(known?.next ?? undefined)));
    }
  }

  @Get('oidc/:connection_id')
  start(@Param('connection_id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.begin('app', id, req, res);
  }

  @Get('spaces/oidc/:connection_id')
  spaceStart(@Param('connection_id') id: string, @Req() req: Request, @Res() res: Response) {
    return this.begin('space', id, req, res);
  }

  private async begin(site: SsoSite, id: string, req: Request, res: Response): Promise<void> {
    const next = safeNextPath(typeof req.query.next_path === 'string' ? req.query.next_path : undefined);
    const email = typeof req.query.email === 'string' ? req.query.email.trim().slice(0, 255) : undefined;
    try {
      const connection = await this.connections.byId(id);
      if (!connection) throw new MeridianError('SSO_NOT_CONFIGURED');
      res.redirect(302, await startOidc(this.oidc, this.config, res, connection, site, next, email || undefined));
    } catch (err) {
      if (!(err instanceof MeridianError)) throw err;
      res.redirect(302, ssoFailureUrl(this.config, site, err, next));
    }
  }
}
