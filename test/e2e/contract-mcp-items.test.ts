import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { ROOT } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

const SERVER = path.join(ROOT, 'node_modules', '@makeplane', 'plane-mcp-server', 'build', 'index.js');

/**
 * Contract test: Plane's MCP server (@makeplane/plane-mcp-server 0.1.5), unmodified, where it meets
 * estimates and intake. It has no tool for relations, estimates, intake, attachments or stickies
 * (`plane-mcp-server/build/tools/`); what it does send is `estimate_point` in `create_issue` /
 * `update_issue`, and `list_project_issues` must leave pending intake items out.
 */
describe('contract: @makeplane/plane-mcp-server 0.1.5 (estimate points, intake visibility)', () => {
  let t: TestApp;
  let mcp: Client;
  let slug: string;
  let apiKey: string;
  let projectId: string;
  const p = (path: string) => `/api/v1/workspaces/${slug}/projects/${projectId}/${path}`;

  async function callRaw(name: string, args: Record<string, unknown>) {
    return (await mcp.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ type: string; text: string }>;
    };
  }
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function call(name: string, args: Record<string, unknown> = {}): Promise<any> {
    const res = await callRaw(name, args);
    assert.ok(!res.isError, `${name} failed: ${res.content?.[0]?.text}`);
    return JSON.parse(res.content[0].text);
  }

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    const owner = await signUp(t);
    slug = (await createWorkspace(t, owner.token)).slug;
    apiKey = await createApiKey(t, owner.token, slug);
    projectId = (await createProject(t, apiKey, slug, { identifier: 'MCPI', name: 'Mcp Items' })).id;
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: {
        PATH: process.env.PATH ?? '',
        PLANE_API_HOST_URL: t.url,
        PLANE_API_KEY: apiKey,
        PLANE_WORKSPACE_SLUG: slug,
      },
      stderr: 'ignore',
    });
    mcp = new Client({ name: 'meridian-contract-test', version: '1.0.0' });
    await mcp.connect(transport);
  });
  after(async () => {
    await mcp?.close();
    await t.close();
  });

  it('create_issue and update_issue take a point of the project estimate; another id is a tool error (422)', async () => {
    const e = (await t.api.post(p('estimates/')).set('X-API-Key', apiKey).send({ name: 'Sizes' })).body;
    const points = (
      await t.api
        .post(p(`estimates/${e.id}/estimate-points/`))
        .set('X-API-Key', apiKey)
        .send([{ value: 'S' }, { value: 'L' }])
    ).body;
    assert.equal((await t.api.patch(p('')).set('X-API-Key', apiKey).send({ estimate: e.id })).status, 200);
    const created = await call('create_issue', {
      project_id: projectId,
      issue_data: { name: 'Sized', description_html: '<p>x</p>', estimate_point: points[0].id },
    });
    assert.equal(created.estimate_point, points[0].id);
    const upd = await call('update_issue', {
      project_id: projectId,
      issue_id: created.id,
      issue_data: { estimate_point: points[1].id },
    });
    assert.equal(upd.estimate_point, points[1].id);
    const bad = await callRaw('update_issue', {
      project_id: projectId,
      issue_id: created.id,
      issue_data: { estimate_point: '7f0b5a1e-0000-4000-8000-000000000000' },
    });
    assert.equal(bad.isError, true);
    assert.match(bad.content[0].text, /422/);
  });

  it('list_project_issues leaves out pending intake items and shows them once accepted', async () => {
    await t.api.patch(p('')).set('X-API-Key', apiKey).send({ intake_view: true });
    const item = (
      await t.api
        .post(p('intake-issues/'))
        .set('X-API-Key', apiKey)
        .send({ issue: { name: 'Triage me' } })
    ).body;
    const before = await call('list_project_issues', { project_id: projectId });
    assert.ok(!before.results.some((r: { id: string }) => r.id === item.issue));
    await t.api
      .patch(p(`intake-issues/${item.issue}/`))
      .set('X-API-Key', apiKey)
      .send({ status: 1 });
    const afterAccept = await call('list_project_issues', { project_id: projectId });
    assert.ok(afterAccept.results.some((r: { id: string }) => r.id === item.issue));
  });
});
