import { randomUUID } from 'node:crypto';
import {
  addMember,
  addProjectMember,
  adminToken,
  createAppProject,
  createWorkspace,
  signUp,
  SignedUp,
  unique,
} from '../fixtures';
import type { TestApp } from '../test-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- answers are read loosely: a missing id is reported, not fatal */

/**
 * One of everything the API can address, made through the API before the fuzz test runs, so
 * operations reach past the "not found" of their path parameters. A step that fails leaves its id
 * unset (`missing` names it) and the parameter falls back to a random UUID.
 */
export interface FuzzFixtures {
  ada: SignedUp;
  bob: SignedUp;
  slug: string;
  workspaceId: string;
  projectId: string;
  /** X-API-Key of `ada`, an Admin of the workspace */
  apiKey: string;
  /** instance admin access token */
  adminToken: string;
  /** a second session of `ada`, for `POST /auth/sign-out/` (which ends the session of its token) */
  signOutToken: string;
  /** a second instance admin session, for `POST /api/instances/admins/sign-out/` */
  adminSignOutToken: string;
  /** ids by name (`issue`, `state`, `projectMember`…) */
  ids: Record<string, string>;
  /** steps that failed, with their error */
  missing: string[];
}

export async function createFuzzFixtures(t: TestApp): Promise<FuzzFixtures> {
  const ids: Record<string, string> = {};
  const missing: string[] = [];
  const step = async (name: string, fn: () => Promise<void>) => {
    try {
      await fn();
    } catch (err) {
      missing.push(`${name}: ${(err as Error).message.slice(0, 300)}`);
    }
  };
  /** sends and returns the body, throwing on an unexpected status */
  const send = async (
    method: 'get' | 'post' | 'patch',
    path: string,
    auth: { bearer?: string; key?: string },
    body?: unknown,
  ) => {
    let req = t.api[method](path);
    if (auth.bearer) req = req.auth(auth.bearer, { type: 'bearer' });
    if (auth.key) req = req.set('X-API-Key', auth.key);
    const res = body === undefined ? await req : await req.send(body as object);
    if (res.status >= 300) throw new Error(`${method.toUpperCase()} ${path}: ${res.status} ${res.text.slice(0, 200)}`);
    return res.body as any;
  };

  const ada = await signUp(t);
  const bob = await signUp(t);
  const ws = await createWorkspace(t, ada.token);
  const slug = ws.slug;
  const app = `/api/workspaces/${slug}`;
  const v1 = `/api/v1/workspaces/${slug}`;
  await addMember(t, ws.id, bob.userId, 15);
  ids.user = ada.userId;
  ids.otherUser = bob.userId;
  const keyBody = await send('post', `${app}/api-tokens/`, { bearer: ada.token }, { label: 'fuzz' });
  const apiKey: string = keyBody.token;
  const key = { key: apiKey };
  const bearer = { bearer: ada.token };

  // a second key: the one the token routes (PATCH/DELETE /api-tokens/{token_id}/) may revoke
  await step('token', async () => {
    ids.token = (await send('post', `${app}/api-tokens/`, bearer, { label: 'spare' })).id;
  });
  const project = await createAppProject(t, ada.token, slug, {
    intake_view: true,
    module_view: true,
    cycle_view: true,
  });
  const p = `${v1}/projects/${project.id}`;
  const ap = `${app}/projects/${project.id}`;
  await addProjectMember(t, ws.id, project.id, bob.userId, 15);

  await step('workspace/project members', async () => {
    ids.member = (
      await t.sql<{ id: string }>('SELECT id FROM workspace_members WHERE workspace_id = $1 AND member_id = $2', [
        ws.id,
        bob.userId,
      ])
    )[0].id;
    ids.projectMember = (
      await t.sql<{ id: string }>('SELECT id FROM project_members WHERE project_id = $1 AND member_id = $2', [
        project.id,
        bob.userId,
      ])
    )[0].id;
  });
  await step('state', async () => {
    ids.state = (
      await send('post', `${p}/states/`, key, { name: 'Fuzz state', color: '#123456', group: 'started' })
    ).id;
  });
  await step('label', async () => {
    ids.label = (await send('post', `${p}/labels/`, key, { name: 'fuzz label' })).id;
  });
  let sequence = 1;
  await step('issue', async () => {
    const body = await send('post', `${p}/issues/`, key, {
      name: 'Fuzz item',
      labels: ids.label ? [ids.label] : [],
      assignees: [ada.userId],
    });
    ids.issue = body.id;
    sequence = body.sequence_id;
    ids.issue2 = (await send('post', `${p}/issues/`, key, { name: 'Fuzz item two' })).id;
  });
  ids.key = `${project.identifier}-${sequence}`;
  await step('comment', async () => {
    ids.comment = (await send('post', `${p}/issues/${ids.issue}/comments/`, key, { comment_html: '<p>fuzz</p>' })).id;
  });
  await step('link', async () => {
    ids.link = (await send('post', `${p}/issues/${ids.issue}/links/`, key, { url: 'https://example.com/fuzz' })).id;
  });
  await step('activity', async () => {
    ids.activity = (await send('get', `${p}/issues/${ids.issue}/activities/`, key)).results[0].id;
  });
  await step('cycle', async () => {
    ids.cycle = (
      await send('post', `${p}/cycles/`, key, { name: 'Fuzz cycle', start_date: '2026-01-01', end_date: '2026-12-31' })
    ).id;
    ids.cycle2 = (await send('post', `${p}/cycles/`, key, { name: 'Fuzz cycle two' })).id;
    await send('post', `${p}/cycles/${ids.cycle}/cycle-issues/`, key, { issues: [ids.issue] });
  });
  await step('module', async () => {
    ids.module = (await send('post', `${p}/modules/`, key, { name: 'Fuzz module' })).id;
    await send('post', `${p}/modules/${ids.module}/module-issues/`, key, { issues: [ids.issue] });
  });
  await step('intake', async () => {
    ids.intakeIssue = (await send('post', `${p}/intake-issues/`, key, { issue: { name: 'Fuzz intake' } })).issue;
  });
  await step('estimate', async () => {
    const body = await send('post', `${ap}/estimates/`, bearer, {
      estimate: { name: 'Fuzz points', type: 'points' },
      estimate_points: [
        { key: 1, value: '1' },
        { key: 2, value: '2' },
      ],
    });
    ids.estimate = body.id;
    ids.point = body.points[0].id;
  });
  await step('sticky', async () => {
    ids.sticky = (await send('post', `${v1}/stickies/`, key, { name: 'Fuzz sticky' })).id;
  });
  await step('webhook', async () => {
    ids.webhook = (await send('post', `${app}/webhooks/`, bearer, { url: 'http://127.0.0.1:9/fuzz-hook' })).id;
  });
  await step('attachment', async () => {
    ids.asset = (
      await send('post', `${p}/work-items/${ids.issue}/attachments/`, key, {
        name: 'fuzz.txt',
        type: 'text/plain',
        size: 5,
      })
    ).asset_id;
  });
  await step('deploy board', async () => {
    const body = await send('post', `${ap}/project-deploy-boards/`, bearer, {
      is_comments_enabled: true,
      is_reactions_enabled: true,
      is_votes_enabled: true,
    });
    ids.board = body.id;
    ids.anchor = body.anchor;
  });
  await step('reaction', async () => {
    await send('post', `${ap}/issues/${ids.issue}/reactions/`, bearer, { reaction: '128077' });
    await send('post', `${ap}/comments/${ids.comment}/reactions/`, bearer, { reaction: '128077' });
    ids.reaction = '128077';
  });
  await step('invitation', async () => {
    await send('post', `${app}/invitations/`, bearer, {
      emails: [{ email: `${unique('invitee')}@example.com`, role: 15 }],
    });
    ids.invitation =
      (await send('get', `${app}/invitations/`, bearer))[0]?.id ??
      (await send('get', `${app}/invitations/`, bearer)).results[0].id;
  });
  await step('notification', async () => {
    // bob assigns ada: ada is notified
    await send('post', `${ap}/issues/`, { bearer: bob.token }, { name: 'Assigned by bob', assignee_ids: [ada.userId] });
    const list = await send('get', `${app}/users/notifications/`, bearer);
    ids.notification = (Array.isArray(list) ? list : list.results)[0].id;
  });
  const signIn = async () =>
    (await send('post', '/auth/sign-in/', {}, { email: ada.email, password: ada.password })).access_token as string;
  let signOutToken = ada.token;
  await step('sessions', async () => {
    await signIn(); // the session DELETE /auth/sessions/{session_id}/ may end
    const sessions = await send('get', '/auth/sessions/', bearer);
    ids.session = (sessions as { id: string; is_current: boolean }[]).find((s) => !s.is_current)!.id;
    signOutToken = await signIn();
  });
  const admin = await adminToken(t);
  let adminSignOutToken = admin;
  await step('instance admin', async () => {
    adminSignOutToken = await adminToken(t);
    ids.admin = (await send('post', '/api/instances/admins/', { bearer: admin }, { email: bob.email })).id;
  });
  return {
    ada,
    bob,
    slug,
    workspaceId: ws.id,
    projectId: project.id,
    apiKey,
    adminToken: admin,
    signOutToken,
    adminSignOutToken,
    ids,
    missing,
  };
}

/** Which fixture a path parameter names, by its name and (for ambiguous names) the route. */
export function pathParamValue(fx: FuzzFixtures, template: string, name: string): string {
  const before = template.slice(0, template.indexOf(`{${name}}`));
  const ids = fx.ids;
  switch (name) {
    case 'slug':
    case 'workspace_slug':
      return fx.slug;
    case 'project_id':
    case 'published_project_id':
      return fx.projectId;
    case 'issue_id':
      return (/(intake|inbox)-issues\/$/.test(before) ? ids.intakeIssue : ids.issue) ?? randomUUID();
    case 'member_id':
      return (/\/projects\/\{project_id\}\/members\/$/.test(before) ? ids.projectMember : ids.member) ?? randomUUID();
    case 'subscriber_id':
      return fx.ada.userId;
    case 'reaction_code':
      return ids.reaction ?? '128077';
    case 'key':
      return ids.key;
    default: {
      const fixture = ids[name.replace(/_(id|code)$/, '').replace(/_(\w)/g, (_, c: string) => c.toUpperCase())];
      return fixture ?? randomUUID();
    }
  }
}

/** A valid value for a body field that holds an id, by the field's name; undefined when none fits. */
export function idForField(fx: FuzzFixtures, field: string): string | undefined {
  const ids = fx.ids;
  const name = field.replace(/_ids?$/, '').replace(/s$/, '');
  const byName: Record<string, string | undefined> = {
    state: ids.state,
    default_state: ids.state,
    label: ids.label,
    parent: ids.issue2,
    issue: ids.issue,
    duplicate_to: ids.issue2,
    module: ids.module,
    cycle: ids.cycle2,
    new_cycle: ids.cycle2,
    estimate_point: ids.point,
    estimate: ids.estimate,
    assignee: fx.ada.userId,
    member: fx.bob.userId,
    subscriber: fx.ada.userId,
    lead: fx.ada.userId,
    project_lead: fx.ada.userId,
    default_assignee: fx.ada.userId,
    owned_by: fx.ada.userId,
    project: fx.projectId,
    workspace: fx.workspaceId,
  };
  return byName[name] ?? byName[field];
}

/** Every real id, to send one kind's id where another's is expected. */
export function allIds(fx: FuzzFixtures): string[] {
  const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
  return [...new Set([...Object.values(fx.ids), fx.projectId, fx.workspaceId].filter((v) => uuid.test(v)))];
}
