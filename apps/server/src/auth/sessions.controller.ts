import { AuditActor, BearerAuth, CurrentActor, CurrentPrincipal, Principal, Public, UuidPipe } from '#common';
import { SessionService } from '#domain';
import { Body, Controller, Delete, Get, HttpCode, Param, Post } from '@nestjs/common';
import { RefreshDto } from './dto/auth-flows.dto';

/** Sessions and their tokens: sign-out, refresh, list and end sessions (`/auth/`). */
@Controller()
export class SessionsController {
  constructor(private readonly sessions: SessionService) {}

  /** 204; revokes the calling session: its access and refresh tokens stop working at once (audit: `auth.sign_out`). */
  @Post('sign-out')
  @BearerAuth()
  @HttpCode(204)
  async signOut(@CurrentPrincipal() principal: Principal, @CurrentActor() actor: AuditActor): Promise<void> {
    if (principal.sessionId) await this.sessions.signOut(principal.sessionId, actor);
  }

  /**
   * `{refresh_token}` → 200 `{access_token, refresh_token, token_type, expires_in}`: a new pair;
   * the presented refresh token and the session's access token stop working. Reusing a rotated
   * refresh token revokes the whole session. 401 `INVALID_REFRESH_TOKEN`.
   */
  @Post('token/refresh')
  @Public()
  @HttpCode(200)
  refresh(@Body() body: RefreshDto) {
    return this.sessions.refresh(body.refresh_token);
  }

  /** 200, a bare array of the caller's live sessions, newest first (`is_current` marks this one). */
  @Get('sessions')
  @BearerAuth()
  list(@CurrentPrincipal() principal: Principal) {
    return this.sessions.list(principal.userId, principal.sessionId);
  }

  /** 204; ends one of the caller's sessions (the current one included). 404 `NOT_FOUND` for another user's or an unknown id. */
  @Delete('sessions/:session_id')
  @BearerAuth()
  @HttpCode(204)
  async end(@CurrentPrincipal() principal: Principal, @Param('session_id', UuidPipe) id: string): Promise<void> {
    await this.sessions.revokeOwn(principal.userId, id);
  }
}
