import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addMember, createApiKey, createProject, createWorkspace, signUp } from '../support/fixtures';
import { ROOT } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

const SERVER = path.join(ROOT, 'node_modules', '@makeplane', 'plane-mcp-server', 'build', 'index.js');

/**
 * Contract test: Plane's official MCP server (@makeplane/plane-mcp-server 0.1.5), unmodified, spawned
 * over stdio against a listening Meridian: every cycle, cycle-issue, module and module-issue tool
 * (`plane-mcp-server/build/tools/cycles.js`, `cycle-issues.js`, `modules.js`, `module-issues.js`) is
 * called and its result asserted.
 */
describe('contract: @makeplane/plane-mcp-server 0.1.5, cycles and modules', () => {
  let t: TestApp;
  let mcp: Client;
  let key: string;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let slug: string;
  let projectId: string;
  const items: string[] = [];

  /** Calls a tool; asserts it did not fail and parses its text as JSON when it is JSON. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  async function call(name: string, args: Record<string, unknown> = {}): Promise<any> {
    const res = (await mcp.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ type: string; text: string }>;
    };
    assert.ok(!res.isError, `${name} failed: ${res.content?.[0]?.text}`);
    const text = res.content[0].text;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  /** Calls a tool that must fail; returns its error text. */
  async function fails(name: string, args: Record<string, unknown>): Promise<string> {
    const res = (await mcp.callTool({ name, arguments: args })) as {
      isError?: boolean;
      content: Array<{ type: string; text: string }>;
    };
    assert.equal(res.isError, true, `${name} should have failed: ${res.content?.[0]?.text}`);
    return res.content[0].text;
  }

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    const ws = await createWorkspace(t, owner.token);
    slug = ws.slug;
    other = await signUp(t);
    await addMember(t, ws.id, other.userId, 15);
    key = await createApiKey(t, owner.token, slug);
    projectId = (await createProject(t, key, slug, { identifier: 'MCPP', name: 'Mcp planning' })).id;
    await t.sql('INSERT INTO project_members (workspace_id, project_id, member_id, role) VALUES ($1, $2, $3, 15)', [
      ws.id,
      projectId,
      other.userId,
    ]);
    for (const name of ['one', 'two', 'three']) {
      const res = await t.api
        .post(`/api/v1/workspaces/${slug}/projects/${projectId}/issues/`)
        .set('X-API-Key', key)
        .send({ name });
      items.push(res.body.id);
    }
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [SERVER],
      env: { PATH: process.env.PATH ?? '', PLANE_API_HOST_URL: t.url, PLANE_API_KEY: key, PLANE_WORKSPACE_SLUG: slug },
      stderr: 'ignore',
    });
    mcp = new Client({ name: 'meridian-contract-test', version: '1.0.0' });
    await mcp.connect(transport);
  });
  after(async () => {
    await mcp?.close();
    await t.close();
  });

  it('create_cycle (YYYY-MM-DD, no owned_by), get_cycle, update_cycle, list_cycles', async () => {
    const created = await call('create_cycle', {
      project_id: projectId,
      cycle_data: { name: 'Mcp sprint', project_id: projectId, start_date: '2030-01-01', end_date: '2030-01-14' },
    });
    assert.equal(created.name, 'Mcp sprint');
    assert.equal(created.owned_by, owner.userId);
    assert.equal(created.start_date, '2030-01-01T00:00:00.000Z');
    const got = await call('get_cycle', { project_id: projectId, cycle_id: created.id });
    assert.equal(got.id, created.id);
    assert.equal(got.total_issues, 0);
    const upd = await call('update_cycle', {
      project_id: projectId,
      cycle_id: created.id,
      cycle_data: { name: 'Mcp sprint 2', end_date: '2030-01-21' },
    });
    assert.equal(upd.name, 'Mcp sprint 2');
    assert.equal(upd.end_date, '2030-01-21T23:59:59.000Z');
    const list = await call('list_cycles', { project_id: projectId });
    assert.equal(list.total_count, 1);
    assert.equal(list.results[0].id, created.id);
  });

  it('add_cycle_issues, list_cycle_issues, delete_cycle_issue, transfer_cycle_issues, delete_cycle', async () => {
    const ended = await call('create_cycle', {
      project_id: projectId,
      cycle_data: { name: 'Ended', project_id: projectId, start_date: '2020-01-01', end_date: '2020-01-14' },
    });
    const next = await call('create_cycle', {
      project_id: projectId,
      cycle_data: { name: 'Next', project_id: projectId, start_date: '2031-01-01', end_date: '2031-01-14' },
    });
    const links = await call('add_cycle_issues', {
      project_id: projectId,
      cycle_id: next.id,
      issues: [items[0], items[1]],
    });
    assert.deepEqual(links.map((l: { issue: string }) => l.issue).sort(), [items[0], items[1]].sort());
    const listed = await call('list_cycle_issues', { project_id: projectId, cycle_id: next.id });
    assert.deepEqual(listed.results.map((i: { id: string }) => i.id).sort(), [items[0], items[1]].sort());
    assert.equal(
      await call('delete_cycle_issue', { project_id: projectId, cycle_id: next.id, issue_id: items[1] }),
      'Issue removed from cycle successfully',
    );
    assert.deepEqual(
      (await call('list_cycle_issues', { project_id: projectId, cycle_id: next.id })).results.map(
        (i: { id: string }) => i.id,
      ),
      [items[0]],
    );
    assert.match(
      await fails('add_cycle_issues', { project_id: projectId, cycle_id: ended.id, issues: [items[2]] }),
      /400/,
    );
    assert.match(
      await fails('transfer_cycle_issues', { project_id: projectId, cycle_id: next.id, new_cycle_id: ended.id }),
      /400/,
    );
    await t.sql(
      'INSERT INTO cycle_issues (workspace_id, project_id, cycle_id, issue_id) SELECT workspace_id, project_id, $1, id FROM issues WHERE id = $2',
      [ended.id, items[2]],
    );
    const moved = await call('transfer_cycle_issues', {
      project_id: projectId,
      cycle_id: ended.id,
      new_cycle_id: next.id,
    });
    assert.deepEqual(moved, { message: 'Success' });
    assert.deepEqual(
      (await call('list_cycle_issues', { project_id: projectId, cycle_id: next.id })).results
        .map((i: { id: string }) => i.id)
        .sort(),
      [items[0], items[2]].sort(),
    );
    assert.equal(
      await call('delete_cycle', { project_id: projectId, cycle_id: ended.id }),
      'Cycle deleted successfully',
    );
    assert.match(await fails('get_cycle', { project_id: projectId, cycle_id: ended.id }), /404/);
  });

  it('create_module, get_module, update_module, list_modules', async () => {
    const created = await call('create_module', {
      project_id: projectId,
      module_data: {
        name: 'Mcp module',
        status: 'planned',
        lead: other.userId,
        members: [owner.userId, other.userId],
        start_date: '2030-01-01',
        target_date: '2030-02-01',
      },
    });
    assert.equal(created.name, 'Mcp module');
    assert.equal(created.lead, other.userId);
    assert.deepEqual(created.members, [owner.userId, other.userId].sort());
    const got = await call('get_module', { project_id: projectId, module_id: created.id });
    assert.equal(got.id, created.id);
    const upd = await call('update_module', {
      project_id: projectId,
      module_id: created.id,
      module_data: { status: 'completed', members: [other.userId] },
    });
    assert.equal(upd.status, 'completed');
    assert.deepEqual(upd.members, [other.userId]);
    const list = await call('list_modules', { project_id: projectId });
    assert.equal(list.total_count, 1);
    assert.equal(list.results[0].id, created.id);
  });

  it('add_module_issues, list_module_issues, delete_module_issue, delete_module', async () => {
    const m = await call('create_module', { project_id: projectId, module_data: { name: 'Issues module' } });
    const links = await call('add_module_issues', {
      project_id: projectId,
      module_id: m.id,
      issues: [items[0], items[1]],
    });
    assert.deepEqual(links.map((l: { issue: string }) => l.issue).sort(), [items[0], items[1]].sort());
    const listed = await call('list_module_issues', { project_id: projectId, module_id: m.id });
    assert.deepEqual(listed.results.map((i: { id: string }) => i.id).sort(), [items[0], items[1]].sort());
    assert.equal(await call('delete_module_issue', { project_id: projectId, module_id: m.id, issue_id: items[0] }), '');
    assert.deepEqual(
      (await call('list_module_issues', { project_id: projectId, module_id: m.id })).results.map(
        (i: { id: string }) => i.id,
      ),
      [items[1]],
    );
    const history = await t.api
      .get(`/api/v1/workspaces/${slug}/projects/${projectId}/issues/${items[0]}/activities/`)
      .set('X-API-Key', key);
    assert.deepEqual(
      history.body.results.filter((a: { field: string }) => a.field === 'modules').map((a: { verb: string }) => a.verb),
      ['updated', 'deleted'],
    );
    assert.equal(await call('delete_module', { project_id: projectId, module_id: m.id }), '');
    assert.match(await fails('get_module', { project_id: projectId, module_id: m.id }), /404/);
  });
});
