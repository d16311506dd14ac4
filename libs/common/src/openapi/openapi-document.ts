import type { INestApplication, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import type { MetadataStorage as TransformerMetadata } from 'class-transformer/types/MetadataStorage';
import { AUTH_SCHEME, AuthScheme } from '../auth/auth.decorators';
import { ERROR_CATALOG } from '../errors/error-catalog';
import type { PagingPolicy } from '../pagination/page-query.decorator';
import { meridianVersion } from '../util/version';
import { NOT_NULL_CONSTRAINT } from '../validation/optional.decorators';
import { MULTIPART_BODY, MultipartBodySpec } from './multipart-body';

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI objects are walked generically */

/** Names of the security schemes in `components.securitySchemes`. */
export const SECURITY_SCHEMES = {
  /** `Authorization: Bearer <user access token>`: App API, the signed-in parts of `/auth/` and `/api/public/`. */
  bearer: 'bearer',
  /** `X-API-Key: <workspace API key>`: External API v1. */
  apiKey: 'api_key',
  /** `Authorization: Bearer <instance admin access token>`: `/api/instances/`. */
  instanceAdmin: 'instance_admin',
} as const;

const SCHEME_OF: Record<AuthScheme, string | null> = {
  session: SECURITY_SCHEMES.bearer,
  'api-key': SECURITY_SCHEMES.apiKey,
  'instance-admin': SECURITY_SCHEMES.instanceAdmin,
  public: null,
};

const APP_TAG = 'App API';

/** Tags, by base path; the first match wins (docs/reference/http-interface.md §4). */
const TAGS: { prefix: string; tag: string; id: string; description: string }[] = [
  {
    prefix: '/api/v1/',
    tag: 'External API v1',
    id: 'v1',
    description: 'Plane-compatible External API for scripts and integrations (`X-API-Key`).',
  },
  {
    prefix: '/api/public/',
    tag: 'Public',
    id: 'public',
    description: 'Published project boards, readable without signing in.',
  },
  {
    prefix: '/api/instances/',
    tag: 'Instance',
    id: 'instance',
    description: 'Instance administration (instance admin tokens).',
  },
  { prefix: '/api/', tag: APP_TAG, id: 'app', description: "The web app's API (user access tokens)." },
  { prefix: '/auth/', tag: 'Auth', id: 'auth', description: 'Sign-up, sign-in, tokens, magic codes and OAuth.' },
  { prefix: '/', tag: 'Health', id: 'health', description: 'Liveness and database health.' },
];

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** The wire shape of every error (docs/reference/http-interface.md §7, `docs/errors.md`). */
export const ERROR_SCHEMA = {
  type: 'object',
  description: 'Every error answer. Further keys may accompany some codes (see docs/errors.md).',
  required: ['detail', 'error_code'],
  properties: {
    detail: { type: 'string', description: 'A human-readable explanation.' },
    error_code: { type: 'string', enum: Object.keys(ERROR_CATALOG), description: 'A stable machine-readable code.' },
  },
  additionalProperties: true,
};

const nullableString = { type: ['string', 'null'] };
/** Plane's paginator envelope with Meridian's cursors (`toEnvelope`, docs/reference/http-interface.md §2 and §8). */
export const PAGE_ENVELOPE_SCHEMA = {
  type: 'object',
  description: 'One page of a list. Pass `next_cursor` (or `prev_cursor`) as `cursor` for the next (previous) page.',
  required: ['results', 'next_cursor', 'prev_cursor', 'total_count'],
  properties: {
    grouped_by: { type: 'null' },
    sub_grouped_by: { type: 'null' },
    total_count: { type: 'integer' },
    next_cursor: nullableString,
    prev_cursor: nullableString,
    next_page_results: { type: 'boolean' },
    prev_page_results: { type: 'boolean' },
    count: { type: 'integer', description: 'Items on this page.' },
    total_pages: { type: 'integer' },
    total_results: { type: 'integer' },
    extra_stats: { type: 'null' },
    results: { type: 'array', items: { type: 'object' } },
  },
};

/** Handlers that already carry the security/query metadata derived below (controllers are process-wide). */
const annotated = new WeakSet<object>();

/**
 * Builds the OpenAPI 3.1 document of every route of `app` with `@nestjs/swagger`.
 *
 * - Security: each operation gets the scheme of its `@BearerAuth()` / `@ApiKeyAuth()` /
 *   `@InstanceAdminAuth()` declaration, handler over controller as the guard reads it; `@Public()`
 *   operations get `security: []`. Derived here, at generation time, so starting the server does
 *   not load `@nestjs/swagger`.
 * - Request bodies: the DTO class named by `@Body()`, its schema derived from its class-validator
 *   decorators by `class-validator-jsonschema` (the project builds with `tsc`, so the swagger CLI
 *   plugin does not run and DTOs carry no `@ApiProperty`); a `@MultipartBody()` handler's
 *   `multipart/form-data` parts, inline, with its success answer.
 * - Lists (`@PageQuery(policy)`): `per_page` and `cursor` query parameters and the `PageEnvelope`
 *   response (docs/reference/http-interface.md §8); by the policy's `paged`, a bare array, or either.
 * - Errors: `components.schemas.Error` (`{detail, error_code}`), the `default` response of every
 *   operation.
 * - Tags per API (External API v1, App API, Public, Instance, Auth, Health), operation ids
 *   `<api>_<controller>_<handler>`, with `_2`, `_3`… for the further paths of a handler that
 *   serves several (`/issues/` and `/work-items/`).
 *
 * Loads `@nestjs/swagger` and `class-validator-jsonschema` on first use (~0.3 s together).
 */
export async function buildOpenApiDocument(app: INestApplication): Promise<Record<string, any>> {
  const swagger = await import('@nestjs/swagger');
  annotateHandlers(app, swagger);
  const config = new swagger.DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Meridian')
    .setDescription(
      'Self-hosted workspace and project management with a Plane 0.25.3 compatible HTTP API. ' +
        'Errors are always `{"detail", "error_code"}` (the `Error` schema); lists use a cursor envelope ' +
        '(`per_page`, `cursor`, `next_cursor`, `results`), or, on the App API lists Plane does not page, ' +
        'a bare array.',
    )
    .setVersion(meridianVersion())
    .addBearerAuth(
      { type: 'http', scheme: 'bearer', description: 'A user access token from `/auth/sign-in/` or `/auth/sign-up/`.' },
      SECURITY_SCHEMES.bearer,
    )
    .addApiKey(
      {
        type: 'apiKey',
        in: 'header',
        name: 'X-API-Key',
        description: 'A workspace API key (`/api/workspaces/{slug}/api-tokens/`).',
      },
      SECURITY_SCHEMES.apiKey,
    )
    .addBearerAuth(
      {
        type: 'http',
        scheme: 'bearer',
        description:
          'An instance admin access token from `/api/instances/admins/sign-in/`; valid only under `/api/instances/`.',
      },
      SECURITY_SCHEMES.instanceAdmin,
    )
    .build();
  for (const t of TAGS) (config.tags ??= []).push({ name: t.tag, description: t.description });
  const document = swagger.SwaggerModule.createDocument(app, config, {
    operationIdFactory: (controller, method) => `${controller.replace(/Controller$/, '')}_${method}`,
  }) as Record<string, any>;
  addDtoSchemas(document);
  return finishDocument(document);
}

/** Applies the swagger metadata that Meridian's own declarations imply, once per handler. */
function annotateHandlers(app: INestApplication, swagger: typeof import('@nestjs/swagger')): void {
  for (const moduleRef of app.get(ModulesContainer).values()) {
    for (const wrapper of moduleRef.controllers.values()) {
      const controller = wrapper.metatype as (new (...args: never[]) => object) | null;
      if (!controller) continue;
      for (const [name, descriptor] of handlerDescriptors(controller.prototype)) {
        const handler = descriptor?.value as unknown;
        if (name === 'constructor' || typeof handler !== 'function' || annotated.has(handler)) continue;
        if ((Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined) === undefined) continue;
        annotated.add(handler);
        const scheme = (Reflect.getMetadata(AUTH_SCHEME, handler) ?? Reflect.getMetadata(AUTH_SCHEME, controller)) as
          AuthScheme | undefined;
        const security = scheme ? SCHEME_OF[scheme] : null;
        if (security) swagger.ApiSecurity(security)(controller.prototype, name, descriptor!);
        const multipart = Reflect.getMetadata(MULTIPART_BODY, handler) as MultipartBodySpec | undefined;
        if (multipart) {
          swagger.ApiConsumes('multipart/form-data')(controller.prototype, name, descriptor!);
          swagger.ApiBody({ schema: multipartSchema(multipart) })(controller.prototype, name, descriptor!);
          swagger.ApiResponse({ status: multipart.status, description: multipart.answer })(
            controller.prototype,
            name,
            descriptor!,
          );
        }
        const paging = pagingPolicyOf(controller, name);
        if (paging) {
          const mode = paging.paged ?? 'always';
          const query = (param: string, schema: Record<string, unknown>, description: string) =>
            swagger.ApiQuery({ name: param, required: false, schema, description })(
              controller.prototype,
              name,
              descriptor!,
            );
          if (mode !== 'never') {
            const both = mode === 'on-request' ? ' Pages only together with `cursor`.' : '';
            query(
              'per_page',
              { type: 'integer', minimum: 1, maximum: paging.maxPerPage },
              `Page size (docs/reference/http-interface.md §8).${both}`,
            );
            query(
              'cursor',
              { type: 'string' },
              mode === 'on-request'
                ? 'The `next_cursor` or `prev_cursor` of a previous page; `<per_page>:0:0` for the first page. ' +
                    'Without both `per_page` and `cursor` the answer is every item, as a bare array.'
                : 'The `next_cursor` or `prev_cursor` of a previous page; `<per_page>:0:0` is the first page.',
            );
          }
          const schema =
            mode === 'always'
              ? { $ref: '#/components/schemas/PageEnvelope' }
              : mode === 'never'
                ? BARE_LIST_SCHEMA
                : { oneOf: [BARE_LIST_SCHEMA, { $ref: '#/components/schemas/PageEnvelope' }] };
          swagger.ApiOkResponse({
            description:
              mode === 'always'
                ? 'A page of results.'
                : mode === 'never'
                  ? 'Every item, as a bare array.'
                  : 'Every item as a bare array; a page (the envelope) when `per_page` and `cursor` are both given.',
            schema,
          })(controller.prototype, name, descriptor!);
        }
      }
    }
  }
}

/**
 * Every method of a controller, inherited ones too (a controller may extend a class of shared
 * handlers, as Nest's router and swagger's explorer see them), the most derived one of a name.
 * A handler inherited by several controllers is annotated for the first one only (`annotated`).
 */
function handlerDescriptors(prototype: object): [string, PropertyDescriptor | undefined][] {
  const found = new Map<string, PropertyDescriptor | undefined>();
  for (let p: object | null = prototype; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const name of Object.getOwnPropertyNames(p)) {
      if (!found.has(name)) found.set(name, Object.getOwnPropertyDescriptor(p, name));
    }
  }
  return [...found];
}

/** The JSON Schema of a `@MultipartBody()` form: a file part is a binary string, a text field a string. */
function multipartSchema(spec: MultipartBodySpec): Record<string, unknown> {
  const properties: Record<string, unknown> = {};
  for (const part of spec.parts) {
    properties[part.name] = {
      type: 'string',
      ...(part.file ? { format: 'binary', contentMediaType: 'application/octet-stream' } : {}),
      ...(part.enum ? { enum: [...part.enum] } : {}),
      description: part.description,
    };
  }
  const required = spec.parts.filter((p) => p.required).map((p) => p.name);
  return { type: 'object', properties, ...(required.length ? { required } : {}) };
}

/** A list answered whole (Plane's views that return `Response(serializer.data)`). */
const BARE_LIST_SCHEMA = { type: 'array', items: { type: 'object' } };

/** The paging policy of a handler's `@PageQuery(policy)` parameter (a custom argument whose data is a policy), if any. */
function pagingPolicyOf(controller: object, method: string): PagingPolicy | undefined {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, method) ?? {}) as Record<
    string,
    { data?: unknown }
  >;
  const found = Object.values(args).find(
    (a) => typeof a?.data === 'object' && a.data !== null && 'maxPerPage' in a.data,
  );
  return found?.data as PagingPolicy | undefined;
}

/**
 * Fills the request-body schemas that swagger left empty (DTOs without `@ApiProperty`) from the
 * class-validator metadata of the class of the same name.
 */
function addDtoSchemas(document: Record<string, any>): void {
  const schemas = (document.components ??= {}).schemas ?? (document.components.schemas = {});
  // plain requires, so that the server's bundle (scripts/bundle.js) holds them with the one
  // class-transformer whose storage the DTOs' decorators filled
  const { validationMetadatasToSchemas } =
    require('class-validator-jsonschema') as typeof import('class-validator-jsonschema');
  // class-transformer's `@Type()` targets (nested DTOs); the storage is not part of its typed exports
  const { defaultMetadataStorage } = require('class-transformer/cjs/storage.js') as {
    defaultMetadataStorage: TransformerMetadata;
  };
  const derived = validationMetadatasToSchemas({
    refPointerPrefix: '#/components/schemas/',
    classTransformerMetadataStorage: defaultMetadataStorage,
    additionalConverters: { conditionalValidation: nullableMarker, customValidation: customValidatorType },
  }) as Record<string, any>;
  for (const schema of Object.values(derived)) {
    // RequestValidationPipe refuses unknown fields (422), except on the App API: `openAppBodies`
    schema.additionalProperties = false;
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Record<string, any>)) {
      if (property[NULLABLE]) schema.properties[name] = nullable(property);
    }
  }
  const pending = Object.keys(schemas);
  const seen = new Set<string>();
  while (pending.length) {
    const name = pending.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    const current = schemas[name];
    const empty = !current || !current.properties || Object.keys(current.properties).length === 0;
    if (empty && derived[name]) schemas[name] = derived[name];
    // nested DTOs referenced by a derived schema
    for (const ref of JSON.stringify(schemas[name] ?? {}).matchAll(/"#\/components\/schemas\/([^"]+)"/g)) {
      if (!schemas[ref[1]] && derived[ref[1]]) schemas[ref[1]] = derived[ref[1]];
      pending.push(ref[1]);
    }
  }
}

/**
 * Our own validators (`ValidateBy`) say nothing about the JSON type: take the property's declared
 * TypeScript type (the library's default makes `$ref`s to `Object` for maps).
 */
function customValidatorType(meta: { name?: string; target: unknown; propertyName: string }): Record<string, unknown> {
  if (meta.name === NOT_NULL_CONSTRAINT) return {}; // `IsOptionalNonNull`: says nothing about the type
  const type =
    typeof meta.target === 'function'
      ? (Reflect.getMetadata('design:type', meta.target.prototype, meta.propertyName) as unknown)
      : undefined;
  const known = new Map<unknown, Record<string, unknown>>([
    [String, { type: 'string' }],
    [Number, { type: 'number' }],
    [Boolean, { type: 'boolean' }],
    [Object, { type: 'object' }],
    [Array, { type: 'array' }],
  ]);
  return known.get(type) ?? {};
}

const NULLABLE = 'x-meridian-nullable';

/**
 * `@ValidateIf((_, v) => v !== null)` (not `@IsOptional()`, which also skips null but marks
 * fields that are merely optional) means the field accepts null: marked here, made a type union below.
 */
function nullableMarker(meta: {
  name?: string;
  propertyName: string;
  constraints?: unknown[];
}): Record<string, unknown> {
  const condition = meta.constraints?.[0];
  if (meta.name === 'isOptional' || typeof condition !== 'function') return {};
  try {
    return condition({ [meta.propertyName]: null }, null) === false ? { [NULLABLE]: true } : {};
  } catch {
    return {};
  }
}

/** OpenAPI 3.1 (JSON Schema) nullability: `type: [T, 'null']`, or `anyOf` with `{type: 'null'}`. */
function nullable(property: Record<string, any>): Record<string, any> {
  const { [NULLABLE]: _, ...schema } = property;
  const composite = ['$ref', 'oneOf', 'anyOf', 'allOf'].some((k) => k in schema);
  if (typeof schema.type === 'string' && !composite) return { ...schema, type: [schema.type, 'null'] };
  return { anyOf: [schema, { type: 'null' }] };
}

/** Tags, operation ids, security, the error schema and default error response. */
function finishDocument(document: Record<string, any>): Record<string, any> {
  document.components.schemas.Error = ERROR_SCHEMA;
  document.components.schemas.PageEnvelope = PAGE_ENVELOPE_SCHEMA;
  document.components.responses = {
    ...document.components.responses,
    Error: {
      description: 'An error: `{detail, error_code}` with the status the code maps to (docs/errors.md).',
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    },
  };
  const operationIds = new Map<string, number>();
  const paths: Record<string, any> = {};
  for (const [route, item] of Object.entries(document.paths as Record<string, any>)) {
    const tag = TAGS.find((t) => `${route}/`.startsWith(t.prefix))!;
    for (const method of HTTP_METHODS) {
      const op = item[method];
      if (!op) continue;
      op.tags = [tag.tag];
      const base = `${tag.id}_${String(op.operationId).replace(/\[\d+\]$/, '')}`;
      const n = (operationIds.get(base) ?? 0) + 1;
      operationIds.set(base, n);
      op.operationId = n === 1 ? base : `${base}_${n}`;
      op.parameters = withPathParameters(route, op.parameters ?? []);
      op.security ??= [];
      for (const [status, response] of Object.entries(op.responses ?? {}) as [string, any][]) {
        if (response && !response.$ref && !response.description)
          response.description = STATUS_TEXT[status] ?? 'Success';
      }
      op.responses = { ...op.responses, default: { $ref: '#/components/responses/Error' } };
    }
    // Plane's paths end with a slash, and its clients send it (the server accepts both)
    paths[route.startsWith('/api/') || route.startsWith('/auth/') ? `${route}/` : route] = item;
  }
  document.paths = paths;
  documentFormPosts(document);
  openAppBodies(document);
  return document;
}

/**
 * The web app's form posts (Plane's `/auth/[spaces/]…/` and `/api/instances/admins/…/` sign-in,
 * sign-up, magic codes, sign-out and password reset) are routed to the `…/web/…` handlers
 * (`routeFormPosts`, libs/common/src/auth/web-session.ts): each is documented at Plane's path too. Where
 * that path also answers JSON (the Bearer sign-in), its operation says so (and takes the form's media
 * type where both declare a body);
 * otherwise the `web/` operation is repeated there with its own operation id.
 */
function documentFormPosts(document: Record<string, any>): void {
  const paths = document.paths as Record<string, any>;
  for (const [route, item] of Object.entries(paths)) {
    const plane = route
      .replace(/^\/auth\/web\//, '/auth/')
      .replace(/^\/api\/instances\/admins\/web\//, '/api/instances/admins/');
    const form = item.post;
    if (plane === route || !form) continue;
    const note = `A form post (\`application/x-www-form-urlencoded\`, as Plane's web app sends) to \`${plane}\` is answered by \`${route}\`.`;
    form.description = [form.description, note].filter(Boolean).join('\n\n');
    const target = (paths[plane] ??= {});
    if (!target.post) {
      target.post = { ...form, operationId: `${form.operationId}_plane_path` };
      continue;
    }
    // the form's own fields, where its handler declares them and the JSON route takes a body too
    const media = form.requestBody?.content?.['application/x-www-form-urlencoded'];
    if (media && target.post.requestBody?.content)
      target.post.requestBody.content['application/x-www-form-urlencoded'] ??= media;
    target.post.description = [target.post.description, note].filter(Boolean).join('\n\n');
  }
}

/**
 * The App API drops unknown body fields (`ignoreUnknownFields`): a request-body schema used only by
 * App API operations (and the schemas nested in it) allows further properties. A schema that a
 * refusing API's operation also uses keeps `additionalProperties: false`, which the App API then
 * applies more strictly than it needs to.
 */
function openAppBodies(document: Record<string, any>): void {
  const schemas = document.components.schemas as Record<string, any>;
  const refsOf = (schema: unknown): string[] =>
    [...JSON.stringify(schema ?? {}).matchAll(/"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
  const closure = (roots: string[]): Set<string> => {
    const seen = new Set<string>();
    const pending = [...roots];
    while (pending.length) {
      const name = pending.pop()!;
      if (seen.has(name)) continue;
      seen.add(name);
      pending.push(...refsOf(schemas[name]));
    }
    return seen;
  };
  const app: string[] = [];
  const strict: string[] = [];
  for (const item of Object.values(document.paths as Record<string, any>)) {
    for (const method of HTTP_METHODS) {
      const op = item[method];
      const body = op?.requestBody?.content?.['application/json']?.schema;
      if (!body) continue;
      (op.tags?.[0] === APP_TAG ? app : strict).push(...refsOf(body));
    }
  }
  const refused = closure(strict);
  for (const name of closure(app)) {
    if (!refused.has(name) && schemas[name]?.additionalProperties === false) delete schemas[name].additionalProperties;
  }
}

const STATUS_TEXT: Record<string, string> = {
  '200': 'OK',
  '201': 'Created',
  '202': 'Accepted',
  '204': 'No Content',
  '302': 'Found (redirect)',
};

/**
 * Declares every `{name}` of the path template as a path parameter: guards read `{slug}` and
 * `{project_id}` themselves, so many handlers do not name them with `@Param`. `*_id` are UUIDs.
 */
function withPathParameters(route: string, parameters: any[]): any[] {
  const declared = new Set(parameters.filter((p) => p.in === 'path').map((p) => p.name as string));
  const missing = [...route.matchAll(/\{([^}]+)\}/g)]
    .map((m) => m[1])
    .filter((name) => !declared.has(name))
    .map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: name.endsWith('_id') ? { type: 'string', format: 'uuid' } : { type: 'string' },
    }));
  return [...missing, ...parameters];
}
