import { AuthRateLimit, Public } from '#common';
import { AccountService, SignInResult } from '#domain';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { clientOf } from './client-info';
import { SignInDto, SignUpDto } from './dto/credentials.dto';

/**
 * Email and password sign-up and sign-in (`/auth/`). JSON in and out; both answer
 * `{access_token, refresh_token, token_type: "Bearer", expires_in, user}`.
 */
@Controller()
@Public()
export class AuthController {
  constructor(private readonly accounts: AccountService) {}

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
