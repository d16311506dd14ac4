import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';

/** An API call the browser made that did not succeed (status >= 400, or no answer at all). */
export interface FailedCall {
  method: string;
  /** path and query, without the origin */
  url: string;
  /** 0 when the request got no answer */
  status: number;
  /** the first 300 characters of the answer */
  body: string;
  /** the first 500 characters of the request body, if any */
  sent?: string;
}

export interface StepResult {
  name: string;
  ok: boolean;
  /** the exception that stopped the step, if one did */
  error?: string;
  /** API calls that failed and were not expected by the step */
  failedCalls: FailedCall[];
  /** failed calls the step declared as expected (e.g. `GET /api/users/me/` before signing in) */
  expectedFailures: FailedCall[];
  consoleErrors: string[];
  screenshots: string[];
  seconds: number;
}

export interface Step<C> {
  name: string;
  /** failed calls that belong to the step's design, as `METHOD path-regex` */
  expect?: RegExp[];
  run: (ctx: C) => Promise<void>;
}

const API = /^\/(api|auth)\//;

/**
 * Runs the steps of a browser test in order and records, per step, the API calls that failed and the
 * console errors, with a screenshot of every page at the end of the step. A step fails when it
 * throws or when an API call fails that the step did not declare as expected. Later steps still run
 * (their results say what the failure cost).
 */
export class Recorder<C> {
  private current: { failed: FailedCall[]; console: string[] } = { failed: [], console: [] };
  private readonly pages = new Map<string, Page>();
  readonly results: StepResult[] = [];

  constructor(private readonly outDir: string) {
    fs.mkdirSync(outDir, { recursive: true });
  }

  /** Follows a page (a user's tab): its failed API calls and console errors go to the running step. */
  watch(label: string, page: Page): void {
    this.pages.set(label, page);
    page.on('response', (response) => {
      const url = new URL(response.url());
      if (!API.test(url.pathname) || response.status() < 400) return;
      const call: FailedCall = {
        method: response.request().method(),
        url: url.pathname + url.search,
        status: response.status(),
        body: '',
        sent: response.request().postData()?.slice(0, 500) ?? undefined,
      };
      this.current.failed.push(call);
      response
        .text()
        .then((text) => (call.body = text.slice(0, 300)))
        .catch(() => undefined);
    });
    page.on('requestfailed', (request) => {
      const url = new URL(request.url());
      if (!API.test(url.pathname)) return;
      const failure = request.failure()?.errorText ?? 'failed';
      if (failure === 'net::ERR_ABORTED') return; // navigation away or the app cancelled it
      this.current.failed.push({ method: request.method(), url: url.pathname + url.search, status: 0, body: failure });
    });
    page.on('console', (message) => {
      if (message.type() === 'error') this.current.console.push(`[${label}] ${message.text().slice(0, 300)}`);
    });
    page.on('pageerror', (error) => this.current.console.push(`[${label}] page error: ${error.message.slice(0, 300)}`));
  }

  async run(steps: Step<C>[], ctx: C): Promise<StepResult[]> {
    for (const [index, step] of steps.entries()) {
      this.current = { failed: [], console: [] };
      const started = Date.now();
      let error: string | undefined;
      try {
        await step.run(ctx);
      } catch (e) {
        error = e instanceof Error ? (e.stack ?? e.message).split('\n').slice(0, 6).join('\n') : String(e);
      }
      await new Promise((r) => setTimeout(r, 500)); // late answers of the step's own calls
      const screenshots: string[] = [];
      const prefix = `${String(index + 1).padStart(2, '0')}-${step.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}`;
      for (const [label, page] of this.pages) {
        if (page.isClosed()) continue;
        const file = path.join(this.outDir, `${prefix}-${label}.png`);
        await page.screenshot({ path: file, fullPage: false }).catch(() => undefined);
        if (fs.existsSync(file)) screenshots.push(path.basename(file));
        // the page's text, to read what a failed step was looking at
        const text = await page
          .locator('body')
          .innerText({ timeout: 2000 })
          .catch(() => '');
        fs.writeFileSync(path.join(this.outDir, `${prefix}-${label}.txt`), `${page.url()}\n\n${text}`);
      }
      const expected = step.expect ?? [];
      const isExpected = (c: FailedCall) => expected.some((re) => re.test(`${c.method} ${c.url}`));
      const failedCalls = this.current.failed.filter((c) => !isExpected(c));
      const result: StepResult = {
        name: step.name,
        ok: !error && failedCalls.length === 0,
        error,
        failedCalls,
        expectedFailures: this.current.failed.filter(isExpected),
        consoleErrors: this.current.console,
        screenshots,
        seconds: Math.round((Date.now() - started) / 100) / 10,
      };
      this.results.push(result);
      const mark = result.ok ? 'ok  ' : 'FAIL';
      console.log(`${mark} ${index + 1}. ${step.name} (${result.seconds}s)`);
      if (error) console.log(`       ${error.split('\n')[0]}`);
      for (const c of failedCalls) console.log(`       ${c.status} ${c.method} ${c.url} ${c.body.slice(0, 120)}`);
    }
    this.writeReport();
    return this.results;
  }

  private writeReport(): void {
    fs.writeFileSync(path.join(this.outDir, 'report.json'), JSON.stringify(this.results, null, 2));
    const passed = this.results.filter((r) => r.ok).length;
    const lines = [
      `# Plane's web app on Meridian: a team's day`,
      '',
      `${passed} of ${this.results.length} steps pass.`,
      '',
    ];
    for (const [i, r] of this.results.entries()) {
      lines.push(`## ${i + 1}. ${r.name}: ${r.ok ? 'pass' : 'FAIL'} (${r.seconds} s)`, '');
      if (r.error) lines.push('```text', r.error, '```', '');
      for (const c of r.failedCalls) {
        lines.push(`- failed: \`${c.status} ${c.method} ${c.url}\` ${c.body.slice(0, 200)}`);
        if (c.sent) lines.push(`  - sent: \`${c.sent}\``);
      }
      for (const c of r.expectedFailures) lines.push(`- expected: \`${c.status} ${c.method} ${c.url}\``);
      for (const m of r.consoleErrors.slice(0, 10)) lines.push(`- console: ${m.replace(/\n/g, ' ')}`);
      for (const s of r.screenshots) lines.push(`- screenshot: ${s}`);
      lines.push('');
    }
    fs.writeFileSync(path.join(this.outDir, 'report.md'), lines.join('\n'));
  }
}
