import type { FieldType } from './values';

/* eslint-disable @typescript-eslint/no-explicit-any -- OpenAPI objects are walked generically */

/** One field the fuzz test can make hostile. */
export interface FuzzField {
  where: 'path' | 'query' | 'body';
  /** path or query parameter name; for the body, the dotted path (`issue.name`, `emails.0.email`) */
  name: string;
  /** for body fields: the keys from the body's root */
  keys: (string | number)[];
  type: FieldType;
  /** for body fields: the field's schema (nested DTOs build their own valid value) */
  schema?: any;
}

export type Security = 'bearer' | 'api_key' | 'instance_admin' | 'none';

/** One operation of the served OpenAPI document. */
export interface FuzzOperation {
  /** `POST /api/v1/workspaces/{slug}/projects/`: the name a failure and `FUZZ_OP` use */
  key: string;
  method: string;
  template: string;
  security: Security;
  params: FuzzField[];
  query: FuzzField[];
  /** query parameters handlers read that the document does not declare (`HANDLER_QUERY`) */
  readQuery: FuzzField[];
  body: FuzzField[];
  /** the request body's schema, resolved; null when the document declares none */
  bodySchema: any;
}

const METHODS = ['get', 'put', 'post', 'patch', 'delete'];

/**
 * Query parameters the handlers read from the raw query object (`@Query() query`, `@Query('name')`,
 * `req.query`) beyond what the document declares, by the type they are read as. Each GET operation
 * (and each other operation in `QUERY_WRITES`) gets them in addition to its declared ones: a
 * handler that does not read a name ignores it, one that does must refuse a bad value with a 4xx.
 */
const HANDLER_QUERY: [name: string, type: FieldType['type']][] = [
  // libs/domain/src/kernel/fields.ts parseShape (work items, cycles, modules, comments, links, states, labels, projects)
  ['fields', 'string'],
  ['expand', 'string'],
  // order_by: app-api and external-v1 work-items, external-v1 planning (newestFirst), public boards;
  // group_by/sub_group_by: app-api work-items (list, grouped, archived)
  ['order_by', 'string'],
  ['group_by', 'string'],
  ['sub_group_by', 'string'],
  // app-api work-items listQuery, external-v1 work-items list, public boards: comma-separated filters
  ['state', 'uuid'],
  ['state_group', 'enum'],
  ['priority', 'enum'],
  ['assignees', 'uuid'],
  ['labels', 'uuid'],
  ['assignee', 'uuid'],
  ['label', 'uuid'],
  ['created_by', 'uuid'],
  ['cycle', 'uuid'],
  ['module', 'uuid'],
  ['start_date', 'date'],
  ['target_date', 'date'],
  ['sub_issue', 'boolean'],
  // app-api work-items: `issues=` (ids of the list)
  ['issues', 'uuid'],
  // external-v1 work-items: lookup by external id, search (project_id/project, limit, search)
  ['external_id', 'string'],
  ['external_source', 'string'],
  ['project', 'string'],
  ['limit', 'integer'],
  // app-api search.controller: global and issue search
  ['search', 'string'],
  ['project_id', 'uuid'],
  ['issue_id', 'uuid'],
  ['workspace_search', 'boolean'],
  ['parent', 'boolean'],
  ['issue_relation', 'boolean'],
  // app-api and external-v1 cycles lists
  ['cycle_view', 'enum'],
  // app-api notifications list
  ['type', 'enum'],
  ['read', 'boolean'],
  ['archived', 'boolean'],
  ['snoozed', 'boolean'],
  ['mentioned', 'boolean'],
  // @Query('name'): workspace and instance slug checks, project name check, invitation token, signed asset URLs
  ['slug', 'string'],
  ['name', 'string'],
  ['token', 'string'],
  ['expires', 'integer'],
  ['signature', 'string'],
  // libs/domain/src/auth/oauth.service.ts: the provider callbacks
  ['code', 'string'],
];

/** Operations other than GET whose handlers read query parameters. */
const QUERY_WRITES = [/^PUT .*\/upload\/?$/];

export function resolve(doc: any, schema: any): any {
  let s = schema;
  for (let i = 0; s?.$ref && i < 10; i++) s = doc.components.schemas[String(s.$ref).split('/').pop()!];
  return s ?? {};
}

const DATE_PATTERN = /\\d\{4\}-\\d\{2\}/;

/** The simplified type of a (resolved) schema. */
export function typeOf(schema: any): FieldType['type'] {
  if (!schema || Object.keys(schema).length === 0) return 'any';
  if (schema.enum) return 'enum';
  const branches: any[] = [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])];
  if (branches.length) {
    const flat = branches.flatMap((b) => [b, ...(b.oneOf ?? []), ...(b.anyOf ?? [])]);
    if (flat.some((b) => b.format === 'date' || b.format === 'date-time' || DATE_PATTERN.test(b.pattern ?? '')))
      return 'date';
    const first = flat.find((b) => b.type && b.type !== 'null');
    return first ? typeOf(first) : 'any';
  }
  const type = Array.isArray(schema.type) ? schema.type.find((x: string) => x !== 'null') : schema.type;
  if (type === 'string') {
    if (schema.format === 'uuid') return 'uuid';
    if (schema.format === 'date' || schema.format === 'date-time' || DATE_PATTERN.test(schema.pattern ?? ''))
      return 'date';
    if (schema.format === 'email') return 'email';
    if (schema.format === 'url' || schema.format === 'uri') return 'url';
    return 'string';
  }
  if (['integer', 'number', 'boolean', 'array', 'object'].includes(type)) return type;
  if (schema.properties) return 'object';
  return 'any';
}

/** Every operation of the document, its fields typed. `valid(field, schema)` gives a field a valid value. */
export function operationsOf(doc: any, valid: (name: string, schema: any) => unknown): FuzzOperation[] {
  const ops: FuzzOperation[] = [];
  for (const [template, item] of Object.entries<any>(doc.paths)) {
    for (const method of METHODS.filter((m) => item[m])) {
      const op = item[method];
      const scheme = op.security?.[0] ? Object.keys(op.security[0])[0] : 'none';
      const param = (x: any): FuzzField => {
        const schema = resolve(doc, x.schema);
        return { where: x.in, name: x.name, keys: [], type: { type: typeOf(schema) }, schema };
      };
      const params = (op.parameters ?? []).filter((x: any) => x.in === 'path').map(param);
      const query = (op.parameters ?? []).filter((x: any) => x.in === 'query').map(param);
      const ref = op.requestBody?.content?.['application/json']?.schema;
      const bodySchema = ref ? resolve(doc, ref) : null;
      const body: FuzzField[] = [];
      const walk = (schema: any, keys: (string | number)[], depth: number) => {
        for (const [name, raw] of Object.entries<any>(schema.properties ?? {})) {
          const s = resolve(doc, raw);
          const type = typeOf(s);
          const path = [...keys, name];
          const itemSchema = type === 'array' ? resolve(doc, s.items) : undefined;
          body.push({
            where: 'body',
            name: path.join('.'),
            keys: path,
            type: { type, valid: itemSchema ? valid(name, itemSchema) : undefined },
            schema: s,
          });
          if (depth < 2 && s.properties) walk(s, path, depth + 1);
          if (depth < 2 && itemSchema?.properties) walk(itemSchema, [...path, 0], depth + 1);
        }
      };
      if (bodySchema) walk(bodySchema, [], 0);
      const key = `${method.toUpperCase()} ${template}`;
      const readsQuery = method === 'get' || QUERY_WRITES.some((r) => r.test(key));
      const readQuery = readsQuery
        ? HANDLER_QUERY.filter(([name]) => !query.some((q: FuzzField) => q.name === name)).map(
            ([name, type]): FuzzField => ({ where: 'query', name, keys: [], type: { type } }),
          )
        : [];
      ops.push({
        key,
        method: method.toUpperCase(),
        template,
        security: scheme as Security,
        params,
        query,
        readQuery,
        body,
        bodySchema,
      });
    }
  }
  return ops;
}

/**
 * A valid body for a schema: its required fields (those with a type: `{}` ones are read-only fields
 * Plane ignores), each with a valid value; nested DTOs likewise.
 */
export function validBody(
  doc: any,
  schema: any,
  valid: (name: string, schema: any) => unknown,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const name of schema?.required ?? []) {
    const s = resolve(doc, schema.properties?.[name]);
    if (Object.keys(s).length === 0) continue;
    out[name] = valid(name, s);
  }
  return out;
}
