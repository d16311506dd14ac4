import type { Page } from 'playwright-core';
import type { Step } from './recorder';
import type { Ctx } from './team-day';

/**
 * Co-editing a page through the live server behind `/live/` (`Stack.live`: Plane's own live server
 * by default, or Meridian's): two people in two browser contexts type into one page at once, each
 * sees the other's text, both texts survive a reload, and the live server has stored them in
 * Meridian (the page's `description_html`). Skipped with `PLANE_LIVE=none` (no live server).
 */

/** The editor's text, polled until `test` holds. */
async function editorText(
  page: Page,
  test: (text: string) => boolean,
  what: string,
  timeoutMs = 30_000,
): Promise<string> {
  const editor = page.locator('.ProseMirror').first();
  const deadline = Date.now() + timeoutMs;
  let text = '';
  while (Date.now() < deadline) {
    text = (await editor.innerText().catch(() => '')) ?? '';
    if (test(text)) return text;
    await page.waitForTimeout(200);
  }
  throw new Error(`timed out waiting for ${what}; the editor shows ${JSON.stringify(text)} (at ${page.url()})`);
}

const ANA_LINE = 'Ana: the launch moves to Tuesday';
const BEN_TAIL = ' and the budget is approved';

export const liveSteps: Step<Ctx>[] = [
  {
    name: 'two people edit one page at once through the live server',
    run: async (ctx) => {
      if (ctx.stack.live === 'none') {
        console.log('  (no live server with PLANE_LIVE=none: the co-editing step has nothing to test)');
        return;
      }
      const ana = await ctx.tab('ana');
      const pages = `/${ctx.data.slug}/projects/${ctx.data.projectId}/pages/`;
      await ana.goto(pages);
      await ana
        .getByRole('button', { name: /^add page$/i })
        .first()
        .click();
      await ana.waitForURL(/\/pages\/[0-9a-f-]{36}/);
      const pageUrl = new URL(ana.url()).pathname;
      ctx.data.livePageId = /\/pages\/([0-9a-f-]{36})/.exec(pageUrl)![1];
      await Promise.all([
        ana.waitForResponse((r) => /\/pages\/[0-9a-f-]{36}\/$/.test(r.url()) && r.request().method() === 'PATCH'),
        ana.getByPlaceholder('Untitled').fill('Team notes'),
      ]);
      await ana.locator('.ProseMirror').first().click({ timeout: 60_000 });
      await ana.keyboard.type('Agenda');
      await ana.keyboard.press('Enter');

      // Ben opens the same page: Ana's first line reaches him through the live server
      const ben = await ctx.tab('ben');
      await ben.goto(pageUrl);
      await editorText(ben, (t) => t.includes('Agenda'), "Ana's first line in Ben's editor");
      await ben.getByText('Agenda', { exact: true }).first().click();
      await ben.keyboard.press('End');

      // both type at once: Ana a new line, Ben at the end of the first
      await Promise.all([ana.keyboard.type(ANA_LINE, { delay: 40 }), ben.keyboard.type(BEN_TAIL, { delay: 40 })]);
      const both = (t: string) => t.includes(ANA_LINE) && t.includes(`Agenda${BEN_TAIL}`);
      await editorText(ana, both, "Ben's text in Ana's editor");
      await editorText(ben, both, "Ana's text in Ben's editor");

      // a reload loads the merged text again
      await Promise.all([ana.reload(), ben.reload()]);
      await editorText(ana, both, "the merged text in Ana's editor after a reload", 60_000);
      await editorText(ben, both, "the merged text in Ben's editor after a reload", 60_000);

      // the live server stored it in Meridian (after its debounce, or at once when the last one leaves)
      await ben.goto(pages);
      await ana.goto(pages);
      const api = `/api/workspaces/${ctx.data.slug}/projects/${ctx.data.projectId}/pages/${ctx.data.livePageId}/`;
      const deadline = Date.now() + 60_000;
      let html = '';
      while (Date.now() < deadline) {
        const res = await ctx.contexts.ana.request.get(new URL(api, ctx.stack.origin).toString());
        html = res.ok() ? (((await res.json()) as { description_html?: string }).description_html ?? '') : '';
        if (html.includes(ANA_LINE) && html.includes(`Agenda${BEN_TAIL}`)) {
          // both open it once more, for the step's screenshots
          await Promise.all([ana.goto(pageUrl), ben.goto(pageUrl)]);
          await editorText(ana, both, "the merged text in Ana's editor");
          await editorText(ben, both, "the merged text in Ben's editor");
          return;
        }
        await ana.waitForTimeout(500);
      }
      throw new Error(`the page's description_html in Meridian lacks the merged text: ${html}`);
    },
  },
];
