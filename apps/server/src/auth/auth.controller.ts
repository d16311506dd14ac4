import { APP_CONFIG, AppConfig, AuthRateLimit, issueCsrfToken, Public } from '#common';
import { AccountService, SignInResult } from '#domain';
import { Body, Controller, Get, HttpCode, Inject, Post, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { clientOf } from '../shared/client-info';
import { SignInDto, SignUpDto } from './dto/credentials.dto';

/**
 * Email and password sign-up and sign-in (`/auth/`). JSON in and out; both answer
 * `{access_token, refresh_token, token_type: "Bearer", expires_in, user}`.
 */
@Controller()
@Public()
export class AuthController {
  constructor(
    private readonly accounts: AccountService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  /**
   * 200 `{csrf_token}`, also set in the HttpOnly `csrftoken` cookie and the readable `XSRF-TOKEN`
   * cookie (Plane `plane/authentication/views/common.py` `CSRFTokenEndpoint`): the token Plane's
   * sign-in forms post as `csrfmiddlewaretoken` and cookie-authenticated unsafe requests send as
   * `X-CSRFToken` (see `web-session.ts` in libs/common).
   */
  @Get('get-csrf-token')
  csrfToken(@Res({ passthrough: true }) res: Response): { csrf_token: string } {
    return { csrf_token: issueCsrfToken(res, this.config) };
  }

  /**
   * 201 with tokens; 409 `USER_ALREADY_EXIST`; 422 on a bad email or a short password; 429 past
   * `AUTH_SIGN_UP_RATE_LIMIT` requests per client address.
   */
  @Post('sign-up')
  @AuthRateLimit('sign-up')
  signUp(@Body() body: SignUpDto, @Req() req: Request): Promise<SignInResult> {
    return this.accounts.signUp(body, clientOf(req));
  }

  /**
   * 200 with tokens; 401 `AUTHENTICATION_FAILED_SIGN_IN` for any wrong email/password pair;
   * 403 `USER_ACCOUNT_DEACTIVATED` with the right password of a deactivated account. Limited per
   * address (`AUTH_RATE_LIMIT`), and by failures per (email, address) (`AUTH_FAILED_SIGN_IN_LIMIT`)
   * and per email (`AUTH_FAILED_SIGN_IN_EMAIL_LIMIT`): 429.
   */
  @Post('sign-in')
  @HttpCode(200)
  @AuthRateLimit('sign-in')
  signIn(@Body() body: SignInDto, @Req() req: Request): Promise<SignInResult> {
    return this.accounts.signIn(body, clientOf(req));
  }
}
