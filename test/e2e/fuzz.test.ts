import fc from 'fast-check';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { allIds, createFuzzFixtures, FuzzFixtures, idForField } from '../support/fuzz/fixtures';
import { FuzzOperation, operationsOf, resolve, typeOf, validBody } from '../support/fuzz/operations';
import {
  buildRequest,
  casesFor,
  CLEAN_CASE,
  describeCase,
  describeRequest,
  problemOf,
  send,
} from '../support/fuzz/request';
import { startTestApp, TestApp } from '../support/test-app';

/* eslint-disable @typescript-eslint/no-explicit-any -- the OpenAPI document is walked generically */

/**
 * Generated fuzz test: every operation of the served OpenAPI document (GET /api/openapi.json, so a
 * new route is covered without an edit here) gets hostile values, by field type, in its path and
 * query parameters (those declared, and on reads those the handlers read from the raw query:
 * `HANDLER_QUERY` in `test/support/fuzz/operations.ts`), in each body field, in the whole body and
 * in its credential (values:
 * `test/support/fuzz/values.ts`). An operation fails on a 5xx, on an error answer that is not
 * `{detail, error_code}`, and on a request without an answer within FUZZ_TIMEOUT_MS.
 *
 * Environment:
 *   FUZZ_RUNS        cases per operation (default 8)
 *   FUZZ_SEED        base seed (default: random, printed; under CI=true a fixed seed, so a red CI run is
 *                    always this change's and replays as is); each operation's seed is derived from it and its key
 *   FUZZ_OP          only the operation with this key (`POST /api/v1/workspaces/{slug}/projects/`), else those whose key contains it
 *   FUZZ_TIMEOUT_MS  per request (default 10000)
 *   FUZZ_KEEP_GOING  1: run every case of an operation and list all its failures, not only the first
 *   FUZZ_SHRINK      1: let fast-check shrink a failure (slower; the default stops at the first)
 *   FUZZ_VERBOSE     1: print every request and its status
 * Server logs (the stack of a 500): TEST_LOG_LEVEL=error.
 */

const RUNS = Number(process.env.FUZZ_RUNS ?? 8);
/** The base seed under CI: a fixed one, so CI's verdict depends on the change alone. */
const CI_SEED = 20261125;
const SEED = process.env.FUZZ_SEED
  ? Number(process.env.FUZZ_SEED)
  : process.env.CI
    ? CI_SEED
    : Math.floor(Math.random() * 2 ** 31);
const ONLY = process.env.FUZZ_OP;
const TIMEOUT_MS = Number(process.env.FUZZ_TIMEOUT_MS ?? 10_000);
const KEEP_GOING = process.env.FUZZ_KEEP_GOING === '1';
const SHRINK = process.env.FUZZ_SHRINK === '1';
const VERBOSE = process.env.FUZZ_VERBOSE === '1';

/** Limits high enough that a run of every operation is never throttled. */
const UNTHROTTLED = {
  API_KEY_RATE_LIMIT: '1000000/minute',
  AUTH_RATE_LIMIT: '1000000/minute',
  AUTH_FAILED_SIGN_IN_LIMIT: '1000000/minute',
  AUTH_FAILED_SIGN_IN_EMAIL_LIMIT: '1000000/minute',
  AUTH_SIGN_UP_RATE_LIMIT: '1000000/minute',
  FAILED_AUTH_RATE_LIMIT: '1000000/minute',
  AUTH_EMAIL_RATE_LIMIT: '1000000/minute',
  PUBLIC_RATE_LIMIT: '1000000/minute',
};

/**
 * Operations that would take away what later ones need run last, in this order: the project, the
 * caller's memberships, the workspace, the sessions. Deletions and archivings (phase 1) run after
 * everything else, deepest path first, so a comment goes before its work item.
 */
const LAST: RegExp[] = [
  /^POST \/api\/(v1\/)?workspaces\/\{slug\}\/projects\/\{project_id\}\/archive\/$/,
  /^DELETE \/api\/(v1\/)?workspaces\/\{slug\}\/projects\/\{project_id\}\/$/,
  /\/members\/leave\/$/,
  /^DELETE \/api\/workspaces\/\{slug\}\/$/,
  /^POST \/auth\/sign-out\/$/,
  /^POST \/api\/instances\/admins\/sign-out\/$/,
];
const phase = (op: FuzzOperation) => {
  const last = LAST.findIndex((r) => r.test(op.key));
  if (last >= 0) return 2 + last;
  return op.method === 'DELETE' || /\/(bulk-)?archive(-issues)?\/$/.test(op.template) ? 1 : 0;
};
const depth = (op: FuzzOperation) => op.template.split('/').length;

/** 32-bit FNV-1a: each operation's seed is the base seed mixed with its key. */
const hash = (s: string) => {
  let x = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) x = Math.imul(x ^ s.charCodeAt(i), 0x01000193);
  return x;
};

describe('Generated fuzz test: hostile values to every operation of the OpenAPI document', () => {
  let t: TestApp;
  let doc: any;
  let fx: FuzzFixtures;
  let uploads: string;

  before(async () => {
    uploads = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-fuzz-uploads-'));
    t = await startTestApp({
      ...UNTHROTTLED,
      WEBHOOK_WORKER: 'false',
      WEBHOOK_ALLOWED_HOSTS: '127.0.0.1',
      UPLOADS_DIR: uploads,
    });
    const res = await t.api.get('/api/openapi.json');
    assert.equal(res.status, 200);
    doc = JSON.parse(res.text);
    fx = await createFuzzFixtures(t);
  });
  after(async () => {
    await t?.close();
    fs.rmSync(uploads, { recursive: true, force: true });
  });

  it('answers every hostile request with a 2xx/3xx or a JSON {detail, error_code} 4xx, in time', async (ctx) => {
    console.log(`fuzz: FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS}${ONLY ? ` FUZZ_OP='${ONLY}'` : ''}`);
    const reproduce = (op: FuzzOperation) =>
      `FUZZ_SEED=${SEED} FUZZ_RUNS=${RUNS} node --test dist/test/e2e/fuzz.test.js (the whole file, for the same data; FUZZ_OP='${op.key}' replays only this operation's cases)`;
    if (fx.missing.length)
      console.log(`fuzz: fixtures not made (their parameters get random ids):\n  ${fx.missing.join('\n  ')}`);

    /** a valid value for a body field, by its name and schema (real ids where the name says which) */
    const valid = (name: string, schema: any): unknown => {
      switch (typeOf(schema)) {
        case 'enum':
          return schema.enum[0];
        case 'uuid':
          return idForField(fx, name) ?? randomUUID();
        case 'date':
          return '2026-06-01';
        case 'email':
          return 'fuzz-valid@example.com';
        case 'url':
          return 'https://example.com/fuzz';
        case 'integer':
        case 'number':
          return schema.minimum ?? 1;
        case 'boolean':
          return true;
        case 'array': {
          const item = resolve(doc, schema.items);
          const id = typeOf(item) === 'uuid' ? idForField(fx, name) : undefined;
          return id ? [id] : schema.minItems ? [valid(name, item)] : [];
        }
        case 'object':
          return schema.properties ? validBody(doc, schema, valid) : {};
        case 'string': {
          const known: Record<string, string> = {
            identifier: 'FZ',
            slug: 'fuzz-slug',
            password: 'correct horse 1',
            new_password: 'correct horse 2',
            reaction: '128077',
            color: '#123456',
          };
          return known[name] ?? 'fuzz';
        }
        default:
          return undefined;
      }
    };

    const all = operationsOf(doc, valid);
    const reads = new Map(all.filter((op) => op.method === 'GET').map((op) => [op.template, op]));
    const ops = all
      .filter((op) => !ONLY || (all.some((o) => o.key === ONLY) ? op.key === ONLY : op.key.includes(ONLY)))
      .map((op, i) => ({ op, i }))
      .sort((a, b) => phase(a.op) - phase(b.op) || (phase(a.op) === 1 ? depth(b.op) - depth(a.op) : 0) || a.i - b.i)
      .map(({ op }) => op);
    assert.ok(ops.length > 0, `no operation matches FUZZ_OP=${ONLY}`);
    const ids = allIds(fx);
    const started = Date.now();
    let requests = 0;
    const statuses = new Map<number, number>();
    /** operations whose requests with real ids and credential never got past 401/403/404: their fixtures are wrong */
    const unreached: string[] = [];
    /** reads already found broken by an earlier operation's writes: not blamed on the next ones */
    const broken = new Set<string>();

    for (const op of ops) {
      await ctx.test(op.key, async () => {
        const base = op.bodySchema ? validBody(doc, op.bodySchema, valid) : null;
        const seed = (SEED ^ hash(op.key)) | 0;
        const failures = new Map<string, string>();
        let reached = false;
        let realPathRuns = 0;
        // DRF's coercions (Plane's serializers): each top-level integer, number or boolean field of a
        // write, given as the string Django REST framework takes ("1", " 1 ", "true"), is not refused
        // for its type where the same body with the JSON value is not
        if (base && phase(op) === 0) {
          for (const f of op.body) {
            const text = drfString(f);
            if (f.keys.length !== 1 || text === undefined) continue;
            const answers = [];
            for (const value of [text, valid(f.name, f.schema)]) {
              const req = buildRequest(op, CLEAN_CASE, fx, { ...base, [f.name]: value });
              const answer = await send(t.url, req, TIMEOUT_MS);
              requests++;
              statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
              await restoreFixtures(op, answer.status);
              const problem = problemOf(answer);
              if (problem)
                failures.set(`drf ${f.name} ${problem}`, `${op.key}: ${f.name} = ${JSON.stringify(value)}: ${problem}`);
              answers.push(answer);
            }
            const [asText, asJson] = answers.map((a) => refusedField(a, f.name));
            if (asText && !asJson)
              failures.set(
                `drf ${f.name}`,
                `${op.key}: ${f.name} = ${JSON.stringify(text)} refused (${answers[0].text.slice(0, 200)}), though DRF coerces it`,
              );
          }
        }
        const property = fc.asyncProperty(casesFor(op, ids), async (c) => {
          const req = buildRequest(op, c, fx, base);
          const answer = await send(t.url, req, TIMEOUT_MS);
          requests++;
          if (VERBOSE)
            console.log(
              `fuzz: ${answer.status || answer.error} ${describeCase(c)}: ${describeRequest(req).slice(0, 200)}`,
            );
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
          // undeclared query parameters are left out: signed URLs, tokens and OAuth callbacks read theirs and refuse any other value
          if (
            c.target !== 'path' &&
            c.target !== 'credential' &&
            !(c.target === 'query' && op.readQuery.some((f) => f.name === c.field))
          ) {
            realPathRuns++;
            if (![401, 403, 404].includes(answer.status)) reached = true;
          }
          await restoreFixtures(op, answer.status);
          const problem = problemOf(answer);
          if (!problem) return;
          const kinds = c.values.map(([, v]) => v.kind).join('+');
          const message = [
            `${op.key}: ${problem}`,
            `  case: ${describeCase(c)}`,
            `  request: ${describeRequest(req)}`,
            `  answer: ${answer.text.slice(0, 300)}`,
            `  reproduce: ${reproduce(op)}`,
          ].join('\n');
          if (!KEEP_GOING) throw new Error(message);
          const key = `${problem.replace(/\d{3,}/g, 'N')} | ${c.target} ${c.field} = ${kinds}`;
          if (!failures.has(key)) failures.set(key, message);
        });
        await fc.assert(property, { seed, numRuns: RUNS, endOnFailure: !SHRINK });
        if (realPathRuns && !reached && phase(op) === 0) unreached.push(op.key);
        // what the hostile writes stored must not break reading it back: the same path and its collection
        if (op.method !== 'GET') {
          const parent = op.template.replace(/\{\w+\}\/$/, '');
          for (const read of new Set([reads.get(op.template), reads.get(parent)])) {
            if (!read || broken.has(read.key)) continue;
            const req = buildRequest(read, CLEAN_CASE, fx, null);
            const answer = await send(t.url, req, TIMEOUT_MS);
            requests++;
            const problem = problemOf(answer);
            if (!problem) continue;
            broken.add(read.key);
            const message = [
              `${op.key}: after its hostile requests, ${read.key} with real ids: ${problem}`,
              `  request: ${describeRequest(req)}`,
              `  answer: ${answer.text.slice(0, 300)}`,
              `  reproduce: ${reproduce(op)}`,
            ].join('\n');
            if (!KEEP_GOING) assert.fail(message);
            failures.set(`read-back ${read.key} ${problem}`, message);
          }
        }
        if (failures.size) assert.fail(`${failures.size} distinct failure(s):\n${[...failures.values()].join('\n')}`);
      });
    }
    console.log(
      `fuzz: ${ops.length} operations, ${requests} requests in ${((Date.now() - started) / 1000).toFixed(1)} s`,
    );
    console.log(
      `fuzz: statuses ${[...statuses]
        .sort(([a], [b]) => a - b)
        .map(([s, n]) => `${s}×${n}`)
        .join(' ')}`,
    );
    if (unreached.length)
      console.log(`fuzz: never past 401/403/404 with real ids (check the fixtures):\n  ${unreached.join('\n  ')}`);
    // the server is still up and answering
    assert.equal((await fetch(`${t.url}/health`)).status, 200);
  });

  /**
   * The string Django REST framework coerces to a valid value of a number or boolean field
   * (`" 1 "` for an integer, `"true"` for a boolean, `"20"` for a role), or undefined for other fields.
   */
  function drfString(f: { type: { type: string }; schema?: any }): string | undefined {
    switch (f.type.type) {
      case 'boolean':
        return 'true';
      case 'integer':
      case 'number':
        return ` ${f.schema?.minimum ?? 1} `;
      case 'enum':
        return typeof f.schema?.enum?.[0] === 'number' ? String(f.schema.enum[0]) : undefined;
      default:
        return undefined;
    }
  }

  /** Whether an answer is a 422 naming the field in its `errors`. */
  function refusedField(answer: { status: number; text: string }, field: string): boolean {
    if (answer.status !== 422) return false;
    try {
      return Object.prototype.hasOwnProperty.call(JSON.parse(answer.text).errors ?? {}, field);
    } catch {
      return false;
    }
  }

  /**
   * Puts back what a successful hostile-but-valid change would take from the operations after it:
   * the workspace slug and the project identifier and features.
   */
  async function restoreFixtures(op: FuzzOperation, status: number) {
    if (status < 200 || status >= 300 || op.method !== 'PATCH') return;
    if (op.template === '/api/workspaces/{slug}/') {
      await t.sql('UPDATE workspaces SET slug = $1 WHERE id = $2 AND slug <> $1', [fx.slug, fx.workspaceId]);
    }
    if (/^\/api\/(v1\/)?workspaces\/\{slug\}\/projects\/\{project_id\}\/$/.test(op.template)) {
      const res = await t.api
        .patch(`/api/workspaces/${fx.slug}/projects/${fx.projectId}/`)
        .auth(fx.ada.token, { type: 'bearer' })
        .send({
          identifier: fx.ids.key.split('-')[0],
          intake_view: true,
          module_view: true,
          cycle_view: true,
          archive_in: 0,
          close_in: 0,
        });
      assert.equal(res.status, 200, `restoring the project: ${res.text}`);
    }
  }
});
