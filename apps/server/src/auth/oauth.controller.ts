import { OAuthProviderName, Public } from '#common';
import { OAuthService } from '#domain';
import { Controller, Get, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';

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
