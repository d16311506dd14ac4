import fc from 'fast-check';
import type { FuzzFixtures } from './fixtures';
import { pathParamValue } from './fixtures';
import type { FuzzField, FuzzOperation } from './operations';
import {
  CREDENTIAL_VALUES,
  encodeComponent,
  Hostile,
  hostileFor,
  PATH_RAW_SEGMENTS,
  QUERY_GRAMMAR_VALUES,
  toJson,
  urlText,
  WHOLE_BODY_VALUES,
} from './values';

/** One generated case: where the hostile value goes and what it is. */
export interface FuzzCase {
  target: 'path' | 'query' | 'body' | 'whole-body' | 'mix' | 'credential';
  /** the field (for `mix`, the fields joined with `+`) */
  field: string;
  values: [FuzzField | null, Hostile][];
  /** body fields: start from a valid body (true) or from `{}` */
  base: boolean;
  /** query: `a=x`, `a=x&a=1` or `a[k]=x` */
  form: 'plain' | 'repeated' | 'bracket';
}

/** `body issue.name = string:NUL`: how fast-check prints a counterexample. */
export function describeCase(c: FuzzCase): string {
  const kinds = c.values.map(([, v]) => v.kind).join('+');
  const how =
    c.target === 'query'
      ? ` (${c.form})`
      : c.target === 'body' || c.target === 'mix'
        ? c.base
          ? ' (in a valid body)'
          : ' (alone)'
        : '';
  return `${c.target} ${c.field} = ${kinds}${how}`;
}

const printable = (c: FuzzCase): FuzzCase => Object.assign(c, { [fc.toStringMethod]: () => describeCase(c) });

/** No hostile value: real ids, credential and a valid body (the read-back after an operation's writes). */
export const CLEAN_CASE: FuzzCase = { target: 'body', field: '', values: [], base: true, form: 'plain' };

/** The longest percent-encoded value put in a URL (Node refuses request heads over 16 KiB with 431 before the app sees them). */
const URL_VALUE_LIMIT = 12_000;
const fitsUrl = (v: Hostile) =>
  (v.kind.startsWith('path:') ? urlText(v.value) : encodeComponent(urlText(v.value))).length <= URL_VALUE_LIMIT;

/** The arbitrary of cases for one operation; `foreignIds` are real ids of every kind. */
export function casesFor(op: FuzzOperation, foreignIds: string[]): fc.Arbitrary<FuzzCase> {
  const mk = (
    target: FuzzCase['target'],
    field: FuzzField | null,
    value: Hostile,
    base = true,
    form: FuzzCase['form'] = 'plain',
  ): FuzzCase => printable({ target, field: field?.name ?? target, values: [[field, value]], base, form });
  const typed = (f: FuzzField) => hostileFor(f.type.type === 'uuid' ? { ...f.type, foreignIds } : f.type);
  /** undeclared query parameters: also values in their own grammar, real ids among junk in a list */
  const grammar = fc.oneof(
    fc.constantFrom(...QUERY_GRAMMAR_VALUES),
    ...(foreignIds.length
      ? [
          fc
            .constantFrom(...foreignIds)
            .map((id) => new Hostile('query:real-id-and-junk', `${id},${id.toUpperCase()}, x`)),
        ]
      : []),
  );
  const queryValue = (f: FuzzField) =>
    op.readQuery.includes(f)
      ? fc.oneof({ arbitrary: typed(f), weight: 2 }, { arbitrary: grammar, weight: 1 })
      : typed(f);
  const options: fc.WeightedArbitrary<FuzzCase>[] = [];
  const hasBody = op.method !== 'GET';
  // typed fields first: `{}` ones are read-only fields the API ignores (still fuzzed, less often);
  // mostly inside a valid body, so a create is not refused for its missing required fields alone
  const typedFields = op.body.filter((f) => f.type.type !== 'any');
  const ignored = op.body.filter((f) => f.type.type === 'any');
  const inValidBody = fc.oneof(
    { arbitrary: fc.constant(true), weight: 3 },
    { arbitrary: fc.constant(false), weight: 1 },
  );
  if (op.body.length) {
    const field = fc.oneof(
      ...(typedFields.length ? [{ arbitrary: fc.constantFrom(...typedFields), weight: 4 }] : []),
      ...(ignored.length ? [{ arbitrary: fc.constantFrom(...ignored), weight: 1 }] : []),
    );
    options.push({
      weight: 12,
      arbitrary: field.chain((f) => fc.tuple(typed(f), inValidBody).map(([v, base]) => mk('body', f, v, base))),
    });
  }
  if (op.params.length) {
    options.push({
      weight: 6,
      arbitrary: fc.constantFrom(...op.params).chain((f) =>
        fc
          .oneof({ arbitrary: typed(f), weight: 3 }, { arbitrary: fc.constantFrom(...PATH_RAW_SEGMENTS), weight: 1 })
          .filter(fitsUrl)
          .map((v) => mk('path', f, v)),
      ),
    });
  }
  if (op.query.length || op.readQuery.length) {
    // one choice among the declared parameters and those the handlers read (not one case per name)
    const name = fc.oneof(
      ...(op.query.length ? [{ arbitrary: fc.constantFrom(...op.query), weight: 1 }] : []),
      ...(op.readQuery.length ? [{ arbitrary: fc.constantFrom(...op.readQuery), weight: 2 }] : []),
    );
    options.push({
      weight: 4,
      arbitrary: name.chain((f) =>
        fc
          .tuple(queryValue(f).filter(fitsUrl), fc.constantFrom<FuzzCase['form']>('plain', 'repeated', 'bracket'))
          .map(([v, form]) => mk('query', f, v, true, form)),
      ),
    });
  }
  if (hasBody)
    options.push({ weight: 4, arbitrary: fc.constantFrom(...WHOLE_BODY_VALUES).map((v) => mk('whole-body', null, v)) });
  if (op.body.length >= 2) {
    options.push({
      weight: 3,
      arbitrary: fc
        .uniqueArray(fc.constantFrom(...op.body), { minLength: 2, maxLength: 4, selector: (f) => f.name })
        .chain((fields) => fc.tuple(...fields.map((f) => typed(f).map((v): [FuzzField, Hostile] => [f, v]))))
        .chain((values) =>
          inValidBody.map((base) =>
            printable({ target: 'mix', field: values.map(([f]) => f!.name).join('+'), values, base, form: 'plain' }),
          ),
        ),
    });
  }
  if (op.security !== 'none')
    options.push({ weight: 1, arbitrary: fc.constantFrom(...CREDENTIAL_VALUES).map((v) => mk('credential', null, v)) });
  if (!options.length)
    options.push({ weight: 1, arbitrary: fc.constantFrom(...CREDENTIAL_VALUES).map((v) => mk('credential', null, v)) });
  return fc.oneof(...options);
}

export interface BuiltRequest {
  method: string;
  /** path and query */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

let serial = 0;
/**
 * A copy of a valid body whose names, identifiers, slugs and emails are new for this request, so a
 * create is not stopped by a unique name taken by the previous case (and the hostile value is stored).
 */
function fresh(body: unknown): unknown {
  const n = ++serial;
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    if (v === 'fuzz') return `fuzz ${n}`;
    if (v === 'FZ') return `FZ${n}`;
    if (v === 'fuzz-slug') return `fuzz-slug-${n}`;
    if (v === 'fuzz-valid@example.com') return `fuzz-valid-${n}@example.com`;
    return v;
  };
  return walk(body);
}

function setAt(root: Record<string, unknown>, keys: (string | number)[], value: unknown) {
  let node: Record<string | number, unknown> = root;
  for (let i = 0; i < keys.length - 1; i++) {
    const next = node[keys[i]];
    if (next === null || typeof next !== 'object') node[keys[i]] = typeof keys[i + 1] === 'number' ? [] : {};
    node = node[keys[i]] as Record<string | number, unknown>;
  }
  node[keys[keys.length - 1]] = value;
}

/** The HTTP request of a case: real ids and credentials everywhere but where the case puts its value. */
export function buildRequest(
  op: FuzzOperation,
  c: FuzzCase,
  fx: FuzzFixtures,
  validBody: Record<string, unknown> | null,
): BuiltRequest {
  const hostile = new Map(c.values.map(([f, v]) => [f?.name, v]));
  const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const v = c.target === 'path' ? hostile.get(name) : undefined;
    if (!v) return encodeURIComponent(pathParamValue(fx, op.template, name));
    return v.kind.startsWith('path:') ? urlText(v.value) : encodeComponent(urlText(v.value));
  });
  let query = '';
  if (c.target === 'query') {
    const [[f, v]] = c.values;
    const value = encodeComponent(urlText(v.value));
    query =
      c.form === 'plain'
        ? `${f!.name}=${value}`
        : c.form === 'repeated'
          ? `${f!.name}=${value}&${f!.name}=1`
          : `${f!.name}[k]=${value}`;
  }
  const headers: Record<string, string> = {};
  const credential = c.target === 'credential' ? String(c.values[0][1].value) : undefined;
  if (op.security === 'api_key') headers['X-API-Key'] = credential ?? fx.apiKey;
  if (op.security === 'bearer')
    headers.Authorization = `Bearer ${credential ?? (op.key === 'POST /auth/sign-out/' ? fx.signOutToken : fx.ada.token)}`;
  if (op.security === 'instance_admin')
    headers.Authorization = `Bearer ${credential ?? (op.key === 'POST /api/instances/admins/sign-out/' ? fx.adminSignOutToken : fx.adminToken)}`;
  if (op.security === 'none' && credential !== undefined) headers.Authorization = `Bearer ${credential}`;

  let body: string | Buffer | undefined;
  if (op.method !== 'GET') {
    if (c.target === 'whole-body') {
      const v = c.values[0][1].value;
      body = Buffer.isBuffer(v) ? v : toJson(v);
    } else if (c.target === 'body' || c.target === 'mix') {
      const root: Record<string, unknown> = c.base && validBody ? (fresh(validBody) as Record<string, unknown>) : {};
      for (const [f, v] of c.values) setAt(root, f!.keys, v.value);
      body = toJson(root);
    } else if (validBody) {
      body = toJson(fresh(validBody));
    }
  }
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  return { method: op.method, url: query ? `${path}?${query}` : path, headers, body };
}

export interface Answer {
  status: number;
  text: string;
  /** set when no answer came: `timeout after N ms` or the network error */
  error?: string;
}

export async function send(base: string, req: BuiltRequest, timeoutMs: number): Promise<Answer> {
  try {
    const res = await fetch(base + req.url, {
      method: req.method,
      headers: req.headers,
      body: req.body,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { status: res.status, text: await res.text() };
  } catch (err) {
    const e = err as Error & { cause?: Error };
    if (e.name === 'TimeoutError' || e.name === 'AbortError')
      return { status: 0, text: '', error: `no answer within ${timeoutMs} ms` };
    return { status: 0, text: '', error: `${e.message}${e.cause ? `: ${e.cause.message}` : ''}` };
  }
}

/** What is wrong with an answer, or null: 5xx, a hang, a dropped connection, or a 4xx that is not `{detail, error_code}`. */
export function problemOf(answer: Answer): string | null {
  if (answer.error) return answer.error;
  if (answer.status >= 500) return `status ${answer.status}`;
  if (answer.status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(answer.text);
    } catch {
      return `status ${answer.status} with a body that is not JSON`;
    }
    const b = body as { detail?: unknown; error_code?: unknown } | null;
    if (!b || typeof b !== 'object' || typeof b.detail !== 'string' || typeof b.error_code !== 'string') {
      return `status ${answer.status} without {detail, error_code} strings`;
    }
  }
  return null;
}

/** A short, printable account of a request (bodies cut to 300 characters). */
export function describeRequest(req: BuiltRequest): string {
  const url = req.url.length > 300 ? `${req.url.slice(0, 300)}… (${req.url.length} chars)` : req.url;
  let body = '';
  if (Buffer.isBuffer(req.body)) body = ` body(bytes): ${req.body.toString('hex').slice(0, 120)}`;
  else if (req.body !== undefined) body = ` body(${req.body.length} chars): ${JSON.stringify(req.body.slice(0, 300))}`;
  return `${req.method} ${url}${body}`;
}
