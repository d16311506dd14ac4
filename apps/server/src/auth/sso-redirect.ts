import { AppConfig, issueCsrfToken, MeridianError, setCookie } from '#common';
import {
  OIDC_FLOW_COOKIE,
  OIDC_FLOW_TTL_SECONDS,
  OidcService,
  ResolvedSsoConnection,
  SessionService,
  SignInResult,
  SsoSite,
} from '#domain';
import type { Response } from 'express';
import { failureRedirect, PlaneAuthError, safeNextPath } from '../shared/web-form';

/**
 * How an SSO failure reads in Plane's apps: its own Plane error when Plane has one the app shows
 * (5005 `INVALID_EMAIL`, 5019 `USER_ACCOUNT_DEACTIVATED`, 5015 `SIGNUP_DISABLED` for an invitation-only
 * connection), else 5065 `AUTHENTICATION_FAILED_SIGN_IN`; Meridian's code rides along as `sso_error`.
 */
const PLANE_OF: Partial<Record<string, PlaneAuthError>> = {
  INVALID_EMAIL: 'INVALID_EMAIL',
  USER_ACCOUNT_DEACTIVATED: 'USER_ACCOUNT_DEACTIVATED',
  SSO_INVITATION_REQUIRED: 'SIGNUP_DISABLED',
  INSTANCE_NOT_CONFIGURED: 'INSTANCE_NOT_CONFIGURED',
};

/** The sign-in page with the error: `APP_BASE_URL/` or `SPACE_BASE_URL/`, `error_code`, `error_message`, `sso_error`, `next_path`. */
export function ssoFailureUrl(config: AppConfig, site: SsoSite, err: unknown, next?: string | null): string {
  const code = err instanceof MeridianError ? err.code : 'OIDC_PROVIDER_ERROR';
  const { appBaseUrl, spaceBaseUrl } = config.webSession;
  return failureRedirect(
    `${site === 'space' ? spaceBaseUrl : appBaseUrl}/`,
    PLANE_OF[code] ?? 'AUTHENTICATION_FAILED_SIGN_IN',
    {
      sso_error: code,
      next_path: next ?? undefined,
    },
  );
}

/** Starts an OIDC sign-in: sets the flow cookie and answers the provider's authorization URL to redirect to. */
export async function startOidc(
  oidc: OidcService,
  config: AppConfig,
  res: Response,
  connection: ResolvedSsoConnection,
  site: SsoSite,
  next: string | undefined,
  loginHint?: string,
): Promise<string> {
  const { url, cookie } = await oidc.begin(connection, site, next, loginHint);
  setCookie(res, config, OIDC_FLOW_COOKIE, cookie, { maxAge: OIDC_FLOW_TTL_SECONDS });
  return url;
}

/**
 * Ends a successful SSO sign-in (OIDC callback, SAML assertion consumer): sets the session cookie
 * (`SESSION_COOKIE_NAME`, `SESSION_COOKIE_AGE`) and a fresh CSRF token, and answers where to
 * redirect: `SPACE_BASE_URL<next_path>` for the boards' app, else `APP_BASE_URL/<next_path or
 * where Plane lands the user>`.
 */
export async function ssoSignedIn(
  res: Response,
  config: AppConfig,
  sessions: SessionService,
  done: { result: SignInResult; site: SsoSite; next: string | null },
): Promise<string> {
  const { webSession } = config;
  setCookie(res, config, webSession.cookieName, done.result.access_token, { maxAge: webSession.cookieAgeSeconds });
  issueCsrfToken(res, config);
  const next = safeNextPath(done.next ?? undefined);
  if (done.site === 'space') return `${webSession.spaceBaseUrl}${next ?? ''}`;
  const path = next ? next.slice(1) : await sessions.landingPath(done.result.user.id);
  return `${webSession.appBaseUrl}/${path}`;
}
