import { APP_CONFIG, AppConfig, issueCsrfToken, MeridianError, OAuthProviderName, Public, setCookie } from '#common';
import { OAuthService } from '#domain';
import { Controller, Get, Inject, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientOf } from '../shared/client-info';
import { failureRedirect, PLANE_AUTH_ERROR_CODES, PlaneAuthError, safeNextPath } from '../shared/web-form';

/**
 * OAuth sign-in (`/auth/{github,google,gitlab}/`), enabled per provider when its client id and
 * secret are set; a disabled provider's routes answer 404 `<PROVIDER>_NOT_CONFIGURED`.
 * `GET /auth/{provider}/` redirects (302) to the provider; its callback redirects to
 * `WEB_URL/auth/callback/?code=…` (exchange with `POST /auth/token/`) or, on failure, to
 * `WEB_URL/sign-in?error_code=…&error_message=…`.
 */
@Controller()
@Public()
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  private async begin(provider: OAuthProviderName, req: Request, res: Response): Promise<void> {
    await this.oauth.begin(provider, req, res);
  }

  private async finish(provider: OAuthProviderName, req: Request, res: Response): Promise<void> {
    res.redirect(302, await this.oauth.finish(provider, req, res));
  }

  @Get('github')
  github(@Req() req: Request, @Res() res: Response) {
    return this.begin('github', req, res);
  }

  @Get('github/callback')
  githubCallback(@Req() req: Request, @Res() res: Response) {
    return this.finish('github', req, res);
  }

  @Get('google')
  google(@Req() req: Request, @Res() res: Response) {
    return this.begin('google', req, res);
  }

  @Get('google/callback')
  googleCallback(@Req() req: Request, @Res() res: Response) {
    return this.finish('google', req, res);
  }

  @Get('gitlab')
  gitlab(@Req() req: Request, @Res() res: Response) {
    return this.begin('gitlab', req, res);
  }

  @Get('gitlab/callback')
  gitlabCallback(@Req() req: Request, @Res() res: Response) {
    return this.finish('gitlab', req, res);
  }
}

const PROVIDER_ERROR: Record<OAuthProviderName, PlaneAuthError> = {
  github: 'GITHUB_OAUTH_PROVIDER_ERROR',
  google: 'GOOGLE_OAUTH_PROVIDER_ERROR',
  gitlab: 'GITLAB_OAUTH_PROVIDER_ERROR',
};

/**
 * OAuth sign-in for the published boards' app (`/auth/spaces/{github,google,gitlab}/`, Plane
 * `plane/authentication/views/space/{github,google,gitlab}.py`). The start takes `?next_path=` (a
 * path; anything else is dropped) and redirects (302) to the provider, with the callback at
 * `/auth/spaces/{provider}/callback/`. The callback signs the visitor in as the app's OAuth does
 * (the same account rules), sets the web session cookie (`SESSION_COOKIE_NAME`) and a fresh CSRF
 * token, and redirects to `SPACE_BASE_URL` + `next_path`. Every failure, a provider that is not
 * configured included, redirects to `SPACE_BASE_URL/` with Plane's `error_code` (its number, e.g.
 * 5120), `error_message` (its name) and `next_path`, as Plane does.
 */
@Controller('spaces')
@Public()
export class SpaceOAuthController {
  constructor(
    private readonly oauth: OAuthService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  @Get('github')
  github(@Req() req: Request, @Res() res: Response) {
    return this.begin('github', req, res);
  }

  @Get('github/callback')
  githubCallback(@Req() req: Request, @Res() res: Response) {
    return this.finish('github', req, res);
  }

  @Get('google')
  google(@Req() req: Request, @Res() res: Response) {
    return this.begin('google', req, res);
  }

  @Get('google/callback')
  googleCallback(@Req() req: Request, @Res() res: Response) {
    return this.finish('google', req, res);
  }

  @Get('gitlab')
  gitlab(@Req() req: Request, @Res() res: Response) {
    return this.begin('gitlab', req, res);
  }

  @Get('gitlab/callback')
  gitlabCallback(@Req() req: Request, @Res() res: Response) {
    return this.finish('gitlab', req, res);
  }

  private async begin(provider: OAuthProviderName, req: Request, res: Response): Promise<void> {
    const next = safeNextPath(typeof req.query.next_path === 'string' ? req.query.next_path : undefined);
    try {
      await this.oauth.begin(provider, req, res, 'space', next);
    } catch (err) {
      if (res.headersSent) return;
      this.fail(res, provider, err, next);
    }
  }

  private async finish(provider: OAuthProviderName, req: Request, res: Response): Promise<void> {
    const next = safeNextPath(this.oauth.spaceNextPath(req));
    try {
      const result = await this.oauth.finishSpace(provider, req, res, clientOf(req));
      const { webSession } = this.config;
      setCookie(res, this.config, webSession.cookieName, result.access_token, { maxAge: webSession.cookieAgeSeconds });
      issueCsrfToken(res, this.config);
      res.redirect(302, `${webSession.spaceBaseUrl}${next ?? ''}`);
    } catch (err) {
      this.fail(res, provider, err, next);
    }
  }

  /** Back to the boards' app with Plane's error number and name (the provider's error for anything unnamed). */
  private fail(res: Response, provider: OAuthProviderName, err: unknown, next: string | undefined): void {
    const code = err instanceof MeridianError ? err.code : '';
    const error = code in PLANE_AUTH_ERROR_CODES ? (code as PlaneAuthError) : PROVIDER_ERROR[provider];
    res.redirect(302, failureRedirect(`${this.config.webSession.spaceBaseUrl}/`, error, { next_path: next }));
  }
}
