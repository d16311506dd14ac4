import type { Page } from 'playwright-core';
import type { Step } from './recorder';
import type { Ctx } from './team-day';

/** Signed-out probes the apps make by design before anyone signs in. */
const SIGNED_OUT = [/^GET \/api\/users\/me\/([a-z-]+\/)?(\?.*)?$/, /^GET \/api\/instances\/admins\/me\/$/];

export const PEOPLE = {
  admin: { email: 'admin@meridian.test', password: 'Admin-pass-2026!', first: 'Ada', last: 'Admin' },
  ana: { email: 'ana@meridian.test', password: 'Ana-pass-2026!', first: 'Ana', last: 'Lead' },
  ben: { email: 'ben@meridian.test', password: 'Ben-pass-2026!', first: 'Ben', last: 'Dev' },
};

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
];
