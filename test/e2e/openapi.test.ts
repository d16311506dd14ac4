import { AUTH_SCHEME } from '#common';
import { Validator } from '@seriousme/openapi-schema-validator';
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { collectRoutes } from '../support/routes';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- the document is walked generically */

/** Each module's base path (as `AppModule` registers them); a module missing here fails the test. */
const PREFIX: Record<string, string> = {
  ExternalV1Module: 'api/v1',
  PublicModule: 'api/public',
  InstanceModule: 'api/instances',
  AppApiModule: 'api',
  AuthModule: 'auth',
  HealthModule: '',
};

/** The security requirement each declaration must produce. */
const SECURITY: Record<string, unknown[]> = {
  'api-key': [{ api_key: [] }],
  session: [{ bearer: [] }],
  'instance-admin': [{ instance_admin: [] }],
  public: [],
};

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

/** `/api/v1/workspaces/:slug/` and `/api/v1/workspaces/{slug}` compare equal. */
const normalise = (p: string) =>
  `/${p}`
    .replace(/:([A-Za-z_]\w*)/g, '{$1}')
    .replace(/\/+/g, '/')
    .replace(/\/$/, '') || '/';

describe('OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  /** normalised path → its path item */
  let items: Map<string, any>;
  before(async () => {
    t = await startTestApp();
    const res = await t.api.get('/api/openapi.json');
    assert.equal(res.status, 200, res.text);
    assert.match(res.headers['content-type'], /^application\/json/);
    doc = JSON.parse(res.text);
    items = new Map(Object.entries(doc.paths as Record<string, any>).map(([p, item]) => [normalise(p), item]));
  });
  after(() => t.close());

  it('is OpenAPI 3.1 and valid against its schema', async () => {
    assert.match(doc.openapi, /^3\.1\./);
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 1)?.slice(0, 3000));
  });

  it('declares the three auth schemes', () => {
    const schemes = doc.components.securitySchemes;
    assert.deepEqual(
      { type: schemes.api_key.type, in: schemes.api_key.in, name: schemes.api_key.name },
      { type: 'apiKey', in: 'header', name: 'X-API-Key' },
    );
    assert.deepEqual([schemes.bearer.type, schemes.bearer.scheme], ['http', 'bearer']);
    assert.deepEqual([schemes.instance_admin.type, schemes.instance_admin.scheme], ['http', 'bearer']);
  });

  it('has the error shape as a schema, the default response of every operation', () => {
    const error = doc.components.schemas.Error;
    assert.deepEqual(error.required, ['detail', 'error_code']);
    assert.equal(error.properties.detail.type, 'string');
    assert.ok(error.properties.error_code.enum.includes('VALIDATION_ERROR'));
    assert.deepEqual(doc.components.responses.Error.content['application/json'].schema, {
      $ref: '#/components/schemas/Error',
    });
    for (const [p, item] of items) {
      for (const m of METHODS.filter((m) => item[m])) {
        assert.deepEqual(item[m].responses.default, { $ref: '#/components/responses/Error' }, `${m} ${p}`);
      }
    }
  });

  it('documents every route under each of its paths, with the security its declaration requires', () => {
    const routes = collectRoutes(t);
    assert.ok(routes.length > 150, `found ${routes.length} routes`);
    const unknownModules = [...new Set(routes.map((r) => r.module).filter((m) => !(m in PREFIX)))];
    assert.deepEqual(unknownModules, [], 'modules without a base path in this test');
    const missing: string[] = [];
    const wrongSecurity: string[] = [];
    for (const route of routes) {
      for (const routePath of route.paths) {
        const key = normalise(`${PREFIX[route.module]}/${routePath}`);
        const op = items.get(key)?.[route.verb.toLowerCase()];
        if (!op) {
          missing.push(`${route.verb} ${key} (${route.name})`);
          continue;
        }
        const expected = SECURITY[route.meta(AUTH_SCHEME) as string];
        if (JSON.stringify(op.security) !== JSON.stringify(expected)) {
          wrongSecurity.push(
            `${route.verb} ${key}: ${JSON.stringify(op.security)}, declared ${String(route.meta(AUTH_SCHEME))}`,
          );
        }
      }
    }
    assert.deepEqual(missing, [], 'routes missing from /api/openapi.json');
    assert.deepEqual(wrongSecurity, []);
  });

  it('tags every operation with its API and gives it a unique operationId', () => {
    const ids = new Set<string>();
    const tagged: Record<string, string> = {};
    for (const [p, item] of items) {
      for (const m of METHODS.filter((m) => item[m])) {
        const op = item[m];
        assert.ok(!ids.has(op.operationId), `duplicate operationId ${op.operationId}`);
        ids.add(op.operationId);
        assert.equal(op.tags.length, 1, `${m} ${p}`);
        tagged[`${m} ${p}`] = op.tags[0];
      }
    }
    assert.equal(tagged['get /api/v1/workspaces/{slug}/projects'], 'External API v1');
    assert.equal(tagged['get /api/workspaces/{slug}/members'], 'App API');
    assert.equal(tagged['get /api/public/anchor/{anchor}/settings'], 'Public');
    assert.equal(tagged['get /api/instances/configurations'], 'Instance');
    assert.equal(tagged['post /auth/sign-in'], 'Auth');
  });

  it('names request-body DTOs with their fields, and declares every path parameter', () => {
    const create = items.get('/api/v1/workspaces/{slug}/projects').post;
    assert.deepEqual(create.requestBody.content['application/json'].schema, {
      $ref: '#/components/schemas/CreateProjectDto',
    });
    const dto = doc.components.schemas.CreateProjectDto;
    assert.equal(dto.properties.name.type, 'string');
    assert.ok(dto.required.includes('name') && dto.required.includes('identifier'));
    assert.equal(dto.additionalProperties, false);
    // nullable fields (`@ValidateIf(v !== null)`) are 3.1 type unions
    const issue = doc.components.schemas.UpdateWorkItemDto;
    assert.deepEqual(issue.properties.parent.type, ['string', 'null']);
    // every body names a schema with fields; every {param} of a path is declared
    for (const [p, item] of items) {
      for (const m of METHODS.filter((m) => item[m])) {
        const op = item[m];
        const ref: string | undefined = op.requestBody?.content?.['application/json']?.schema?.$ref;
        const form = op.requestBody?.content?.['multipart/form-data']?.schema;
        if (form) {
          // a `@MultipartBody()` upload: its parts inline, at least one a file
          const parts = Object.values<any>(form.properties ?? {});
          assert.ok(
            parts.some((x) => x.format === 'binary'),
            `${m} ${p}: multipart body without a file part`,
          );
        } else if (op.requestBody) {
          assert.ok(ref, `${m} ${p}: request body without a named schema`);
          const schema = doc.components.schemas[ref.split('/').pop()!];
          assert.ok(Object.keys(schema?.properties ?? {}).length > 0, `${m} ${p}: ${ref} has no fields`);
        }
        const declared = (op.parameters ?? [])
          .filter((x: any) => x.in === 'path')
          .map((x: any) => x.name)
          .sort();
        const inPath = [...p.matchAll(/\{(\w+)\}/g)].map((x) => x[1]).sort();
        assert.deepEqual(declared, inPath, `${m} ${p}`);
      }
    }
    const list = items.get('/api/v1/workspaces/{slug}/projects').get;
    assert.deepEqual(
      list.parameters
        .filter((x: any) => x.in === 'query')
        .map((x: any) => x.name)
        .sort(),
      ['cursor', 'per_page'],
    );
    assert.deepEqual(list.responses['200'].content['application/json'].schema, {
      $ref: '#/components/schemas/PageEnvelope',
    });
    assert.ok(doc.components.schemas.PageEnvelope.required.includes('next_cursor'));
  });

  it('serves itself and Swagger UI without credentials, never shadowed by the App API', async () => {
    const page = await t.api.get('/api/docs/');
    assert.equal(page.status, 200);
    assert.match(page.text, /swagger-ui-bundle\.js/);
    assert.doesNotMatch(page.text, /https?:\/\//, 'the page loads nothing from another host');
    const redirect = await t.api.get('/api/docs');
    assert.equal(redirect.status, 301);
    assert.equal(redirect.headers.location, 'docs/');
    for (const asset of ['swagger-ui-bundle.js', 'swagger-ui.css', 'meridian-docs.js']) {
      const res = await t.api.get(`/api/docs/${asset}`);
      assert.equal(res.status, 200, asset);
    }
    const init = await t.api.get('/api/docs/meridian-docs.js');
    assert.match(init.text, /'\.\.\/openapi\.json'/);
    assert.equal(
      (await t.api.get('/api/docs/swagger-initializer.js')).status,
      404,
      "Swagger's demo initializer is not served",
    );
    const post = await t.api.post('/api/openapi.json').send({});
    assert.equal(post.status, 405);
    assert.equal(post.body.error_code, 'METHOD_NOT_ALLOWED');
    assert.equal(post.headers.allow, 'GET');
    // cached: the same document again
    const again = await t.api.get('/api/openapi.json');
    assert.deepEqual(JSON.parse(again.text), doc);
  });
});
