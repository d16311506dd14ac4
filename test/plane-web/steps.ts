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
      await page.getByText(/home|projects/i).first().waitFor();
    },
  },
  {
    name: 'create a project',
    run: async (ctx) => {
      const page = await ctx.tab('ana');
      await page.goto(`/${ctx.data.slug}/projects/`);
      await page.getByRole('button', { name: /add project/i }).first().click();
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
      for (const title of ['Design the landing page', 'Write the launch post', 'Fix the signup bug']) {
        await page.getByText('New work item', { exact: true }).first().click();
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
      await page.getByText('New work item', { exact: true }).first().click();
      const input = page.getByPlaceholder('Work item title');
      await input.fill('Prepare the board demo');
      await input.press('Enter');
      await page.getByText('Prepare the board demo', { exact: true }).first().waitFor();
      await page.keyboard.press('Escape');
      await page.locator('div.rounded.bg-custom-background-80.p-1 > button').nth(0).click();
    },
  },
];
