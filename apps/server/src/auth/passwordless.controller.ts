import { AuditActor, AuthRateLimit, BearerAuth, CurrentActor, CurrentPrincipal, Principal, Public } from '#common';
import { AuthFlowService, SignInResult } from '#domain';
import { Body, Controller, HttpCode, Post, Req } from '@nestjs/common';
import type { Request } from 'express';
import { clientOf } from '../shared/client-info';
import { ChangePasswordDto, EmailDto, MagicSignInDto, ResetPasswordDto, SetPasswordDto } from './dto/auth-flows.dto';

/**
 * Email check, magic code and password management (`/auth/`).
 * Sign-in answers are `{access_token, refresh_token, token_type: "Bearer", expires_in, user}`.
 * Email check, magic-generate and forgot-password are limited per address (`AUTH_RATE_LIMIT`) and
 * per email (`AUTH_EMAIL_RATE_LIMIT`); magic sign-in by wrong codes per (email, address); reset per address.
 */
@Controller()
export class PasswordlessController {
  constructor(private readonly flows: AuthFlowService) {}

  /** `{email}` → 200 `{existing, status: "MAGIC_CODE"|"CREDENTIAL"}` (Plane). 422 `INVALID_EMAIL`; 429. */
  @Post('email-check')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('email')
  emailCheck(@Body() body: EmailDto) {
    return this.flows.emailCheck(body.email);
  }

  /** `{email}` → 200 `{key: "magic_<email>"}`; emails a code valid 10 minutes. 422 `INVALID_EMAIL`; 429. */
  @Post('magic-generate')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('email')
  magicGenerate(@Body() body: EmailDto) {
    return this.flows.magicGenerate(body.email);
  }

  /**
   * `{email, code}` → 200 with tokens; creates the account on first use. 401 `INVALID_MAGIC_CODE`,
   * `EXPIRED_MAGIC_CODE`, `EMAIL_CODE_ATTEMPT_EXHAUSTED`; 403 `USER_ACCOUNT_DEACTIVATED`; 429 past
   * `AUTH_FAILED_SIGN_IN_LIMIT` wrong codes per (email, address). Success clears the email's
   * password sign-in lock.
   */
  @Post('magic-sign-in')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('magic-sign-in')
  magicSignIn(@Body() body: MagicSignInDto, @Req() req: Request): Promise<SignInResult> {
    return this.flows.magicSignIn(body.email, body.code, clientOf(req));
  }

  /** The published boards app's twin of `email-check/` (Plane `plane/authentication/views/space/check.py`). */
  @Post('spaces/email-check')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('email')
  spaceEmailCheck(@Body() body: EmailDto) {
    return this.flows.emailCheck(body.email);
  }

  /** The published boards app's twin of `magic-generate/`. */
  @Post('spaces/magic-generate')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('email')
  spaceMagicGenerate(@Body() body: EmailDto) {
    return this.flows.magicGenerate(body.email);
  }

  /** The published boards app's twin of `forgot-password/`. */
  @Post('spaces/forgot-password')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('email')
  spaceForgotPassword(@Body() body: EmailDto) {
    return this.flows.forgotPassword(body.email);
  }

  /** `{email}` → 200 `{message}` whether or not the account exists; emails a reset token valid 1 hour. */
  @Post('forgot-password')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('email')
  forgotPassword(@Body() body: EmailDto) {
    return this.flows.forgotPassword(body.email);
  }

  /**
   * `{token, password}` → 200 `{message}`; every session of the user is revoked.
   * 400 `INVALID_PASSWORD_TOKEN`, `EXPIRED_PASSWORD_TOKEN`; 422 for a short password.
   */
  @Post('reset-password')
  @Public()
  @HttpCode(200)
  @AuthRateLimit('address')
  resetPassword(@Body() body: ResetPasswordDto, @Req() req: Request) {
    return this.flows.resetPassword(body.token, body.password, clientOf(req));
  }

  /** `{old_password, new_password}` → 200 `{message}`; the caller's other sessions are revoked. 400 `INCORRECT_OLD_PASSWORD`. */
  @Post('change-password')
  @BearerAuth()
  @HttpCode(200)
  changePassword(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: AuditActor,
    @Body() body: ChangePasswordDto,
  ) {
    return this.flows.changePassword(principal, body.old_password, body.new_password, actor);
  }

  /** `{password}` → 200, the user; for accounts without a password (magic code, OAuth). 400 `PASSWORD_ALREADY_SET`. */
  @Post('set-password')
  @BearerAuth()
  @HttpCode(200)
  setPassword(
    @CurrentPrincipal() principal: Principal,
    @CurrentActor() actor: AuditActor,
    @Body() body: SetPasswordDto,
  ) {
    return this.flows.setPassword(principal, body.password, actor);
  }
}
