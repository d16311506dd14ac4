import { APP_CONFIG, AppConfig, issueCsrfToken, MeridianError, OAuthProviderName, Public, setCookie } from '#common';
import { OAuthService, OAuthSite, SessionService } from '#domain';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientOf } from '../shared/client-info';
import { failureRedirect, PLANE_AUTH_ERROR_CODES, PlaneAuthError, safeNextPath } from '../shared/web-form';

const PROVIDER_ERROR: Record<OAuthProviderName, PlaneAuthError> = {
  github: 'GITHUB_OAUTH_PROVIDER_ERROR',
  google: 'GOOGLE_OAUTH_PROVIDER_ERROR',
  gitlab: 'GITLAB_OAUTH_PROVIDER_ERROR',
};

/**
 * The browser side of an OAuth sign-in, for the web app (`site` `app`) and the published boards'
 * app (`space`), as Plane's `views/app/{google,github,gitlab}.py` and `views/space/*.py`:
 *
 * - start: `?next_path=` (a path; anything else is dropped) is kept for the callback, then 302 to
 *   the provider;
 * - callback: the session cookie (`SESSION_COOKIE_NAME`, `SESSION_COOKIE_AGE` seconds) and a fresh
 *   CSRF token, exactly as the password form sets them, then 302 to `APP_BASE_URL/<next_path or
 *   Plane's landing: onboarding, a workspace slug, create-workspace>` (app) or
 *   `SPACE_BASE_URL<next_path>` (space);
 * - every failure (a provider that is not configured, a state that does not match the browser's
 *   cookie, no code, a provider error, `SIGNUP_DISABLED`, `INVALID_EMAIL`, a deactivated account):
 *   no session, 302 to the app's sign-in page (`APP_BASE_URL/`, or `SPACE_BASE_URL/`) with Plane's
 *   `error_code` (its number, e.g. 5120), `error_message` (its name) and `next_path`.
 */
class OAuthBrowserFlow {
  constructor(
    private readonly oauth: OAuthService,
    private readonly sessions: SessionService,
    private readonly config: AppConfig,
  ) {}

  async begin(site: OAuthSite, provider: OAuthProviderName, req: Request, res: Response): Promise<void> {
    const next = safeNextPath(typeof req.query.next_path === 'string' ? req.query.next_path : undefined);
    try {
      await this.oauth.begin(provider, req, res, site, next);
    } catch (err) {
      if (res.headersSent) return;
      this.fail(site, res, provider, err, next);
    }
  }

  async finish(site: OAuthSite, provider: OAuthProviderName, req: Request, res: Response): Promise<void> {
    const next = safeNextPath(this.oauth.nextPath(req));
    try {
      const result = await this.oauth.finish(provider, req, res, site, clientOf(req));
      const { webSession } = this.config;
      setCookie(res, this.config, webSession.cookieName, result.access_token, { maxAge: webSession.cookieAgeSeconds });
      issueCsrfToken(res, this.config);
      if (site === 'space') return res.redirect(302, `${webSession.spaceBaseUrl}${next ?? ''}`);
      const path = next ? next.slice(1) : await this.sessions.landingPath(result.user.id);
      res.redirect(302, `${webSession.appBaseUrl}/${path}`);
    } catch (err) {
      this.fail(site, res, provider, err, next);
    }
  }

  /** Back to the sign-in page with Plane's error number and name (the provider's error for anything unnamed). */
  private fail(
    site: OAuthSite,
    res: Response,
    provider: OAuthProviderName,
    err: unknown,
    next: string | undefined,
  ): void {
    const code = err instanceof MeridianError ? err.code : '';
    const error = code in PLANE_AUTH_ERROR_CODES ? (code as PlaneAuthError) : PROVIDER_ERROR[provider];
    const { appBaseUrl, spaceBaseUrl } = this.config.webSession;
    const base = site === 'space' ? spaceBaseUrl : appBaseUrl;
    res.redirect(302, failureRedirect(`${base}/`, error, { next_path: next }));
  }
}

/**
 * OAuth sign-in for the web app (`/auth/{github,google,gitlab}/` and `…/callback/`; Plane
 * `plane/authentication/views/app/{github,google,gitlab}.py`), enabled per provider when its client
 * id and secret are set. See `OAuthBrowserFlow` for the redirects and docs/oauth.md for the settings.
 */
@Controller()
@Public()
export class OAuthController {
  private readonly flow: OAuthBrowserFlow;
  constructor(oauth: OAuthService, sessions: SessionService, @Inject(APP_CONFIG) config: AppConfig) {
    this.flow = new OAuthBrowserFlow(oauth, sessions, config);
  }

  @Get('github')
  github(@Req() req: Request, @Res() res: Response) {
    return this.flow.begin('app', 'github', req, res);
  }

  @Get('github/callback')
  githubCallback(@Req() req: Request, @Res() res: Response) {
    return this.flow.finish('app', 'github', req, res);
  }

  @Get('google')
  google(@Req() req: Request, @Res() res: Response) {
    return this.flow.begin('app', 'google', req, res);
  }

  @Get('google/callback')
  googleCallback(@Req() req: Request, @Res() res: Response) {
    return this.flow.finish('app', 'google', req, res);
  }

  @Get('gitlab')
  gitlab(@Req() req: Request, @Res() res: Response) {
    return this.flow.begin('app', 'gitlab', req, res);
  }

  @Get('gitlab/callback')
  gitlabCallback(@Req() req: Request, @Res() res: Response) {
    return this.flow.finish('app', 'gitlab', req, res);
  }
}

/**
 * OAuth sign-in for the published boards' app (`/auth/spaces/{github,google,gitlab}/` and
 * `…/callback/`; Plane `plane/authentication/views/space/{github,google,gitlab}.py`): the provider's
 * `redirect_uri` is `/auth/spaces/{provider}/callback/`, success lands on `SPACE_BASE_URL` +
 * `next_path`, failures on `SPACE_BASE_URL/`. See `OAuthBrowserFlow`.
 */
@Controller('spaces')
@Public()
export class SpaceOAuthController {
  private readonly flow: OAuthBrowserFlow;
  constructor(oauth: OAuthService, sessions: SessionService, @Inject(APP_CONFIG) config: AppConfig) {
    this.flow = new OAuthBrowserFlow(oauth, sessions, config);
  }

  @Get('github')
  github(@Req() req: Request, @Res() res: Response) {
    return this.flow.begin('space', 'github', req, res);
  }

  @Get('github/callback')
  githubCallback(@Req() req: Request, @Res() res: Response) {
    return this.flow.finish('space', 'github', req, res);
  }

  @Get('google')
  google(@Req() req: Request, @Res() res: Response) {
    return this.flow.begin('space', 'google', req, res);
  }

  @Get('google/callback')
  googleCallback(@Req() req: Request, @Res() res: Response) {
    return this.flow.finish('space', 'google', req, res);
  }

  @Get('gitlab')
  gitlab(@Req() req: Request, @Res() res: Response) {
    return this.flow.begin('space', 'gitlab', req, res);
  }

  @Get('gitlab/callback')
  gitlabCallback(@Req() req: Request, @Res() res: Response) {
    return this.flow.finish('space', 'gitlab', req, res);
  }
}
