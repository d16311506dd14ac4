import type { Page } from 'playwright-core';
import type { Step } from './recorder';
import type { Ctx } from './team-day';

/** Signed-out probes the apps make by design before anyone signs in. */
const SIGNED_OUT = [/^GET \/api\/users\/me\/([a-z-]+\/)?(\?.*)?$/, /^GET \/api\/instances\/admins\/me\/$/];

/** Ana's password after the password change step. */
const NEW_PASSWORD = 'Ana-new-pass-2026!';

export const PEOPLE = {
  admin: { email: 'admin@meridian.test', password: 'Admin-pass-2026!', first: 'Ada', last: 'Admin' },
  ana: { email: 'ana@meridian.test', password: 'Ana-pass-2026!', first: 'Ana', last: 'Lead' },
  ben: { email: 'ben@meridian.test', password: 'Ben-pass-2026!', first: 'Ben', last: 'Dev' },
  // signs in through the OpenID Connect provider (her domain's connection): Meridian keeps no password
  sam: { email: 'sam@corp.meridian.test', password: 'Sam-idp-pass-2026!', first: 'Sam', last: 'Sso' },
};

/** The email domain of the OIDC connection, and the provider's group mapped to the workspace's Admin role. */
const SSO_DOMAIN = 'corp.meridian.test';
const SSO_ADMIN_GROUP = 'acme-admins';

/** A call to Meridian's Instance API with the instance admin's token (its own sign-in, JSON). */
async function instanceApi(ctx: Ctx, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  if (!ctx.data.adminToken) {
    const res = await fetch(`${ctx.stack.meridian}/api/instances/admins/sign-in/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: PEOPLE.admin.email, password: PEOPLE.admin.password }),
    });
    if (!res.ok) throw new Error(`the admin's sign-in: ${res.status} ${await res.text()}`);
    ctx.data.adminToken = ((await res.json()) as { access_token: string }).access_token;
  }
  const res = await fetch(`${ctx.stack.meridian}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${ctx.data.adminToken}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as Record<string, unknown>;
}

async function until(page: Page, test: () => Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await test().catch(() => false)) return;
    await page.waitForTimeout(250);
  }
  throw new Error(`timed out waiting for ${what} (at ${page.url()})`);
}

async function signUp(page: Page, who: keyof typeof PEOPLE): Promise<void> {
  const person = PEOPLE[who];
  await page.goto('/sign-up/');
  await page.getByPlaceholder('name@company.com').fill(person.email);
  await page.getByRole('button', { name: /continue/i }).click();
  await page.getByPlaceholder('Enter password').fill(person.password);
  await page.getByPlaceholder('Confirm password').fill(person.password);
  await page.getByRole('button', { name: /create account/i }).click();
  await page.waitForURL(/\/onboarding|\/invitations|\/[a-z0-9-]+\/?$/, { timeout: 30_000 });
}

/** The first visit to a workspace offers a product tour: decline it. */
async function dismissTour(page: Page): Promise<void> {
  const noTour = page.getByText(/no thanks, i will explore it myself/i);
  await noTour.waitFor({ timeout: 8000 }).catch(() => undefined);
  if (await noTour.isVisible()) await noTour.click();
}

/** The onboarding's profile screen: name, role and domain. */
async function onboardProfile(page: Page, who: keyof typeof PEOPLE): Promise<void> {
  const person = PEOPLE[who];
  await page.getByPlaceholder('Wilbur').fill(person.first);
  await page.getByPlaceholder('Wright').fill(person.last);
  await page.getByText('Individual contributor', { exact: true }).click();
  await page.getByText('Engineering', { exact: true }).click();
  await page.getByRole('button', { name: /^continue$/i }).click();
}

/** Throws when the page reported an uncaught error while `action` ran (the recorder only lists them). */
async function withoutPageErrors<T>(page: Page, action: () => Promise<T>): Promise<T> {
  const errors: string[] = [];
  const listener = (e: Error) => errors.push(e.message);
  page.on('pageerror', listener);
  try {
    const out = await action();
    if (errors.length) throw new Error(`the page threw: ${errors.join(' | ').slice(0, 300)}`);
    return out;
  } finally {
    page.off('pageerror', listener);
  }
}

/** The work item page's properties sidebar. */
function propertiesSidebar(page: Page) {
  return page.locator('div', { has: page.getByText('Properties', { exact: true }) }).last();
}

/** The label chips of the work item page's sidebar (each a rounded chip holding a colour dot and the name). */
function labelChip(page: Page, name: string) {
  return propertiesSidebar(page)
    .locator('div.rounded-full', { has: page.locator('div.truncate', { hasText: new RegExp(`^${name}$`) }) })
    .filter({ visible: true });
}

/** The keys of Meridian's answers the steps read. */
interface ApiObject {
  id: string;
  token?: string;
  archive_in?: number;
  close_in?: number;
}

/**
 * A call to Meridian's App API with a person's browser session (its cookies and CSRF token), for the
 * set-up a step does not test through the screens (or what another client does meanwhile).
 */
async function appApi(ctx: Ctx, who: string, method: string, path: string, data?: unknown): Promise<ApiObject> {
  const context = ctx.contexts[who];
  let csrf = (await context.cookies(ctx.stack.origin)).find((c) => c.name === 'XSRF-TOKEN')?.value;
  if (!csrf) {
    const r = await context.request.get(`${ctx.stack.origin}/auth/get-csrf-token/`);
    csrf = ((await r.json()) as { csrf_token: string }).csrf_token;
  }
  const res = await context.request.fetch(`${ctx.stack.origin}${path}`, {
    method,
    data,
    headers: { 'X-CSRFToken': csrf, Origin: ctx.stack.origin, Referer: `${ctx.stack.origin}/` },
  });
  if (!res.ok()) throw new Error(`${method} ${path}: ${res.status()} ${(await res.text()).slice(0, 300)}`);
  return res.status() === 204 ? { id: '' } : ((await res.json()) as ApiObject);
}

/** A date `days` from today, `YYYY-MM-DD` (UTC). */
function day(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** The work item's id by its key (`WEB-3`). */
async function workItemId(ctx: Ctx, key: string): Promise<string> {
  return ((await appApi(ctx, 'ana', 'GET', `/api/workspaces/${ctx.data.slug}/work-items/${key}/`)) as { id: string })
    .id;
}

/** Collects the console errors of a page while `action` runs. */
async function consoleErrorsDuring(page: Page, action: () => Promise<void>): Promise<string[]> {
  const errors: string[] = [];
  const listener = (m: import('playwright-core').ConsoleMessage) => {
    if (m.type() === 'error') errors.push(m.text());
  };
  page.on('console', listener);
  try {
    await action();
  } finally {
    page.off('console', listener);
  }
  return errors;
}

/** Opens a row's `…` menu (the row holding `text`) and picks `item`. */
/**
 * Opens a cycle's page until its list shows `text`: the page opening starts the app's delta sync
 * (`updated_at__gt`) and reads its local copy at once, so the first read may come before the sync
 * ends (Plane's own frontend); the next opening reads what the sync brought. Twice at most: a
 * change that never reaches the delta still fails.
 */
async function inCycleAfterSync(page: Page, url: string, text: string): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    await page.goto(url);
    await page.getByText('Design the landing page', { exact: true }).first().waitFor();
    try {
      await page.getByText(text, { exact: true }).first().waitFor({ timeout: 10_000 });
      return;
    } catch (err) {
      if (attempt === 2) throw err;
    }
  }
}

/** Archives a list row (cycle or module) from its menu, confirms, and finds it on the archive page. */
async function archiveFromRow(page: Page, text: string, archivesUrl: string): Promise<void> {
  await rowMenu(page, text, /^archive$/i);
  await Promise.all([
    page.waitForResponse(
      (r) => /\/archive\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST' && r.ok(),
    ),
    // the confirmation's button (the row menu, still open behind it, has an Archive item too)
    page
      .getByRole('dialog')
      .getByRole('button', { name: /^archive$/i })
      .first()
      .click(),
  ]);
  await page.goto(archivesUrl);
  await page.getByText(text, { exact: true }).first().waitFor();
}

async function rowMenu(page: Page, text: string, item: RegExp): Promise<void> {
  // the innermost block holding both the row's text and a visible menu button: a row may hold a
  // hidden copy of its button (the narrow layout's) nearer its title than the visible one
  const menuButton = 'button:has(svg.lucide-ellipsis)';
  const row = page
    .locator('div')
    .filter({ has: page.getByText(text, { exact: true }).filter({ visible: true }) })
    .filter({ has: page.locator(menuButton).filter({ visible: true }) })
    .last();
  await row.locator(menuButton).filter({ visible: true }).first().click();
  // the open menu keeps moving with its row's hover state (Playwright never sees it "stable"): the
  // item is focused and chosen with Enter, as a keyboard user does (a disabled item is not chosen)
  const entry = page.getByRole('menuitem', { name: item }).filter({ visible: true }).first();
  await entry.focus();
  await page.keyboard.press('Enter');
}

export const teamDaySteps: Step<Ctx>[] = [
  {
    name: 'instance set-up in the admin app',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('admin');
      await page.goto('/god-mode/');
      const start = page.getByRole('button', { name: /get started/i });
      if (await start.isVisible({ timeout: 5000 }).catch(() => false)) await start.click();
      const a = PEOPLE.admin;
      await page.getByPlaceholder('Wilber').fill(a.first);
      await page.getByPlaceholder('Wright').fill(a.last);
      await page.getByPlaceholder('name@company.com').fill(a.email);
      await page.getByPlaceholder('Company name').fill('Meridian Test Co');
      await page.getByPlaceholder('New password...').fill(a.password);
      await page.getByPlaceholder('Confirm password').fill(a.password);
      await page
        .getByRole('button', { name: /continue|get started|sign up/i })
        .last()
        .click();
      await page.waitForURL(/\/god-mode\/general/, { timeout: 30_000 });
      await page
        .getByText(/general settings/i)
        .first()
        .waitFor();
    },
  },
  {
    name: 'sign up and onboarding',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await signUp(page, 'ana');
      await page.waitForURL(/\/onboarding/);
      await onboardProfile(page, 'ana');
    },
  },
  {
    name: 'create a workspace and invite a teammate',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.getByPlaceholder('Something familiar and recognizable is always best.').fill('Acme Team');
      ctx.data.slug = 'acme-team';
      await page.getByText('Select a range').click();
      await page.getByRole('option').first().click();
      await page.getByRole('button', { name: /create workspace/i }).click();
      // the invite step: Ben joins later from his own onboarding
      await page.getByPlaceholder('charlie.taylor@frstflt.com').fill(PEOPLE.ben.email);
      await page.getByRole('button', { name: /^continue$/i }).click();
      await page.waitForURL(/\/acme-team\/?$/, { timeout: 30_000 });
      await page
        .getByText(/home|projects/i)
        .first()
        .waitFor();
    },
  },
  {
    name: 'the admin connects an OIDC provider for an email domain (Instance API)',
    run: async (ctx) => {
      // the connection: the domain, no password sign-in for it, new users created at their first
      // sign-in, and the provider's admins group mapped to Admin in the team's workspace
      const connection = await instanceApi(ctx, 'POST', '/api/instances/sso-connections/', {
        kind: 'oidc',
        name: 'Corp IdP',
        domains: [SSO_DOMAIN],
        allow_password: false,
        jit_provisioning: true,
        settings: {
          issuer: ctx.oidc.url,
          client_id: 'meridian-web',
          client_secret: 'meridian-web-secret',
          scopes: 'openid email profile groups',
          groups_claim: 'groups',
        },
        group_role_mappings: [{ group: SSO_ADMIN_GROUP, workspace_slug: ctx.data.slug, role: 20 }],
      });
      const redirectUri = connection.redirect_uri as string;
      if (redirectUri !== `${ctx.stack.origin}/auth/oidc/callback/`)
        throw new Error(`the connection's redirect_uri is ${redirectUri}, not API_BASE_URL/auth/oidc/callback/`);
      if (JSON.stringify(connection).includes('meridian-web-secret')) throw new Error('the secret was answered back');
      // the client at the provider, with the redirect URI Meridian answered
      ctx.oidc.clients.set('meridian-web', {
        client_id: 'meridian-web',
        client_secret: 'meridian-web-secret',
        redirect_uris: [redirectUri],
        post_logout_redirect_uris: [`${ctx.stack.origin}/`],
      });
      // the admin app still opens (the instance admin's own sign-in never goes through SSO)
      const page = await ctx.tab('admin');
      await page.goto('/god-mode/general/');
      await page
        .getByText(/general settings/i)
        .first()
        .waitFor();
    },
  },
  {
    name: 'a person of that domain signs in through the OIDC provider on the unmodified sign-in screen',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const sam = PEOPLE.sam;
      ctx.oidc.next = {
        sub: 'sam-0001',
        email: sam.email,
        email_verified: true,
        name: 'Sam Sso',
        groups: [SSO_ADMIN_GROUP],
      };
      const page = await ctx.tab('sam');
      await page.goto('/');
      await page.getByPlaceholder('name@company.com').fill(sam.email);
      await page.getByRole('button', { name: /^continue$/i }).click();
      // Plane's password form: any character (Meridian sends the form on to the provider)
      await page.getByPlaceholder('Enter password').fill('x');
      await page
        .getByRole('button', { name: /^(continue|go to workspace|sign in)$/i })
        .last()
        .click();
      // the provider's own sign-in page, the email given as login_hint
      await page.waitForURL((url) => url.href.startsWith(`${ctx.oidc.url}/interaction/`), { timeout: 30_000 });
      const authorize = ctx.oidc.authorizations.at(-1)!;
      if (authorize.get('login_hint') !== sam.email || authorize.get('code_challenge_method') !== 'S256')
        throw new Error(`the authorization request: ${authorize.toString()}`);
      const email = page.getByLabel('Email');
      if ((await email.inputValue()) !== sam.email) await email.fill(sam.email);
      await page.getByLabel('Password').fill(sam.password);
      await page.getByRole('button', { name: /^sign in$/i }).click();
      // back in the web app, signed in: a first sign-in goes to the onboarding
      await page.waitForURL((url) => url.href.startsWith(ctx.stack.origin) && url.pathname.startsWith('/onboarding'), {
        timeout: 30_000,
      });
      // her profile: an account without a password (is_password_autoset) gets the details screen
      // alone (names, an optional password), then the role and domain screen
      await page.getByPlaceholder('Wilbur').fill(sam.first);
      await page.getByPlaceholder('Wright').fill(sam.last);
      await page.getByRole('button', { name: /^continue$/i }).click();
      await page.getByText('Individual contributor', { exact: true }).click();
      await page.getByText('Engineering', { exact: true }).click();
      await page.getByRole('button', { name: /^continue$/i }).click();
      // the group mapping made her a member of the team's workspace: the onboarding ends there
      await page.waitForURL(new RegExp(`/${ctx.data.slug}/?$`), { timeout: 30_000 });
      await dismissTour(page);
      const me = await page.context().request.get(`${ctx.stack.origin}/api/users/me/`);
      const body = (await me.json()) as { email?: string };
      if (!me.ok() || body.email !== sam.email)
        throw new Error(`/api/users/me/: ${me.status()} ${JSON.stringify(body)}`);
    },
  },
  {
    name: "the provider's group gives the OIDC user her workspace role",
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/settings/members/`);
      await page.locator('tr', { hasText: PEOPLE.sam.email }).getByText('Admin', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'the OIDC user signs out, which ends the provider session too',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('sam');
      await page.goto(`/${ctx.data.slug}/`);
      await dismissTour(page);
      await page.getByText('Acme Team', { exact: true }).filter({ visible: true }).first().click(); // the workspace menu
      await page
        .getByText(/sign out/i)
        .first()
        .click();
      // Meridian ends its session and sends the browser to the provider's end-session page
      await page.waitForURL((url) => url.href.startsWith(`${ctx.oidc.url}/session/end`), { timeout: 30_000 });
      await page.getByRole('button', { name: /^sign out$/i }).click();
      // and the provider back to the web app's sign-in screen
      await page.waitForURL((url) => url.href.startsWith(ctx.stack.origin) && url.pathname === '/', {
        timeout: 30_000,
      });
      await page.getByPlaceholder('name@company.com').waitFor();
      const me = await page.context().request.get(`${ctx.stack.origin}/api/users/me/`);
      if (me.status() !== 401) throw new Error(`/api/users/me/ after signing out: ${me.status()}`);
      // signing in again asks the provider for her password again (its session ended too)
      await page.getByPlaceholder('name@company.com').fill(PEOPLE.sam.email);
      await page.getByRole('button', { name: /^continue$/i }).click();
      await page.getByPlaceholder('Enter password').fill('x');
      await page
        .getByRole('button', { name: /^(continue|go to workspace|sign in)$/i })
        .last()
        .click();
      await page.waitForURL((url) => url.href.startsWith(`${ctx.oidc.url}/interaction/`), { timeout: 30_000 });
      await page.getByLabel('Password').waitFor();
    },
  },
  {
    name: 'create a project',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/`);
      await page
        .getByRole('button', { name: /add project/i })
        .first()
        .click();
      await page.getByPlaceholder('Project name').fill('Website');
      const identifier = page.getByPlaceholder('Project ID');
      await identifier.fill('WEB');
      await page.getByRole('button', { name: /create project/i }).click();
      await page.getByRole('link', { name: /open project/i }).click();
      await page.waitForURL(/\/projects\/[0-9a-f-]{36}\/issues/);
      ctx.data.projectId = /projects\/([0-9a-f-]{36})/.exec(page.url())![1];
    },
  },
  {
    name: 'create work items in the list layout',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      // the first through the create modal (an empty project shows no list yet)
      await page
        .getByRole('button', { name: /add work item/i })
        .first()
        .click();
      await page.getByPlaceholder('Title', { exact: true }).fill('Design the landing page');
      await page.getByRole('button', { name: /^save$/i }).click();
      await page.getByText('Design the landing page', { exact: true }).first().waitFor();
      // the others inline, with the list's quick add (it stays open for the next one)
      await page.getByText('New Work item', { exact: true }).first().click();
      for (const title of ['Write the launch post', 'Fix the signup bug']) {
        const input = page.getByPlaceholder('Work item title');
        await input.fill(title);
        await input.press('Enter');
        await page.getByText(title, { exact: true }).first().waitFor();
      }
      await page.keyboard.press('Escape');
    },
  },
  {
    name: 'create work items in the board layout',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      // the layout switch: list, board (kanban), calendar, spreadsheet, gantt
      await page.locator('div.rounded.bg-custom-background-80.p-1 > button').nth(1).click();
      await page.getByText('New Work item', { exact: true }).first().click(); // the layout's quick add
      const input = page.getByPlaceholder('Work item title');
      await input.fill('Prepare the board demo');
      await input.press('Enter');
      await page.getByText('Prepare the board demo', { exact: true }).first().waitFor();
      await page.keyboard.press('Escape');
      await page.locator('div.rounded.bg-custom-background-80.p-1 > button').nth(0).click();
    },
  },
  {
    name: 'a teammate signs up and joins from the invitation',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('ben');
      await signUp(page, 'ben');
      await page.waitForURL(/\/onboarding/);
      await onboardProfile(page, 'ben');
      await page.getByText('Acme Team', { exact: true }).first().click();
      await page.getByRole('button', { name: /continue to workspace/i }).click();
      await page.waitForURL(/\/acme-team\/?$/, { timeout: 30_000 });
      // and joins the project from its card
      await dismissTour(page);
      await page.goto(`/${ctx.data.slug}/projects/`);
      await page
        .getByText(/^Created on/)
        .first()
        .click(); // a project card opens its join dialog
      await page.getByRole('dialog').getByRole('button', { name: /join/i }).click();
      // the project joins the sidebar
      await page.getByText('Website', { exact: true }).filter({ visible: true }).first().waitFor();
    },
  },
  {
    name: 'change state, priority, assignee and labels',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/browse/WEB-1/`);
      await page.getByText('Design the landing page').first().waitFor();
      const sidebar = page.locator('div', { has: page.getByText('Properties', { exact: true }) }).last();
      await sidebar.getByRole('button', { name: 'Backlog' }).first().click();
      await page
        .getByRole('option', { name: /in progress/i })
        .first()
        .click();
      await sidebar
        .getByRole('button', { name: /^none$/i })
        .first()
        .click();
      await page
        .getByRole('option', { name: /^high$/i })
        .first()
        .click();
      await sidebar
        .getByRole('button', { name: /add assignees/i })
        .first()
        .click();
      await page.getByRole('option', { name: /ben/i }).first().click();
      await page.keyboard.press('Escape');
      await sidebar.getByText('Select label').first().click();
      const search = page.getByPlaceholder('Search').last();
      await search.fill('frontend');
      await search.press('Enter');
      await page.keyboard.press('Escape');
      await until(
        page,
        async () =>
          (await sidebar.getByText('In Progress').count()) > 0 &&
          (await sidebar.getByText('High').count()) > 0 &&
          (await sidebar.getByText('frontend').count()) > 0,
        'the new state, priority and label in the sidebar',
      );
    },
  },
  {
    name: 'a labelled work item shows its label chips on a fresh load',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      // a fresh load of the project's list (its rows come from the app's local copy, filled by the
      // v2/issues sync): the row shows the label
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/issues/`);
      await page.reload();
      // (only WEB-1 has a label)
      await page.getByText('frontend', { exact: true }).filter({ visible: true }).first().waitFor();
      // a fresh load of the work item's page: the detail's `label_ids` and the project's labels.
      // Plane's page draws a chip once, when the work item is put in its store (label-list-item.tsx
      // is no MobX observer), and the project's labels are asked for only after the work item
      // arrives; the chip shows when the app reads the work item again, as it does when the person
      // comes back to the tab (SWR's revalidation on focus)
      await page.goto(`/${ctx.data.slug}/browse/WEB-1/`);
      await Promise.all([
        page.waitForResponse((r) => /\/issue-labels\/$/.test(new URL(r.url()).pathname) && r.status() === 200),
        page.reload(),
      ]);
      await page.getByText('Design the landing page').first().waitFor();
      // (SWR lets one focus through every few seconds: the person's focus, again until it does)
      await until(
        page,
        async () => {
          await page.evaluate('window.dispatchEvent(new Event("focus"))');
          return (await labelChip(page, 'frontend').count()) > 0;
        },
        'the label chip once the app reads the work item again',
      );
    },
  },
  {
    name: 'add a link on the work-item page',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await withoutPageErrors(page, async () => {
        await page.goto(`/${ctx.data.slug}/browse/WEB-1/`);
        await page.getByText('Design the landing page').first().waitFor();
        await page
          .locator('button', { hasText: /^add link$/i })
          .first()
          .click();
        await page.getByPlaceholder('Type or paste a URL').fill('https://example.com/launch-brief');
        await page.getByPlaceholder("What you'd like to see this link as").fill('Launch brief');
        await Promise.all([
          page.waitForResponse(
            (r) =>
              /\/issue-links\/$/.test(new URL(r.url()).pathname) &&
              r.request().method() === 'POST' &&
              r.status() === 201,
          ),
          page
            .getByRole('button', { name: /^add link$/i })
            .last()
            .click(),
        ]);
        // listed at once, and again after a reload (from the detail's `expand=issue_link`)
        await page.getByText('Launch brief').filter({ visible: true }).first().waitFor();
        await page.reload();
        await page.getByText('Design the landing page').first().waitFor();
        await page.getByText('Launch brief').filter({ visible: true }).first().waitFor();
      });
    },
  },
  {
    name: 'comment with a mention and attach a file',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.keyboard.press('Escape');
      await page.locator('.ProseMirror').last().click(); // the comment box under the activity
      await page.keyboard.type('Please review this, @Ben');
      // the editor's mention list (it shows "Loading..." until entity-search answers): pick Ben
      await page.locator('div.shadow-custom-shadow-rg').getByText(/ben/i).first().waitFor();
      await page.keyboard.press('Enter');
      await page.keyboard.type(' thanks!');
      await Promise.all([
        page.waitForResponse(
          (r) =>
            r.request().method() === 'POST' && /\/comments\/$/.test(new URL(r.url()).pathname) && r.status() === 201,
        ),
        page.getByRole('button', { name: /^comment$/i }).click(),
      ]);
      // the posted comment carries the mention chip (the page also keeps a hidden copy of the editor)
      await page
        .locator('a', { hasText: /^@ben$/i })
        .filter({ visible: true })
        .first()
        .waitFor();
      // the Attach button is a drop zone with its file input inside
      await page
        .locator('button', { hasText: /^attach$/i })
        .locator('input[type=file]')
        .setInputFiles({ name: 'spec.txt', mimeType: 'text/plain', buffer: Buffer.from('the landing page spec') });
      await page.getByText('spec.txt').first().waitFor();
    },
  },
  {
    name: 'relate two work items: the relation shows at once and its activity reads right',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/browse/WEB-2/`);
      await page.getByText('Write the launch post').first().waitFor();
      await page
        .locator('button', { hasText: /^add relation$/i })
        .first()
        .click();
      await page.getByText('Relates to', { exact: true }).filter({ visible: true }).first().click();
      await page.getByText('Fix the signup bug').filter({ visible: true }).last().click();
      await Promise.all([
        page.waitForResponse(
          (r) => /\/issue-relation\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST' && r.ok(),
        ),
        page.getByRole('button', { name: /add selected work items/i }).click(),
      ]);
      // without a reload: the relations section lists it and the history says what happened
      await page.getByText('Fix the signup bug').filter({ visible: true }).first().waitFor();
      await page
        .getByText(/marked that this work item relates to/i)
        .first()
        .waitFor();
      await page.getByText('WEB-3.', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'create a cycle and add work items',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/cycles/`);
      await page
        .getByRole('button', { name: /add cycle|new cycle|create cycle/i })
        .first()
        .click();
      await page.getByPlaceholder('Title').fill('Sprint 1');
      await page
        .getByRole('button', { name: /create cycle/i })
        .last()
        .click();
      await page.getByText('Sprint 1').first().click();
      await page.waitForURL(/\/cycles\/[0-9a-f-]{36}/);
      ctx.data.cycleId = /cycles\/([0-9a-f-]{36})/.exec(page.url())![1];
      await page
        .getByRole('button', { name: /add existing work item|existing work item/i })
        .first()
        .click();
      await page.getByText('Design the landing page').last().click();
      await page.getByRole('button', { name: /add selected work items|add work items/i }).click();
      await page.getByText('Design the landing page').first().waitFor();
    },
  },
  {
    name: 'create a module and add work items',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/modules/`);
      await page
        .getByRole('button', { name: /add module|new module|create module/i })
        .first()
        .click();
      await page.getByPlaceholder('Title').fill('Launch');
      await page
        .getByRole('button', { name: /create module/i })
        .last()
        .click();
      await page.getByText('Launch', { exact: true }).first().click();
      await page.waitForURL(/\/modules\/[0-9a-f-]{36}/);
      ctx.data.moduleId = /modules\/([0-9a-f-]{36})/.exec(page.url())![1];
      await page
        .getByRole('button', { name: /add existing work item|existing work item/i })
        .first()
        .click();
      await page.getByText('Write the launch post').last().click();
      await page.getByRole('button', { name: /add selected work items|add work items/i }).click();
      await page.getByText('Write the launch post').first().waitFor();
    },
  },
  {
    name: 'work items added to a cycle through the API show in the cycle at once',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      const project = `/${ctx.data.slug}/projects/${ctx.data.projectId}`;
      // the app's local copy of the project is up to date (its list loaded)
      await page.goto(`${project}/issues/`);
      await page.getByText('Fix the signup bug', { exact: true }).first().waitFor();
      // a script adds a work item to the cycle with an API key (v1 API), outside the page
      const key = await appApi(ctx, 'ana', 'POST', `/api/workspaces/${ctx.data.slug}/api-tokens/`, {
        label: 'sprint script',
      });
      const issue = await workItemId(ctx, 'WEB-3');
      const res = await fetch(
        `${ctx.stack.meridian}/api/v1/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}/cycles/${ctx.data.cycleId}/cycle-issues/`,
        {
          method: 'POST',
          headers: { 'X-API-Key': key.token ?? '', 'Content-Type': 'application/json' },
          body: JSON.stringify({ issues: [issue] }),
        },
      );
      if (!res.ok) throw new Error(`v1 cycle-issues: ${res.status} ${await res.text()}`);
      // the cycle's list (read from the app's local copy after its delta sync) shows it
      await inCycleAfterSync(page, `${project}/cycles/${ctx.data.cycleId}/`, 'Fix the signup bug');
      // and another through the App API from outside the page (another client of Ana's)
      await page.goto(`${project}/issues/`);
      await page.getByText('Prepare the board demo', { exact: true }).first().waitFor();
      await appApi(
        ctx,
        'ana',
        'POST',
        `/api/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}/cycles/${ctx.data.cycleId}/cycle-issues/`,
        { issues: [await workItemId(ctx, 'WEB-4')] },
      );
      await inCycleAfterSync(page, `${project}/cycles/${ctx.data.cycleId}/`, 'Prepare the board demo');
    },
  },
  {
    name: "the active cycle's burndown and priority work items render",
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      const project = `/${ctx.data.slug}/projects/${ctx.data.projectId}`;
      // Sprint 1 runs from three days ago to four days ahead: the active cycle
      await appApi(
        ctx,
        'ana',
        'PATCH',
        `/api/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}/cycles/${ctx.data.cycleId}/`,
        {
          start_date: day(-3),
          end_date: day(4),
        },
      );
      // one urgent and one low work item in the cycle, for its "Priority work items"
      const api = `/api/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}/issues`;
      await appApi(ctx, 'ana', 'PATCH', `${api}/${await workItemId(ctx, 'WEB-3')}/`, { priority: 'urgent' });
      await appApi(ctx, 'ana', 'PATCH', `${api}/${await workItemId(ctx, 'WEB-4')}/`, { priority: 'low' });
      const errors = await consoleErrorsDuring(page, async () => {
        await page.goto(`${project}/cycles/${ctx.data.cycleId}/`);
        await page.getByText('Design the landing page', { exact: true }).first().waitFor();
        await page.goto(`${project}/cycles/`);
        await page
          .getByText(/work item burndown|burndown/i)
          .first()
          .waitFor();
        // the chart's lines are drawn (an SVG path under the burndown's heading)
        await page.locator('svg path').first().waitFor();
        await page.waitForLoadState('networkidle');
      });
      const nan = errors.filter((e) => /NaN/.test(e));
      if (nan.length) throw new Error(`console errors with NaN: ${nan.slice(0, 3).join(' | ')}`);
      // the active cycle's priority work items (`cycle-issues/?priority=urgent,high`): the urgent
      // one with its state, not the low one
      await page
        .getByRole('tab', { name: /priority work items/i })
        .first()
        .click();
      const panel = page.getByRole('tabpanel').filter({ visible: true }).first();
      await panel.getByText('Fix the signup bug', { exact: true }).first().waitFor();
      await until(
        page,
        async () => (await panel.getByText('Prepare the board demo', { exact: true }).count()) === 0,
        'only the urgent and high priority work items',
      );
    },
  },
  {
    name: 'archive a completed cycle and a completed module',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      const project = `/${ctx.data.slug}/projects/${ctx.data.projectId}`;
      const api = `/api/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}`;
      // a sprint that ended last week, and the Launch module marked completed
      await appApi(ctx, 'ana', 'POST', `${api}/cycles/`, {
        name: 'Sprint 0',
        start_date: day(-14),
        end_date: day(-8),
        project_id: ctx.data.projectId,
      });
      await appApi(ctx, 'ana', 'PATCH', `${api}/modules/${ctx.data.moduleId}/`, { status: 'completed' });
      await page.goto(`${project}/cycles/`);
      // the list folds the completed cycles away
      await page.getByText('Completed cycle', { exact: true }).first().click();
      await page.getByText('Sprint 0', { exact: true }).filter({ visible: true }).first().waitFor();
      await archiveFromRow(page, 'Sprint 0', `${project}/archives/cycles/`);
      await page.goto(`${project}/modules/`);
      await page.getByText('Launch', { exact: true }).first().waitFor();
      await archiveFromRow(page, 'Launch', `${project}/archives/modules/`);
    },
  },
  {
    name: 'estimate a work item',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      const api = `/api/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}`;
      // the project's estimate system (points 1, 2, 3), switched on
      const estimate = await appApi(ctx, 'ana', 'POST', `${api}/estimates/`, {
        estimate: { name: 'Points', type: 'points', last_used: true },
        estimate_points: [
          { key: 1, value: '1' },
          { key: 2, value: '2' },
          { key: 3, value: '3' },
        ],
      });
      await appApi(ctx, 'ana', 'PATCH', `${api}/`, { estimate: estimate.id });
      const listed = (await appApi(ctx, 'ana', 'GET', `${api}/estimates/`)) as unknown as Array<{
        last_used: boolean;
        points?: unknown[];
      }>;
      if (!listed[0]?.last_used || listed[0]?.points?.length !== 3)
        throw new Error(`the estimates the app reads: ${JSON.stringify(listed).slice(0, 300)}`);
      await page.goto(`/${ctx.data.slug}/browse/WEB-1/`);
      await page.reload();
      await page.getByText('Design the landing page').first().waitFor();
      const row = propertiesSidebar(page).locator('div.flex.h-8', { hasText: /^Estimate/ });
      await row.getByRole('button').first().click();
      await Promise.all([
        page.waitForResponse(
          (r) =>
            /\/issues\/[0-9a-f-]{36}\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH' && r.ok(),
        ),
        page.getByRole('option', { name: /^2$/ }).first().click(),
      ]);
      await page.reload();
      await page.getByText('Design the landing page').first().waitFor();
      await until(page, async () => (await row.innerText()).includes('2'), 'the estimate after a reload');
    },
  },
  {
    name: 'auto-archive and auto-close settings',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/settings/automations/`);
      for (const title of ['Auto-archive closed work items', 'Auto-close work items']) {
        const section = page
          .locator('div', { has: page.getByText(title, { exact: true }) })
          .filter({ has: page.getByRole('switch') })
          .last();
        await Promise.all([
          page.waitForResponse(
            (r) =>
              /\/projects\/[0-9a-f-]{36}\/$/.test(new URL(r.url()).pathname) &&
              r.request().method() === 'PATCH' &&
              r.ok(),
          ),
          section.getByRole('switch').first().click(),
        ]);
      }
      await page.reload();
      await page.getByText('Auto-archive work items that are closed for').first().waitFor();
      await page.getByText('Auto-close work items that are inactive for').first().waitFor();
      const project = await appApi(
        ctx,
        'ana',
        'GET',
        `/api/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}/`,
      );
      if (!((project.archive_in ?? 0) > 0) || !((project.close_in ?? 0) > 0))
        throw new Error(`archive_in ${project.archive_in}, close_in ${project.close_in}`);
    },
  },
  {
    name: 'react on a pending intake work item',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      const project = `/${ctx.data.slug}/projects/${ctx.data.projectId}`;
      await page.goto(`${project}/settings/features/`);
      const intake = page.locator('div.flex.items-center.justify-between', {
        has: page.locator('h4', { hasText: /^Intake$/ }),
      });
      await Promise.all([
        page.waitForResponse(
          (r) =>
            /\/projects\/[0-9a-f-]{36}\/$/.test(new URL(r.url()).pathname) &&
            r.request().method() === 'PATCH' &&
            r.ok(),
        ),
        intake.getByRole('switch').click(),
      ]);
      await page.goto(`${project}/inbox/`);
      await page
        .getByRole('button', { name: /^add work item$/i })
        .first()
        .click();
      await page.getByPlaceholder('Title', { exact: true }).fill('Customer asks for dark mode');
      await Promise.all([
        page.waitForResponse(
          (r) =>
            /\/inbox-issues\/$|\/intake-issues\/$/.test(new URL(r.url()).pathname) &&
            r.request().method() === 'POST' &&
            r.ok(),
        ),
        page.getByRole('button', { name: /^create work item$/i }).click(),
      ]);
      await page.getByText('Customer asks for dark mode').first().click();
      await page.locator('button:has(svg.lucide-smile-plus)').filter({ visible: true }).first().click();
      await Promise.all([
        page.waitForResponse(
          (r) => /\/reactions\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST' && r.ok(),
        ),
        page.locator('div.rounded-md.border button').filter({ visible: true }).first().click(),
      ]);
      // the reaction's count shows beside the picker
      await page
        .locator('button', { hasText: /1/ })
        .filter({ has: page.locator('span') })
        .first()
        .waitFor();
    },
  },
  {
    name: 'save a view and add it to favourites',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/views/`);
      await page
        .getByRole('button', { name: /^add view$/i })
        .first()
        .click();
      await page.getByPlaceholder('Title').fill('Everything open');
      await page.getByRole('button', { name: /create view/i }).click();
      await page.getByText('Everything open').first().waitFor();
      // the row's star: the sidebar's favourites list then shows the view
      await Promise.all([
        page.waitForResponse((r) => /\/user-favorite/.test(r.url()) && r.request().method() === 'POST'),
        page.locator('button:has(svg.lucide-star)').first().click(),
      ]);
      await page
        .getByText(/^favorites$/i)
        .first()
        .waitFor();
      await page.getByText('Everything open').first().click();
      await page.waitForURL(/\/views\/[0-9a-f-]{36}/);
      await page.getByText('Design the landing page').first().waitFor();
    },
  },
  {
    name: 'write a page',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/pages/`);
      await page
        .getByRole('button', { name: /^add page$/i })
        .first()
        .click();
      await page.waitForURL(/\/pages\/[0-9a-f-]{36}/);
      await Promise.all([
        page.waitForResponse((r) => /\/pages\/[0-9a-f-]{36}\/$/.test(r.url()) && r.request().method() === 'PATCH'),
        page.getByPlaceholder('Untitled').fill('Launch plan'),
      ]);
      // without a live co-editing server the editor saves the body through description/ (decisions);
      // with one, the live server stores it (live-steps.ts checks that)
      await page.locator('.ProseMirror').first().click({ timeout: 60_000 });
      await Promise.all([
        ctx.stack.live === 'none'
          ? page.waitForResponse(
              (r) => /\/description\/$/.test(r.url()) && r.request().method() === 'PATCH' && r.status() === 200,
              { timeout: 30_000 },
            )
          : page.getByText('Ship the landing page on Monday.').waitFor(),
        page.keyboard.type('Ship the landing page on Monday.'),
      ]);
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/pages/`);
      await page.getByText('Launch plan').first().waitFor();
    },
  },
  {
    name: 'save a draft and move it into the project',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/drafts/`);
      await page
        .getByRole('button', { name: /draft a work item/i })
        .first()
        .click();
      await page.getByPlaceholder('Title', { exact: true }).fill('Plan the retro');
      await Promise.all([
        page.waitForResponse((r) => /\/draft-issues\/$/.test(r.url()) && r.request().method() === 'POST'),
        page.getByRole('button', { name: /save to drafts/i }).click(),
      ]);
      // the draft's row menu: Move to project, then Add to project in the modal it opens
      await page
        .locator('button:has(svg.lucide-ellipsis)')
        .filter({ visible: true })
        .last() // the only draft's row (the sidebar's buttons come first; a hidden twin serves small screens)
        .click();
      await page
        .getByText(/move to project/i)
        .first()
        .click();
      await Promise.all([
        page.waitForResponse((r) => /\/draft-to-issue\//.test(r.url()) && r.request().method() === 'POST'),
        page.getByRole('button', { name: /add to project/i }).click(),
      ]);
      // the app's local cache logs "Error while adding issue to db" for the moved draft and its open
      // list misses it until the page loads again (noted in the closing note; the server lists it)
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/issues/`);
      await page.waitForTimeout(5000); // the cache's sync of the project (v2/issues/) runs on opening
      await page.reload();
      await page.getByText('Plan the retro', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'drafts across projects',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      // a second project, and a draft in each
      const other = await appApi(ctx, 'ana', 'POST', `/api/workspaces/${ctx.data.slug}/projects/`, {
        name: 'Mobile',
        identifier: 'MOB',
        network: 2,
      });
      ctx.data.otherProjectId = other.id;
      for (const [name, projectId] of [
        ['Sketch the onboarding', ctx.data.projectId],
        ['Try the offline mode', other.id],
      ])
        await appApi(ctx, 'ana', 'POST', `/api/workspaces/${ctx.data.slug}/draft-issues/`, {
          name,
          project_id: projectId,
        });
      await page.goto(`/${ctx.data.slug}/drafts/`);
      await page.getByText('Sketch the onboarding').first().waitFor();
      await page.getByText('Try the offline mode').first().waitFor();
      // each row names its project
      await page.getByText(/^MOB/).first().waitFor();
    },
  },
  {
    name: 'a workspace view with filters',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/workspace-views/all-issues/`);
      await page.getByText('Write the launch post').first().waitFor();
      // a new workspace view, then its filter: high priority only, saved with Update view
      await page.getByRole('button', { name: /^add view$/i }).click();
      await page.getByPlaceholder('Title').fill('High priority');
      await Promise.all([
        page.waitForResponse(
          (r) => /\/views\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST' && r.ok(),
        ),
        page.getByRole('button', { name: /create view/i }).click(),
      ]);
      await page.getByText('High priority', { exact: true }).filter({ visible: true }).first().click();
      await page.waitForURL(/\/workspace-views\/[0-9a-f-]{36}/);
      await page.getByText('Write the launch post').first().waitFor();
      await page
        .getByRole('button', { name: /^filters$/i })
        .first()
        .click();
      await page.getByPlaceholder('Search').last().fill('high');
      // the option in the filters menu (the grid's priority cells say "High" too)
      await page
        .locator('div.flex-grow.truncate', { hasText: /^High$/ })
        .filter({ visible: true })
        .first()
        .click();
      await page.keyboard.press('Escape');
      await until(
        page,
        async () => (await page.getByText('Write the launch post').count()) === 0,
        'the filter to apply',
      );
      await Promise.all([
        page.waitForResponse(
          (r) =>
            /\/views\/[0-9a-f-]{36}\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH' && r.ok(),
        ),
        page.getByRole('button', { name: /^update view$/i }).click(),
      ]);
      await page.reload();
      await page.getByText('Design the landing page').first().waitFor();
      await until(page, async () => (await page.getByText('Write the launch post').count()) === 0, 'the saved filter');
    },
  },
  {
    name: 'the teammate reads the notification in the inbox',
    run: async (ctx) => {
      const page = await ctx.tab('ben');
      await page.goto(`/${ctx.data.slug}/notifications/`);
      await dismissTour(page);
      await page.getByText('Design the landing page').first().click();
      await page.getByText('Please review this').first().waitFor({ state: 'attached' });
    },
  },
  {
    name: "change a member's role in the workspace and in the project",
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      const memberPatch = (r: import('playwright-core').Response) =>
        /\/members\/[0-9a-f-]{36}\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'PATCH';
      // the workspace: Ben, a Member, becomes an Admin
      await page.goto(`/${ctx.data.slug}/settings/members/`);
      const wsRow = page.locator('tr', { hasText: PEOPLE.ben.email });
      await wsRow
        .getByRole('button', { name: /member/i })
        .first()
        .click();
      const [ws] = await Promise.all([
        page.waitForResponse(memberPatch),
        page
          .getByRole('option', { name: /^admin$/i })
          .first()
          .click(),
      ]);
      if (!ws.ok()) throw new Error(`workspace role: ${ws.status()} ${await ws.text()}`);
      await page.reload();
      await page.locator('tr', { hasText: PEOPLE.ben.email }).getByText('Admin', { exact: true }).first().waitFor();
      // the project: Ben, a Member there, becomes an Admin
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/settings/members/`);
      const pRow = page.locator('tr', { hasText: /ben/i }).filter({ hasText: /member/i });
      await pRow
        .getByRole('button', { name: /member/i })
        .first()
        .click();
      const [pr] = await Promise.all([
        page.waitForResponse(memberPatch),
        page
          .getByRole('option', { name: /^admin$/i })
          .first()
          .click(),
      ]);
      if (!pr.ok()) throw new Error(`project role: ${pr.status()} ${await pr.text()}`);
      await page.reload();
      await page.locator('tr', { hasText: /ben/i }).getByText('Admin', { exact: true }).first().waitFor();
    },
  },
  {
    name: 'publish a board and read it signed out',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/${ctx.data.projectId}/issues/`);
      // the sidebar's project menu: Publish settings
      await page.getByText('Website', { exact: true }).first().hover();
      await page
        .getByText('Website', { exact: true })
        .first()
        // the project row's own menu button (a favourite's row has one too)
        .locator('xpath=ancestor::div[.//button[.//*[contains(@class,"lucide-ellipsis")]]][1]')
        .locator('button:has(svg.lucide-ellipsis)')
        .first()
        .click();
      await page.getByText('Publish settings').click();
      // visitors may comment (after signing in)
      await page
        .locator('div.relative.flex.items-center.justify-between', { hasText: /^Allow comments$/ })
        .getByRole('switch')
        .click();
      await page
        .getByRole('button', { name: /^publish$/i })
        .last()
        .click();
      const link = page.getByText(/\/spaces\/issues\//).first();
      await link.waitFor();
      const url = (await link.textContent())!.trim();
      const anon = await ctx.tab('visitor');
      await anon.goto(new URL(url, ctx.stack.origin).pathname);
      await anon.getByText('Design the landing page').first().waitFor();
    },
  },
  {
    name: 'a signed-out visitor comments on the published board',
    // the boards app shows a signed-out visitor the comment box too (its user store keeps the 401's
    // body as the user): the visitor's comment is refused, then posted once signed in
    expect: [...SIGNED_OUT, /^POST \/api\/public\/anchor\/[0-9a-f]+\/issues\/[0-9a-f-]{36}\/comments\/$/],
    run: async (ctx) => {
      const anon = await ctx.tab('visitor');
      const comment = async (text: string) => {
        await anon.getByText('Design the landing page').filter({ visible: true }).first().click();
        await anon.waitForURL(/peekId=/);
        await anon.locator('.ProseMirror').filter({ visible: true }).last().click();
        await anon.keyboard.type(text);
        const [res] = await Promise.all([
          anon.waitForResponse(
            (r) => /\/comments\/$/.test(new URL(r.url()).pathname) && r.request().method() === 'POST',
          ),
          anon
            .getByRole('button', { name: /^comment$/i })
            .filter({ visible: true })
            .last()
            .click(),
        ]);
        return res.status();
      };
      const refused = await comment('Can I say something?');
      if (refused !== 401) throw new Error(`a signed-out visitor's comment: ${refused}, not 401`);
      // signs in (Ben's account) and comes back to the board: the boards app sends the visitor to its
      // sign-in page after the refusal, else the header's Sign in button does
      const email = anon.getByPlaceholder('name@company.com');
      await email
        .or(anon.getByRole('button', { name: /^sign in$/i }))
        .first()
        .waitFor();
      if (!(await email.isVisible()))
        await anon
          .getByRole('button', { name: /^sign in$/i })
          .first()
          .click();
      await anon.getByPlaceholder('name@company.com').fill(PEOPLE.ben.email);
      await anon.getByRole('button', { name: /^continue$/i }).click();
      await anon.getByPlaceholder('Enter password').fill(PEOPLE.ben.password);
      await anon
        .getByRole('button', { name: /^(continue|go to workspace)$/i })
        .last()
        .click();
      await anon.waitForURL(/\/spaces\/issues\//, { timeout: 30_000 });
      const posted = await comment('Looks great from outside!');
      if (posted !== 201) throw new Error(`a signed-in visitor's comment: ${posted}`);
      await anon.getByText('Looks great from outside!').filter({ visible: true }).first().waitFor();
      if ((await anon.getByText('Can I say something?').count()) > 0) throw new Error('the refused comment is listed');
    },
  },
  {
    name: 'change the password',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto('/profile/security/');
      await page.getByPlaceholder('Old password').fill(PEOPLE.ana.password);
      await page.getByPlaceholder('Enter new password').fill(NEW_PASSWORD);
      await page.getByPlaceholder('Confirm password').fill(NEW_PASSWORD);
      const [res] = await Promise.all([
        page.waitForResponse((r) => /change-password/.test(r.url()) && r.request().method() === 'POST'),
        page.getByRole('button', { name: /^change password$/i }).click(),
      ]);
      if (!res.ok()) throw new Error(`change-password: ${res.status()} ${await res.text()}`);
      await page
        .getByText(/password changed|password updated|success/i)
        .first()
        .waitFor();
    },
  },
  {
    name: 'sign out',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/`);
      await dismissTour(page);
      await page.getByText('Acme Team', { exact: true }).filter({ visible: true }).first().click(); // the workspace menu
      await page
        .getByText(/sign out/i)
        .first()
        .click();
      await page.waitForURL((url) => url.pathname === '/' || url.pathname.startsWith('/sign'), { timeout: 30_000 });
      await page.getByPlaceholder('name@company.com').waitFor();
    },
  },
  {
    name: 'a failed sign-in shows the app its message, never a JSON page (wrong password, CSRF refusal)',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      const tryPassword = async (password: string, before?: () => Promise<void>) => {
        await page.goto('/');
        await page.getByPlaceholder('name@company.com').fill(PEOPLE.ana.email);
        await page.getByRole('button', { name: /^continue$/i }).click();
        await page.getByPlaceholder('Enter password').fill(password);
        if (before) await before();
        await page
          .getByRole('button', { name: /^(continue|go to workspace|sign in)$/i })
          .last()
          .click();
        await page.waitForURL((url) => url.searchParams.has('error_code'), { timeout: 30_000 });
        const url = new URL(page.url());
        const body = (await page.locator('body').innerText()).trim();
        if (body.startsWith('{') || body.includes('"error_code"'))
          throw new Error(`a JSON page: ${body.slice(0, 200)}`);
        // the app's banner (an info icon and Plane's message for the code it was sent)
        await page.locator('svg.lucide-info').filter({ visible: true }).first().waitFor({ timeout: 15_000 });
        return url.searchParams.get('error_code');
      };
      // the old password: Plane's code for a failed sign-in (AUTHENTICATION_FAILED_SIGN_IN)
      const wrong = await tryPassword(PEOPLE.ana.password);
      if (wrong !== '5065') throw new Error(`a wrong password answered ${wrong}, not 5065`);
      // the CSRF cookie lost between the form and its post (a proxy that rewrites Host does the same)
      const refused = await tryPassword(NEW_PASSWORD, () => page.context().clearCookies({ name: 'csrftoken' }));
      if (refused !== '5065') throw new Error(`a CSRF refusal answered ${refused}, not 5065`);
      await page
        .getByText(/authentication failed/i)
        .filter({ visible: true })
        .first()
        .waitFor();
      await page.goto('/');
      await page.getByPlaceholder('name@company.com').waitFor();
    },
  },
  {
    name: 'sign in with the new password',
    expect: SIGNED_OUT,
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.getByPlaceholder('name@company.com').fill(PEOPLE.ana.email);
      await page.getByRole('button', { name: /^continue$/i }).click();
      await page.getByPlaceholder('Enter password').fill(NEW_PASSWORD);
      await page
        .getByRole('button', { name: /^(continue|go to workspace|sign in)$/i })
        .last()
        .click();
      await page.waitForURL(new RegExp(`/${ctx.data.slug}/?$`), { timeout: 30_000 });
    },
  },
];
