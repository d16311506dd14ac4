import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { addMember, createApiKey, createWorkspace, signUp } from '../support/fixtures';
import { ROOT } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

const SERVER = path.join(ROOT, 'node_modules', '@makeplane', 'plane-mcp-server', 'build', 'index.js');

/**
 * Contract test: Plane's official MCP server (@makeplane/plane-mcp-server 0.1.5), unmodified,
 * spawned over stdio against a listening Meridian and driven with the MCP SDK's client. Every
 * tool for users, projects, states, labels, work items and comments is called and its result
 * asserted (`plane-mcp-server/build/tools/`).
 */
describe('contract: @makeplane/plane-mcp-server 0.1.5 over stdio', () => {
  let t: TestApp;
  let mcp: Client;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let other: Awaited<ReturnType<typeof signUp>>;
  let slug: string;
  let projectId: string;
  let stateId: string;
  let labelId: string;
  let issue: { id: string; sequence_id: number };

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

  before(async () => {
    t = await startTestApp({ API_KEY_RATE_LIMIT: '100000' });
    owner = await signUp(t);
    const ws = await createWorkspace(t, owner.token);
    slug = ws.slug;
    other = await signUp(t);
    await addMember(t, ws.id, other.userId, 15);
    const apiKey = await createApiKey(t, owner.token, slug);
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

  it('lists the 47 tools of 0.1.5', async () => {
    const { tools } = await mcp.listTools();
    assert.equal(tools.length, 47);
  });

  it('get_user and get_workspace_members', async () => {
    const me = await call('get_user');
    assert.equal(me.id, owner.userId);
    assert.equal(me.email, owner.email);
    const members = await call('get_workspace_members');
    assert.ok(Array.isArray(members));
    assert.deepEqual(members.map((m: { id: string }) => m.id).sort(), [owner.userId, other.userId].sort());
  });

  it('create_project (identifier upper-cased by the tool) and get_projects (reads results[])', async () => {
    const created = await call('create_project', { name: 'Mcp Project', identifier: 'mcp' });
    assert.equal(created.identifier, 'MCP');
    assert.equal(created.name, 'Mcp Project');
    projectId = created.id;
    const projects = await call('get_projects');
    assert.deepEqual(projects, [
      { name: 'Mcp Project', id: projectId, identifier: 'MCP', description: '', project_lead: null },
    ]);
  });

  it('states: list_states, create_state, get_state, update_state, delete_state', async () => {
    const list = await call('list_states', { project_id: projectId });
    assert.equal(list.total_count, 5);
    assert.equal(list.results[0].name, 'Backlog');
    const created = await call('create_state', {
      project_id: projectId,
      state_data: { name: 'Blocked', color: '#ff0000', group: 'started' },
    });
    assert.equal(created.name, 'Blocked');
    assert.equal(created.group, 'started');
    stateId = created.id;
    assert.equal((await call('get_state', { project_id: projectId, state_id: stateId })).color, '#ff0000');
    const upd = await call('update_state', {
      project_id: projectId,
      state_id: stateId,
      state_data: { name: 'Waiting', color: '#00ff00' },
    });
    assert.equal(upd.name, 'Waiting');
    assert.equal(upd.color, '#00ff00');
    const tmp = await call('create_state', {
      project_id: projectId,
      state_data: { name: 'Temp', color: '#000000', group: 'backlog' },
    });
    assert.equal(await call('delete_state', { project_id: projectId, state_id: tmp.id }), '');
    assert.equal((await call('list_states', { project_id: projectId })).total_count, 6);
  });

  it('labels: list_labels, create_label, get_label, update_label, delete_label', async () => {
    const parent = await call('create_label', {
      project_id: projectId,
      label_data: { name: 'area', color: '#111111' },
    });
    const created = await call('create_label', {
      project_id: projectId,
      label_data: { name: 'frontend', color: '#222222', parent: parent.id },
    });
    assert.equal(created.parent, parent.id);
    labelId = created.id;
    assert.equal((await call('get_label', { project_id: projectId, label_id: labelId })).name, 'frontend');
    const upd = await call('update_label', {
      project_id: projectId,
      label_id: labelId,
      label_data: { name: 'web', color: '#333333' },
    });
    assert.equal(upd.name, 'web');
    assert.equal(upd.color, '#333333');
    const list = await call('list_labels', { project_id: projectId });
    assert.deepEqual(list.results.map((l: { name: string }) => l.name).sort(), ['area', 'web']);
    await call('delete_label', { project_id: projectId, label_id: parent.id });
    const after = await call('list_labels', { project_id: projectId });
    assert.deepEqual(
      after.results.map((l: { id: string; parent: string | null }) => [l.id, l.parent]),
      [[labelId, null]],
    );
  });

  it('work items: create_issue, update_issue, list_project_issues, get_issue_using_readable_identifier', async () => {
    const created = await call('create_issue', {
      project_id: projectId,
      issue_data: {
        name: 'Mcp issue',
        description_html: '<p>from an agent</p>',
        priority: 'medium',
        labels: [labelId],
        assignees: [owner.userId],
        start_date: '2030-01-01',
      },
    });
    assert.equal(created.name, 'Mcp issue');
    assert.equal(created.sequence_id, 1);
    assert.deepEqual(created.labels, [labelId]);
    assert.equal(created.start_date, '2030-01-01');
    issue = created;
    const upd = await call('update_issue', {
      project_id: projectId,
      issue_id: issue.id,
      issue_data: { name: 'Mcp issue (edited)', state: stateId, priority: 'urgent' },
    });
    assert.equal(upd.name, 'Mcp issue (edited)');
    assert.equal(upd.state, stateId);
    const list = await call('list_project_issues', { project_id: projectId });
    assert.equal(list.total_count, 1);
    assert.equal(list.count, 1);
    assert.equal(list.results[0].id, issue.id);
    assert.equal(list.results[0].sequence_id, 1);
    assert.equal(list.results[0].state.id, stateId);
    assert.equal(list.results[0].priority.id, 'urgent');
    const byKey = await call('get_issue_using_readable_identifier', {
      project_identifier: 'MCP',
      issue_identifier: '1',
    });
    assert.equal(byKey.id, issue.id);
    assert.equal(byKey.name, 'Mcp issue (edited)');
  });

  it('comments: add_issue_comment, get_issue_comments (its path has no trailing slash)', async () => {
    const c = await call('add_issue_comment', {
      project_id: projectId,
      issue_id: issue.id,
      comment_html: '<p>on it</p>',
    });
    assert.equal(c.comment_html, '<p>on it</p>');
    assert.equal(c.actor, owner.userId);
    const list = await call('get_issue_comments', { project_id: projectId, issue_id: issue.id });
    assert.deepEqual(
      list.results.map((x: { id: string }) => x.id),
      [c.id],
    );
  });

  it('an error surfaces as a tool error with the status code', async () => {
    const res = (await mcp.callTool({
      name: 'get_state',
      arguments: { project_id: projectId, state_id: '00000000-0000-4000-8000-000000000000' },
    })) as {
      isError?: boolean;
      content: Array<{ text: string }>;
    };
    assert.equal(res.isError, true);
    assert.match(res.content[0].text, /404/);
  });

  it('the history written through the MCP tools is visible over HTTP', async () => {
    const key = await createApiKey(t, owner.token, slug);
    const acts = await t.api
      .get(`/api/v1/workspaces/${slug}/projects/${projectId}/issues/${issue.id}/activities/`)
      .set('X-API-Key', key);
    const fields = acts.body.results.map((a: { verb: string; field: string | null }) => `${a.verb}:${a.field}`);
    assert.deepEqual(fields, ['created:null', 'updated:name', 'updated:priority', 'updated:state']);
  });
});
