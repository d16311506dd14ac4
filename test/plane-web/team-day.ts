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
 * The app runs with its defaults (its local work-item cache on). Each step ends with a screenshot of
 * every open tab; a step fails when it throws or when an API call fails that the step does not
 * expect (report.md lists each failed call with its answer).
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Browser, BrowserContext, chromium, Page } from 'playwright-core';
import { Recorder, Step } from './recorder';
import { startStack, Stack } from './stack';
import { liveSteps } from './live-steps';
import { teamDaySteps } from './steps';

export interface Ctx {
  stack: Stack;
  browser: Browser;
  /** one browser context (cookie jar) per person */
  contexts: Record<string, BrowserContext>;
  pages: Record<string, Page>;
  recorder: Recorder<Ctx>;
  /** what earlier steps made, for later steps */
  data: Record<string, string>;
  /** opens (or returns) a person's tab, followed by the recorder */
  tab: (who: string) => Promise<Page>;
}

async function main(): Promise<void> {
  const root = path.resolve(__dirname, '..', '..', '..');
  const frontendDir = process.env.PLANE_WEB_DIR ?? path.join(os.homedir(), '.cache', 'meridian', 'plane-web');
  const outDir = process.env.PLANE_WEB_OUTPUT ?? path.join(root, 'test', 'plane-web', 'output');
  fs.rmSync(outDir, { recursive: true, force: true });

  const stack = await startStack({ frontendDir });
  console.log(`Plane's web app on Meridian at ${stack.origin} (Meridian ${stack.meridian})`);
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
    const steps = [...(teamDaySteps as Step<Ctx>[])];
    steps.splice(steps.findIndex((s) => s.name === 'write a page') + 1 || steps.length - 1, 0, ...liveSteps);
    results = await recorder.run(steps, ctx);
  } finally {
    await browser.close().catch(() => undefined);
    fs.writeFileSync(path.join(outDir, 'meridian.log'), stack.meridianLog());
    await stack.stop();
  }
  const passed = results.filter((r) => r.ok).length;
  console.log(`${passed} of ${results.length} steps pass; report: ${path.join(outDir, 'report.md')}`);
  process.exitCode = passed === results.length ? 0 : 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
