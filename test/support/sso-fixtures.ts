import type { BrowserJar } from './browser-jar';
import type { TestApp } from './test-app';

/**
 * What the enterprise sign-in tests (OIDC, SAML, LDAP, their environment connections) do the same
 * way: post Plane's forms as the web app's page does, read the session's user, read a role.
 */

/** The web app's origin in these tests (their test app's `WEB_URL`). */
export const WEB_ORIGIN = 'http://web.meridian.test';

/**
 * Posts one of Plane's forms (`/auth/sign-in/`, `/auth/spaces/sign-in/`, …) as the web app's page
 * does: a CSRF token from `/auth/get-csrf-token/` in the body, the web app's `Origin`, the browser's
 * cookies. Answers the response as it came (a redirect is not followed).
 */
export async function postWebForm(
  t: TestApp,
  browser: BrowserJar,
  path: string,
  fields: Record<string, string>,
): Promise<Response> {
  const token = await browser.fetch(`${t.url}/auth/get-csrf-token/`);
  const { csrf_token } = (await token.json()) as { csrf_token: string };
  return browser.fetch(`${t.url}${path}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', Origin: WEB_ORIGIN },
    body: new URLSearchParams({ ...fields, csrfmiddlewaretoken: csrf_token }).toString(),
  });
}

/** `GET /api/users/me/` with the browser's session cookie: the status and the body. */
export async function sessionUser(
  t: TestApp,
  browser: BrowserJar,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await browser.fetch(`${t.url}/api/users/me/`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** The user's role in the workspace from the table (an active, live membership), undefined without one. */
export async function workspaceRole(t: TestApp, workspaceId: string, userId: string): Promise<number | undefined> {
  const rows = await t.sql<{ role: number }>(
    'SELECT role FROM workspace_members WHERE workspace_id = $1 AND member_id = $2 AND deleted_at IS NULL AND is_active',
    [workspaceId, userId],
  );
  return rows[0]?.role;
}
