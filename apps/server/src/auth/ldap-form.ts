import { MeridianError } from '#common';
import { PlaneAuthError, WebFormError } from '../shared/web-form';

/**
 * How an LDAP sign-in's refusals read in Plane's password form (docs/sso-ldap.md), Meridian's code
 * riding along as `sso_error`: the directory out of reach (503 `LDAP_UNAVAILABLE`) as 5065
 * `AUTHENTICATION_FAILED_SIGN_IN` (the banner Plane's app shows), an invitation-only connection's
 * unknown user as 5015 `SIGNUP_DISABLED`. A wrong password stays the form's own 5065, as for any
 * password. The answer is a redirect either way, so a directory outage never counts as a failed
 * sign-in toward the rate limits (only a 401 does).
 */
const PLANE_OF: Partial<Record<string, PlaneAuthError>> = {
  LDAP_UNAVAILABLE: 'AUTHENTICATION_FAILED_SIGN_IN',
  SSO_INVITATION_REQUIRED: 'SIGNUP_DISABLED',
};

export async function withLdapFormErrors<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    const plane = err instanceof MeridianError ? PLANE_OF[err.code] : undefined;
    if (plane) throw new WebFormError(plane, { sso_error: (err as MeridianError).code });
    throw err;
  }
}
