import { RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { getMetadataStorage } from 'class-validator';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminToken, createApiKey, createWorkspace, signUp } from '../support/fixtures';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * `null` for every optional field of every write body (docs/decisions.md "Explicit null"): each
 * PATCH/PUT/POST route whose body is a DTO is sent `{field: null}` for each optional field of
 * that DTO. A field whose column cannot be empty answers 422 `VALIDATION_ERROR` with
 * `errors.field = ["This field may not be null."]` (Plane's message); a nullable one is accepted
 * and reads back null; a list reads null as the empty list. Never a 5xx.
 */

const MESSAGE = 'This field may not be null.';
/** Nest's `RouteParamtypes.BODY` (the key prefix of a `@Body()` argument in the route metadata) */
const BODY = 3;

/** Fields that accept null and store null, by the DTO class that declares them. */
const ACCEPTS_NULL: Record<string, string> = {
  UpdateMeDto: 'avatar cover_image mobile_number',
  PageFieldsDto: 'parent',
  DraftIssueDto: 'name project_id state_id parent_id cycle_id',
  WorkItemSharedFieldsDto: 'estimate_point start_date target_date type_id',
  CreatePageDto: 'description_binary',
  CreateWorkspaceDto: 'organization_size',
  UpdateWorkspaceDto: 'logo organization_size',
  CreateApiTokenDto: 'expired_at',
  UpdateApiTokenDto: 'expired_at',
  DeployBoardDto: 'intake',
  SnoozeNotificationDto: 'snoozed_till',
  UpdateProfileDto: 'use_case role last_workspace_id billing_address_country billing_address',
  AppCreateWorkItemDto: 'state_id parent_id',
  AppUpdateWorkItemDto: 'state_id parent_id',
  CreateAttachmentDto: 'external_id external_source',
  UpdateInstanceDto: 'domain',
  EstimateFieldsDto: 'external_source external_id',
  UpdateEstimatePointDto: 'external_source external_id',
  IntakeDto: 'snoozed_till duplicate_to source source_email external_source external_id',
  IntakeStatusDto: 'snoozed_till duplicate_to',
  WorkItemFieldsDto: 'state parent point external_source external_id type module',
  CommentDto: 'external_source external_id',
  LinkFieldsDto: 'title',
  LabelFieldsDto: 'parent external_source external_id',
  PlanningFieldsDto: 'external_source external_id',
  CycleFieldsDto: 'start_date end_date',
  ModuleFieldsDto: 'start_date target_date lead',
  ProjectFieldsDto: 'project_lead default_assignee emoji icon_prop cover_image',
  UpdateProjectDto: 'default_state description_text description_html estimate',
  StateFieldsDto: 'external_source external_id',
  StickyDto: 'name color background_color',
  CycleDateCheckDto: 'cycle_id',
  CreateAssetDto: 'entity_identifier',
  CreatePublicAssetDto: 'entity_identifier',
  InstanceCreateWorkspaceDto: 'organization_size',
  QuickLinkDto: 'title',
  CreateFavoriteDto: 'entity_identifier name parent',
};

/** Lists of related ids: null is the empty list. */
const EMPTY_LIST = new Set([
  'assignees',
  'labels',
  'assignee_ids',
  'label_ids',
  'members',
  'subscribers',
  'modules',
  'removed_modules',
  'attachments',
  'estimate_points',
  'module_ids',
]);

/** Optional in the declaring class, required in the route's own DTO: null is refused like a missing value. */
const REQUIRED_IN_ROUTE = new Set([
  'WebhooksController.create url',
  'WorkItemsController.upsert external_id',
  'WorkItemsController.upsert external_source',
]);

/** Fields whose null the server replaces: a work item without a state gets the project's default state. */
const READ_BACK_SKIP = new Set(['WorkItemFieldsDto.state']);

interface Route {
  module: string;
  name: string;
  verb: 'PATCH' | 'PUT' | 'POST';
  path: string;
  dto: new () => object;
}
interface Field {
  name: string;
  declaredBy: string;
}

/** Every PATCH/PUT/POST handler whose `@Body()` is a DTO class, with its full path. */
function bodyRoutes(t: TestApp): Route[] {
  const prefixes: Record<string, string> = {
    ExternalV1Module: 'api/v1',
    PublicModule: 'api/public',
    InstanceModule: 'api/instances',
    AppApiModule: 'api',
    AuthModule: 'auth',
  };
  const out: Route[] = [];
  for (const moduleRef of t.app.get(ModulesContainer).values()) {
    const module = moduleRef.metatype?.name ?? '';
    for (const wrapper of moduleRef.controllers.values()) {
      const controller = wrapper.metatype as new (...args: never[]) => object;
      const bases = [Reflect.getMetadata(PATH_METADATA, controller) as string | string[]].flat();
      // its own handlers and those it inherits (the cycle and module controllers share theirs)
      const names = new Set<string>();
      for (let p = controller.prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object)
        for (const n of Object.getOwnPropertyNames(p)) names.add(n);
      for (const name of names) {
        const handler = controller.prototype[name as keyof object] as unknown;
        if (typeof handler !== 'function' || name === 'constructor') continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (method !== RequestMethod.PATCH && method !== RequestMethod.PUT && method !== RequestMethod.POST) continue;
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, name) ?? {}) as Record<
          string,
          { index: number; data?: unknown }
        >;
        const body = Object.entries(args).find(([k, v]) => k.startsWith(`${BODY}:`) && v.data === undefined);
        if (!body) continue;
        const types = Reflect.getMetadata('design:paramtypes', controller.prototype, name) as unknown[];
        const dto = types[body[1].index] as (new () => object) | undefined;
        if (typeof dto !== 'function' || [Object, Array, String].includes(dto as never)) continue;
        const subs = [Reflect.getMetadata(PATH_METADATA, handler) as string | string[]].flat();
        for (const base of bases) {
          for (const sub of subs) {
            const path = [prefixes[module], base, sub].filter((p) => p && p !== '/').join('/');
            out.push({
              module,
              name: `${controller.name}.${name}`,
              verb: RequestMethod[method] as Route['verb'],
              path: `/${path}/`,
              dto,
            });
          }
        }
      }
    }
  }
  return out;
}

/** The optional fields of a DTO (those with `@IsOptional`, `@ValidateIf`…), with their declaring class. */
function optionalFields(dto: new () => object): Field[] {
  const metas = getMetadataStorage().getTargetValidationMetadatas(dto, '', true, false);
  const seen = new Map<string, string>();
  for (const m of metas) {
    if (m.type === 'conditionalValidation' && !seen.has(m.propertyName))
      seen.set(m.propertyName, (m.target as { name: string }).name);
  }
  return [...seen].map(([name, declaredBy]) => ({ name, declaredBy }));
}

describe('explicit null in write bodies: 422 "This field may not be null." or stored as empty, never a 5xx', () => {
  let t: TestApp;
  let owner: Awaited<ReturnType<typeof signUp>>;
  let key: string;
  let admin: string;
  const ids: Record<string, string> = {};
  let routes: Route[];

  before(async () => {
    t = await startTestApp({
      API_KEY_RATE_LIMIT: '1000000',
      AUTH_RATE_LIMIT: '100000/minute',
      FAILED_AUTH_RATE_LIMIT: '100000/minute',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
    });
    owner = await signUp(t);
    const ws = await createWorkspace(t, owner.token);
    key = await createApiKey(t, owner.token, ws.slug);
    admin = await adminToken(t);
    const v1 = (path: string, body: unknown) =>
      t.api
        .post(`/api/v1/workspaces/${ws.slug}/${path}`)
        .set('X-API-Key', key)
        .send(body as object);
    const app = (path: string, body: unknown) =>
      t.api
        .post(`/api/workspaces/${ws.slug}/${path}`)
        .auth(owner.token, { type: 'bearer' })
        .send(body as object);
    const created = async (res: Promise<{ status: number; body: { id: string } }>) => {
      const r = await res;
      assert.ok(r.status < 300, JSON.stringify(r.body));
      return r.body;
    };
    ids.slug = ws.slug;
    ids.project_id = (await created(v1('projects/', { name: 'Nulls', identifier: 'NUL', intake_view: true }))).id;
    const p = (path: string) => `projects/${ids.project_id}/${path}`;
    ids.state_id = (await created(v1(p('states/'), { name: 'Doing', color: '#ff0000' }))).id;
    ids.label_id = (await created(v1(p('labels/'), { name: 'bug' }))).id;
    ids.issue_id = (await created(v1(p('work-items/'), { name: 'Item' }))).id;
    ids.comment_id = (await created(v1(p(`work-items/${ids.issue_id}/comments/`), { comment_html: '<p>hi</p>' }))).id;
    ids.link_id = (await created(v1(p(`work-items/${ids.issue_id}/links/`), { url: 'https://example.com/a' }))).id;
    ids.cycle_id = (await created(v1(p('cycles/'), { name: 'Cycle' }))).id;
    ids.module_id = (await created(v1(p('modules/'), { name: 'Module' }))).id;
    ids.estimate_id = (await created(v1(p('estimates/'), { name: 'Points', type: 'points' }))).id;
    const points = await v1(p(`estimates/${ids.estimate_id}/estimate-points/`), [{ value: '1' }]);
    ids.point_id = points.body[0].id;
    ids.sticky_id = (await created(v1('stickies/', { name: 'Note' }))).id;
    ids.module_link_id = (
      await created(app(p(`modules/${ids.module_id}/module-links/`), { url: 'https://example.com/spec' }))
    ).id;
    ids.quick_link_id = (await created(app('quick-links/', { url: 'https://example.com/home' }))).id;
    ids.intake_issue_id = (
      (await created(v1(p('intake-issues/'), { issue: { name: 'Triage' } }))) as unknown as { issue: string }
    ).issue;
    ids.webhook_id = (await created(app('webhooks/', { url: 'http://127.0.0.1:9/hook' }))).id;
    ids.token_id = (await created(app('api-tokens/', { label: 'other' }))).id;
    const board = (await created(
      app(`projects/${ids.project_id}/project-deploy-boards/`, { is_comments_enabled: true }),
    )) as unknown as { id: string; anchor: string };
    ids.board_id = board.id;
    ids.anchor = board.anchor;
    ids.workspace_slug = ws.slug;
    ids.published_project_id = ids.project_id;
    routes = bodyRoutes(t);
  });
  after(() => t.close());

  /** The route's path with its parameters filled, or null when the test has no such object. */
  function fill(path: string): string | null {
    let missing = false;
    const out = path.replace(/:([a-z_]+)/g, (_, name: string) => {
      if (name === 'issue_id' && /(intake|inbox)-issues\/:issue_id/.test(path)) return ids.intake_issue_id;
      if (name === 'link_id' && path.includes('/module-links/')) return ids.module_link_id;
      if (name === 'link_id' && path.includes('/quick-links/')) return ids.quick_link_id;
      if (!ids[name]) missing = true;
      return ids[name] ?? '';
    });
    return missing ? null : out.replace(/\/+/g, '/');
  }

  function send(route: Route, path: string, body: object) {
    const req = t.api[route.verb.toLowerCase() as 'patch' | 'put' | 'post'](path);
    if (route.module === 'ExternalV1Module') req.set('X-API-Key', key);
    else if (route.module === 'InstanceModule') req.auth(admin, { type: 'bearer' });
    else req.auth(owner.token, { type: 'bearer' });
    return req.send(body);
  }

  it('covers the reported routes and fields', () => {
    const covered = new Set(
      routes
        .filter((r) => fill(r.path))
        .flatMap((r) => optionalFields(r.dto).map((f) => `${r.verb} ${r.path} ${f.name}`)),
    );
    for (const expected of [
      'PATCH /api/users/me/ first_name',
      'PATCH /api/v1/workspaces/:slug/projects/:project_id/ description',
      'PATCH /api/v1/workspaces/:slug/projects/:project_id/work-items/:issue_id/ priority',
      'PATCH /api/instances/ instance_name',
      'PATCH /api/public/anchor/:anchor/issues/:issue_id/comments/:comment_id/ comment_html',
    ])
      assert.ok(covered.has(expected), `${expected} not covered`);
    assert.ok(covered.size > 300, `only ${covered.size} route/field pairs`);
    for (const [dto, fields] of Object.entries(ACCEPTS_NULL)) {
      for (const f of fields.split(' ')) {
        assert.ok(
          routes.some((r) => optionalFields(r.dto).some((x) => x.declaredBy === dto && x.name === f)),
          `${dto}.${f} is not an optional field of any route`,
        );
      }
    }
  });

  it('every optional field of every write body: null is refused by name, or accepted and read back empty', async () => {
    const failures: string[] = [];
    let pairs = 0;
    for (const route of routes) {
      const path = fill(route.path);
      if (!path) continue;
      for (const field of optionalFields(route.dto)) {
        pairs++;
        const res = await send(route, path, { [field.name]: null });
        const where = `${route.verb} ${route.path} {${field.name}: null} (${field.declaredBy})`;
        const errors = (res.body?.errors ?? {}) as Record<string, string[]>;
        const others = Object.keys(errors).filter((k) => k !== field.name);
        const accepted = ACCEPTS_NULL[field.declaredBy]?.split(' ').includes(field.name) || EMPTY_LIST.has(field.name);
        if (res.status >= 500) {
          failures.push(`${where}: ${res.status} ${JSON.stringify(res.body)}`);
        } else if (REQUIRED_IN_ROUTE.has(`${route.name} ${field.name}`)) {
          if (res.status !== 422 || !errors[field.name])
            failures.push(`${where}: expected 422 (required), got ${res.status} ${JSON.stringify(res.body)}`);
        } else if (!accepted) {
          if (
            res.status !== 422 ||
            res.body.error_code !== 'VALIDATION_ERROR' ||
            JSON.stringify(errors[field.name]) !== JSON.stringify([MESSAGE])
          ) {
            failures.push(`${where}: expected 422 "${MESSAGE}", got ${res.status} ${JSON.stringify(res.body)}`);
          }
        } else if (errors[field.name]) {
          failures.push(`${where}: null refused: ${JSON.stringify(errors[field.name])}`);
        } else if (route.verb === 'PATCH' && res.status >= 300 && !(res.status === 422 && others.length)) {
          failures.push(`${where}: expected 2xx, got ${res.status} ${JSON.stringify(res.body)}`);
        } else if (
          res.status < 300 &&
          res.body &&
          typeof res.body === 'object' &&
          !Array.isArray(res.body) &&
          field.name in res.body &&
          !READ_BACK_SKIP.has(`${field.declaredBy}.${field.name}`)
        ) {
          const expected = EMPTY_LIST.has(field.name) ? [] : null;
          if (JSON.stringify(res.body[field.name]) !== JSON.stringify(expected)) {
            failures.push(
              `${where}: read back ${JSON.stringify(res.body[field.name])}, expected ${JSON.stringify(expected)}`,
            );
          }
        }
      }
    }
    assert.ok(pairs > 300, `only ${pairs} pairs sent`);
    assert.equal(failures.length, 0, `${failures.length} of ${pairs} pairs:\n${failures.join('\n')}`);
  });

  it("null in the four reported bodies: 422 with Plane's message, nothing written", async () => {
    const me = await t.api
      .patch('/api/users/me/')
      .auth(owner.token, { type: 'bearer' })
      .send({ first_name: null, last_name: 'Kept?' });
    assert.equal(me.status, 422, JSON.stringify(me.body));
    assert.deepEqual(me.body.errors, { first_name: [MESSAGE] });
    assert.notEqual((await t.api.get('/api/users/me/').auth(owner.token, { type: 'bearer' })).body.last_name, 'Kept?');
    const project = `/api/v1/workspaces/${ids.slug}/projects/${ids.project_id}/`;
    const desc = await t.api.patch(project).set('X-API-Key', key).send({ description: null });
    assert.equal(desc.status, 422);
    assert.deepEqual(desc.body.errors, { description: [MESSAGE] });
    const item = await t.api
      .patch(`${project}work-items/${ids.issue_id}/`)
      .set('X-API-Key', key)
      .send({ priority: null });
    assert.equal(item.status, 422);
    assert.deepEqual(item.body.errors, { priority: [MESSAGE] });
    assert.equal(
      (await t.api.get(`${project}work-items/${ids.issue_id}/`).set('X-API-Key', key)).body.priority,
      'none',
    );
    const instance = await t.api.patch('/api/instances/').auth(admin, { type: 'bearer' }).send({ instance_name: null });
    assert.equal(instance.status, 422);
    assert.deepEqual(instance.body.errors, { instance_name: [MESSAGE] });
  });

  it('lists: null is the empty list (assignees and labels cleared), the same on v1 and the App API', async () => {
    const item = `/api/v1/workspaces/${ids.slug}/projects/${ids.project_id}/work-items/${ids.issue_id}/`;
    const set = await t.api
      .patch(item)
      .set('X-API-Key', key)
      .send({ assignees: [owner.userId], labels: [ids.label_id] });
    assert.equal(set.status, 200, JSON.stringify(set.body));
    const cleared = await t.api.patch(item).set('X-API-Key', key).send({ assignees: null, labels: null });
    assert.equal(cleared.status, 200, JSON.stringify(cleared.body));
    assert.deepEqual(cleared.body.assignees, []);
    assert.deepEqual(cleared.body.labels, []);
    const appItem = `/api/workspaces/${ids.slug}/projects/${ids.project_id}/issues/${ids.issue_id}/`;
    await t.api
      .patch(item)
      .set('X-API-Key', key)
      .send({ assignees: [owner.userId], labels: [ids.label_id] });
    const app = await t.api
      .patch(appItem)
      .auth(owner.token, { type: 'bearer' })
      .send({ assignee_ids: null, label_ids: null });
    assert.ok(app.status < 300, JSON.stringify(app.body));
    const read = await t.api.get(item).set('X-API-Key', key);
    assert.deepEqual(read.body.assignees, []);
    assert.deepEqual(read.body.labels, []);
  });

  it('nested bodies: bulk properties, the intake work item, invitation entries', async () => {
    const bearer = { type: 'bearer' } as const;
    const bulk = `/api/workspaces/${ids.slug}/projects/${ids.project_id}/bulk-operation-issues/`;
    const refused = await t.api
      .post(bulk)
      .auth(owner.token, bearer)
      .send({ issue_ids: [ids.issue_id], properties: { priority: null } });
    assert.equal(refused.status, 422, JSON.stringify(refused.body));
    assert.deepEqual(refused.body.errors, { 'properties.priority': [MESSAGE] });
    const cleared = await t.api
      .post(bulk)
      .auth(owner.token, bearer)
      .send({
        issue_ids: [ids.issue_id],
        properties: {
          state_id: null,
          start_date: null,
          target_date: null,
          estimate_point: null,
          label_ids: null,
          assignee_ids: null,
        },
      });
    assert.ok(cleared.status < 300, `${cleared.status} ${JSON.stringify(cleared.body)}`);
    const item = (
      await t.api
        .get(`/api/v1/workspaces/${ids.slug}/projects/${ids.project_id}/work-items/${ids.issue_id}/`)
        .set('X-API-Key', key)
    ).body;
    assert.equal(item.start_date, null);
    assert.equal(item.estimate_point, null);
    const intake = `/api/v1/workspaces/${ids.slug}/projects/${ids.project_id}/intake-issues/`;
    for (const field of ['name', 'description_html', 'description', 'priority']) {
      const res = await t.api
        .post(intake)
        .set('X-API-Key', key)
        .send({ issue: { name: 'x', [field]: null } });
      assert.equal(res.status, 422, `${field}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.deepEqual(res.body.errors, { [`issue.${field}`]: [MESSAGE] });
    }
    const invite = await t.api
      .post(`/api/workspaces/${ids.slug}/invitations/`)
      .auth(owner.token, bearer)
      .send({ emails: [{ email: 'someone@example.com', role: null }] });
    assert.equal(invite.status, 422, JSON.stringify(invite.body));
    assert.deepEqual(invite.body.errors, { 'emails.0.role': [MESSAGE] });
  });

  it('bodies that are not DTOs: estimate points, instance configuration', async () => {
    const points = `/api/v1/workspaces/${ids.slug}/projects/${ids.project_id}/estimates/${ids.estimate_id}/estimate-points/`;
    for (const body of [[{ value: null }], [{ value: '5', key: null }], [{ value: '6', description: null }]]) {
      const res = await t.api.post(points).set('X-API-Key', key).send(body);
      assert.equal(res.status, 422, `${JSON.stringify(body)}: ${res.status} ${JSON.stringify(res.body)}`);
      assert.equal(res.body.error_code, 'VALIDATION_ERROR');
    }
    const config = await t.api
      .patch('/api/instances/configurations/')
      .auth(admin, { type: 'bearer' })
      .send({ ENABLE_SIGNUP: null });
    assert.equal(config.status, 200, JSON.stringify(config.body));
  });
});
