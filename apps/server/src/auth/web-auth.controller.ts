import {
  APP_CONFIG,
  AppConfig,
  AuthRateLimit,
  CSRF_COOKIE,
  auditActorOf,
  clearCookie,
  issueCsrfToken,
  MeridianError,
  passesCsrfCheck,
  Public,
  requestCookies,
  sessionCookieOf,
  setCookie,
  XSRF_COOKIE,
} from '#common';
import {
  AccountService,
  AuthFlowService,
  OIDC_SESSION_COOKIE,
  OidcService,
  SamlService,
  SessionService,
  SignInResult,
  SsoConnectionService,
} from '#domain';
import { Controller, Inject, Param, Post, Redirect, Req, Res, UseFilters } from '@nestjs/common';
import type { Request, Response } from 'express';
import { beginFormFlow, formField, readForm, safeNextPath, WebFormError, WebFormErrorFilter } from '../shared/web-form';
import { clientOf } from '../shared/client-info';
import { MagicSignInDto, ResetPasswordDto } from './dto/auth-flows.dto';
import { SignInDto, SignUpDto } from './dto/credentials.dto';
import { startOidc } from './sso-redirect';
import { withLdapFormErrors } from './ldap-form';

type Site = 'app' | 'space';
interface Redirection {
  url: string;
  statusCode: number;
}

/**
 * Plane's web sign-in forms (`/auth/[spaces/]{sign-in,sign-up,magic-sign-in,magic-sign-up,sign-out}/`
 * posted as `application/x-www-form-urlencoded`, routed here by `routeFormPosts`; Plane
 * `plane/authentication/views/app/*.py` and `views/space/*.py`). Each needs the CSRF token
 * (`csrfmiddlewaretoken` = the `csrftoken` cookie from `GET /auth/get-csrf-token/`) and a trusted
 * origin, and answers 302: on success to the web app (`APP_BASE_URL`; `next_path` if it is a
 * path, else where Plane lands a user: `onboarding`, a workspace slug or `create-workspace`) or the
 * published boards' app (`SPACE_BASE_URL` + `next_path`), with the HttpOnly session cookie
 * (`SESSION_COOKIE_NAME`, `SESSION_COOKIE_AGE` seconds) and a fresh CSRF token; on failure back to
 * the form with `error_code` (Plane's number), `error_message` (its name), `email` and `next_path`
 * (`formFlowOf`): a CSRF refusal (logged, one line naming the origin and the setting that trusts it)
 * as 5065 `AUTHENTICATION_FAILED_SIGN_IN` / 5035 `…_SIGN_UP`, and the JSON flows' rate limits as
 * 5900 `RATE_LIMIT_EXCEEDED`. Sign-out keeps Django's answer to a CSRF refusal (403, see there).
 */
@Controller('web')
@Public()
@UseFilters(WebFormErrorFilter)
export class WebAuthController {
  constructor(
    private readonly accounts: AccountService,
    private readonly flows: AuthFlowService,
    private readonly sessions: SessionService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly connections: SsoConnectionService,
    private readonly oidc: OidcService,
    private readonly saml: SamlService,
  ) {}

  @Post('sign-in')
  @AuthRateLimit('sign-in')
  @Redirect()
  signIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.passwordSignIn('app', req, res);
  }

  @Post('spaces/sign-in')
  @AuthRateLimit('sign-in')
  @Redirect()
  spaceSignIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.passwordSignIn('space', req, res);
  }

  @Post('sign-up')
  @AuthRateLimit('sign-up')
  @Redirect()
  signUp(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.passwordSignUp('app', req, res);
  }

  @Post('spaces/sign-up')
  @AuthRateLimit('sign-up')
  @Redirect()
  spaceSignUp(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.passwordSignUp('space', req, res);
  }

  @Post('magic-sign-in')
  @AuthRateLimit('magic-sign-in')
  @Redirect()
  magicSignIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.magic('app', 'in', req, res);
  }

  @Post('spaces/magic-sign-in')
  @AuthRateLimit('magic-sign-in')
  @Redirect()
  spaceMagicSignIn(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.magic('space', 'in', req, res);
  }

  @Post('magic-sign-up')
  @AuthRateLimit('magic-sign-in')
  @Redirect()
  magicSignUp(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.magic('app', 'up', req, res);
  }

  @Post('spaces/magic-sign-up')
  @AuthRateLimit('magic-sign-in')
  @Redirect()
  spaceMagicSignUp(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.magic('space', 'up', req, res);
  }

  /**
   * The CSRF check first (403 `CSRF_FAILED`, as JSON, and nothing else changes: the cookies stay,
   * as Django's CSRF middleware refuses Plane's `SignOutAuthEndpoint` before it runs); then ends the
   * cookie's session on the server (its tokens stop working at once), deletes the cookies and
   * redirects to the app (or the boards' app + `next_path`), signed in or not; a session opened through
   * an OIDC provider or a SAML IdP with single logout redirects there first (docs/sso-oidc.md,
   * docs/sso-saml.md), the IdP then sending the browser back to the sign-in page. Plane's web app posts
   * this form with the token from `GET /auth/get-csrf-token/` (`AuthService.signOut`).
   */
  @Post('sign-out')
  @Redirect()
  signOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.endSession('app', req, res);
  }

  @Post('spaces/sign-out')
  @Redirect()
  spaceSignOut(@Req() req: Request, @Res({ passthrough: true }) res: Response) {
    return this.endSession('space', req, res);
  }

  /**
   * Plane's reset form (`/auth/[spaces/]reset-password/{uidb64}/{token}/`, field `password`): sets the
   * password with the emailed token and ends every session of the user; 302 to `APP_BASE_URL/sign-in?success=True`
   * (the boards' app for the spaces twin), or back to `APP_BASE_URL/accounts/reset-password` with 5125
   * `INVALID_PASSWORD_TOKEN`, 5130 `EXPIRED_PASSWORD_TOKEN` or 5020 `INVALID_PASSWORD`.
   */
  @Post('reset-password/:uid/:token')
  @AuthRateLimit('address')
  @Redirect()
  resetPassword(@Param('token') token: string, @Req() req: Request) {
    return this.reset('app', token, req);
  }

  @Post('spaces/reset-password/:uid/:token')
  @AuthRateLimit('address')
  @Redirect()
  spaceResetPassword(@Param('token') token: string, @Req() req: Request) {
    return this.reset('space', token, req);
  }

  private async reset(site: Site, token: string, req: Request): Promise<Redirection> {
    beginFormFlow(req, this.config);
    const { appBaseUrl, spaceBaseUrl } = this.config.webSession;
    const form = await readForm(ResetPasswordDto, { token, password: formField(req.body, 'password') });
    if (form.missing.length || form.invalid.length) throw new WebFormError('INVALID_PASSWORD');
    await this.flows.resetPassword(token, form.value.password, clientOf(req));
    return {
      url: site === 'app' ? `${appBaseUrl}/sign-in?success=True` : `${spaceBaseUrl}/?success=True`,
      statusCode: 302,
    };
  }

  private async passwordSignIn(site: Site, req: Request, res: Response): Promise<Redirection> {
    beginFormFlow(req, this.config);
    const sso = await this.toIdentityProvider(site, req, res, true);
    if (sso) return sso;
    const form = await readForm(SignInDto, req.body);
    if (form.missing.length) throw new WebFormError('REQUIRED_EMAIL_PASSWORD_SIGN_IN');
    if (form.invalid.includes('email')) throw new WebFormError('INVALID_EMAIL_SIGN_IN');
    if (form.invalid.length) throw new WebFormError('AUTHENTICATION_FAILED_SIGN_IN');
    // an LDAP connection's email is checked against the directory by `signIn` (docs/sso-ldap.md)
    const result = await withLdapFormErrors(() => this.accounts.signIn(form.value, this.client(req)));
    return this.signedIn(site, req, res, result);
  }

  private async passwordSignUp(site: Site, req: Request, res: Response): Promise<Redirection> {
    beginFormFlow(req, this.config);
    const sso = await this.toIdentityProvider(site, req, res, false);
    if (sso) return sso;
    const form = await readForm(SignUpDto, req.body);
    if (form.missing.length) throw new WebFormError('REQUIRED_EMAIL_PASSWORD_SIGN_UP');
    if (form.invalid.includes('email')) throw new WebFormError('INVALID_EMAIL_SIGN_UP');
    if (form.invalid.length) throw new WebFormError('INVALID_PASSWORD');
    return this.signedIn(site, req, res, await this.accounts.signUp(form.value, this.client(req)));
  }

  private async magic(site: Site, kind: 'in' | 'up', req: Request, res: Response): Promise<Redirection> {
    beginFormFlow(req, this.config);
    const sso = await this.toIdentityProvider(site, req, res, false);
    if (sso) return sso;
    const form = await readForm(MagicSignInDto, req.body);
    if (form.missing.length || form.invalid.length) {
      throw new WebFormError(kind === 'in' ? 'MAGIC_SIGN_IN_EMAIL_CODE_REQUIRED' : 'MAGIC_SIGN_UP_EMAIL_CODE_REQUIRED');
    }
    const result = await this.flows.magicSignIn(form.value.email, form.value.code, this.client(req));
    return this.signedIn(site, req, res, result, kind === 'in');
  }

  /**
   * A form posted with an email of an SSO connection's domain (docs/sso-oidc.md): 302 to the
   * connection's identity provider (the password, or code, is not looked at), unless the connection
   * allows passwords and this is the password sign-in form with the right password (then the usual
   * sign-in). Null for any other email. A provider that cannot be reached is a failure of the form
   * (5065 `AUTHENTICATION_FAILED_SIGN_IN`).
   */
  private async toIdentityProvider(
    site: Site,
    req: Request,
    res: Response,
    passwordForm: boolean,
  ): Promise<Redirection | null> {
    const email = formField(req.body, 'email')?.toLowerCase();
    if (!email) return null;
    const connection = await this.connections.forEmail(email);
    // LDAP is checked behind the password form itself (docs/sso-ldap.md): no redirect
    if (!connection || connection.kind === 'ldap') return null;
    const password = formField(req.body, 'password');
    if (passwordForm && connection.allowPassword && password) {
      try {
        return await this.signedIn(site, req, res, await this.accounts.signIn({ email, password }, this.client(req)));
      } catch (err) {
        if (!(err instanceof MeridianError) || err.code !== 'AUTHENTICATION_FAILED_SIGN_IN') throw err;
      }
    }
    const next = safeNextPath(formField(req.body, 'next_path'));
    const url =
      connection.kind === 'saml'
        ? await this.saml.begin(connection, site, next)
        : await startOidc(this.oidc, this.config, res, connection, site, next, email);
    return { url, statusCode: 302 };
  }

  private async endSession(site: Site, req: Request, res: Response): Promise<Redirection> {
    if (!passesCsrfCheck(req, this.config)) throw new MeridianError('CSRF_FAILED');
    const cookie = sessionCookieOf(req, this.config);
    const next = safeNextPath(formField(req.body, 'next_path'));
    let samlLogout: string | null = null;
    if (cookie !== undefined) {
      const principal = await this.sessions.verifyAccessToken(cookie, 'web');
      if (principal?.sessionId) {
        await this.sessions.signOut(principal.sessionId, auditActorOf(req, principal));
        // a session opened by a SAML sign-in ends at the IdP too, when the connection has single logout
        samlLogout = await this.saml.logoutUrl(principal.sessionId, site, next ?? null);
      }
    }
    const oidcSession = requestCookies(req)[OIDC_SESSION_COOKIE];
    for (const name of [this.config.webSession.cookieName, CSRF_COOKIE, XSRF_COOKIE])
      clearCookie(res, this.config, name);
    if (oidcSession !== undefined) clearCookie(res, this.config, OIDC_SESSION_COOKIE);
    const url =
      site === 'app' ? `${this.config.webSession.appBaseUrl}/` : `${this.config.webSession.spaceBaseUrl}${next ?? ''}`;
    // a session opened through an OIDC provider ends there too, when the provider offers it
    const providerLogout = await this.oidc.endSessionUrl(oidcSession ?? null, url);
    return { url: providerLogout ?? samlLogout ?? url, statusCode: 302 };
  }

  private client(req: Request) {
    return { ...clientOf(req), cookie: true };
  }

  /**
   * Sets the session cookie and a new CSRF token, and picks the landing page. After a magic code
   * sign-in (`askPassword`), an onboarded user without a password of their own lands on
   * `accounts/set-password` whatever `next_path` says, as in Plane (`views/app/magic.py`).
   */
  private async signedIn(
    site: Site,
    req: Request,
    res: Response,
    result: SignInResult,
    askPassword = false,
  ): Promise<Redirection> {
    const { webSession } = this.config;
    setCookie(res, this.config, webSession.cookieName, result.access_token, { maxAge: webSession.cookieAgeSeconds });
    issueCsrfToken(res, this.config);
    const next = safeNextPath(formField(req.body, 'next_path'));
    if (site === 'space') return { url: `${webSession.spaceBaseUrl}${next ?? ''}`, statusCode: 302 };
    // the landing query only when it decides: no next_path, or a password-less user after a magic code
    const asksPassword = askPassword && result.user.is_password_autoset;
    const landing = !next || asksPassword ? await this.sessions.landingPath(result.user.id) : undefined;
    if (asksPassword && landing !== 'onboarding') {
      return { url: `${webSession.appBaseUrl}/accounts/set-password`, statusCode: 302 };
    }
    return { url: `${webSession.appBaseUrl}/${next ? next.slice(1) : landing}`, statusCode: 302 };
  }
}
