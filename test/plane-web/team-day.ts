/**
 * A team's day in Plane 0.25.3's own web app, on Meridian, in Debian's Chromium.
 *
 *   npm run test:plane-web            (builds Plane's frontend once with build-frontend.sh, then runs this)
 *
 * Environment: PLANE_WEB_DIR (the frontend build; default ~/.cache/meridian/plane-web), CHROMIUM
 * (default /usr/bin/chromium), PLANE_WEB_OUTPUT (screenshots and report; default
 * test/plane-web/output), HEADFUL=1 to watch, PLANE_LIVE=plane|meridian|none (who serves `/live/`, the page editor's co-editing server:
 * Plane's own live server from the build, Meridian, or nothing; default plane). Exit code 0 only when every step passes.
 *
 * The database: Meridian's embedded one (PGlite, in a fresh data directory) unless
 * PLANE_WEB_DATABASE_URL names a PostgreSQL server (e.g. `postgres://postgres@127.0.0.1:5432/postgres`,
 * a user that may create databases): the test then creates a fresh database on it for Meridian
 * (`plane_web_<pid>_<random>`) and drops it at the end. Run it once on each before a release.
 *
 * PLANE_WEB_UNTIL=<text> stops after the first step whose name contains the text (to work on one
 * screen without running the whole day; the later steps are not run, the exit code says so).
 *
 * Single sign-on: an OpenID Connect provider (`oidc-provider` on loopback, with its own sign-in form,
 * test/support/oidc-provider.ts) runs beside the stack for the steps that sign in through it.
 *
 * The app runs with its defaults (its local work-item cache on). Each step ends with a screenshot of
 * every open tab; a step fails when it throws or when an API call fails that the step does not
 * expect (report.md lists each failed call with its answer).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Client } from 'pg';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { databaseUrl } from '../support/database-template';
import { startTestOidcProvider, TestOidcProvider } from '../support/oidc-provider';
import { Recorder, Step } from './recorder';
import { startStack, Stack } from './stack';
import { liveSteps } from './live-steps';
import { teamDaySteps } from './steps';

export interface Ctx {
  stack: Stack;
  browser: Browser;
  /** the OpenID Connect provider (`oidc-provider` on loopback, with its sign-in form) the SSO steps use */
  oidc: TestOidcProvider;
  /** one browser context (cookie jar) per person */
  contexts: Record<string, BrowserContext>;
  pages: Record<string, Page>;
  recorder: Recorder<Ctx>;
  /** what earlier steps made, for later steps */
  data: Record<string, string>;
  /** opens (or returns) a person's tab, followed by the recorder */
  tab: (who: string) => Promise<Page>;
}

/** A fresh PostgreSQL database on `server` for Meridian: its URL and how to drop it. */
async function freshDatabase(server: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `plane_web_${process.pid}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = new Client({ connectionString: server });
  await admin.connect();
  await admin.query(`CREATE DATABASE "${name}"`);
  await admin.end();
  return {
    url: databaseUrl(server, name),
    drop: async () => {
      const c = new Client({ connectionString: server });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      await c.end();
    },
  };
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const frontendDir = process.env.PLANE_WEB_DIR ?? path.join(os.homedir(), '.cache', 'meridian', 'plane-web');
  const outDir = process.env.PLANE_WEB_OUTPUT ?? path.join(root, 'test', 'plane-web', 'output');
  fs.rmSync(outDir, { recursive: true, force: true });

  const oidc = await startTestOidcProvider({ loginForm: true });
  const postgres = process.env.PLANE_WEB_DATABASE_URL ? await freshDatabase(process.env.PLANE_WEB_DATABASE_URL) : null;
  const stack = await startStack({ frontendDir, env: postgres ? { DATABASE_URL: postgres.url } : {} });
  console.log(
    `Plane's web app on Meridian at ${stack.origin} (Meridian ${stack.meridian}, ${postgres ? 'PostgreSQL' : 'embedded database'})`,
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium',
    headless: process.env.HEADFUL !== '1',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      // the app's calls to outside services (fonts, telemetry, images) stay unanswered
      '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
    ],
  });
  const recorder = new Recorder<Ctx>(outDir);
  const ctx: Ctx = {
    stack,
    browser,
    oidc,
    contexts: {},
    pages: {},
    recorder,
    data: {},
    tab: async (who) => {
      if (ctx.pages[who] && !ctx.pages[who].isClosed()) return ctx.pages[who];
      ctx.contexts[who] ??= await browser.newContext({ viewport: { width: 1440, height: 900 }, baseURL: stack.origin });
      const page = await ctx.contexts[who].newPage();
      page.setDefaultTimeout(20_000);
      recorder.watch(who, page);
      ctx.pages[who] = page;
      return page;
    },
  };
  let results;
  try {
    // co-editing through the live server comes right after the first page is written
    const all = [...(teamDaySteps as Step<Ctx>[])];
    all.splice(all.findIndex((s) => s.name === 'write a page') + 1 || all.length - 1, 0, ...liveSteps);
    const until = process.env.PLANE_WEB_UNTIL;
    const last = until ? all.findIndex((st) => st.name.includes(until)) : -1;
    const steps = last >= 0 ? all.slice(0, last + 1) : all;
    results = await recorder.run(steps, ctx);
    if (steps.length < all.length) {
      console.log(`stopped after step ${steps.length} of ${all.length} (PLANE_WEB_UNTIL)`);
      process.exitCode = 1;
    }
  } finally {
    await browser.close().catch(() => undefined);
    fs.writeFileSync(path.join(outDir, 'meridian.log'), stack.meridianLog());
    await stack.stop();
    await oidc.close();
    await postgres?.drop();
  }
  const passed = results.filter((r) => r.ok).length;
  console.log(`${passed} of ${results.length} steps pass; report: ${path.join(outDir, 'report.md')}`);
  if (passed !== results.length) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
