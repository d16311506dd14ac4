/**
 * The bare baseline: `node:http` + `pg`, no framework, running the same SQL texts as Meridian's hot
 * paths (the import-free `*.sql.ts` files of the issue, api-token, workspace and project rooms in
 * `libs/domain/src/`, and `libs/common/src/pagination/keyset-sql.ts`) and
 * writing the same JSON bytes for three routes of the External API v1:
 *
 *   GET  /api/v1/workspaces/{slug}/projects/{project_id}/work-items/?per_page=&cursor=
 *   GET  /api/v1/workspaces/{slug}/projects/{project_id}/work-items/{id}/
 *   POST /api/v1/workspaces/{slug}/projects/{project_id}/work-items/   {"name": "…"}
 *
 * and one route of the App API (the web app's list and board), as its App values:
 *
 *   GET  /api/workspaces/{slug}/projects/{project_id}/issues/?per_page=&cursor=<per_page>:<page>:0[&group_by=state_id][&order_by=]
 *
 * Authentication is the API key (`X-API-Key`) on v1 and the Bearer access token on the App API,
 * then workspace and project access, as in Meridian.
 * Anything else (errors, filters, expand) is out of scope: a benchmark baseline, not a server.
 *
 *   BARE_DATABASE_URL=postgres://… BARE_POOL_SIZE=32 node dist/bench/bare-server.js
 *   → prints "bare: listening on http://127.0.0.1:PORT"
 */
import { createHash } from 'node:crypto';
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'pg';
// the same SQL texts as Meridian (the repositories' modules load Nest's decorators and TypeORM, but no
// request of the bare server goes through them)
/* eslint-disable no-restricted-imports */
import { paginateSql } from '../libs/common/src/pagination/keyset-sql';
import { parseCursor } from '../libs/common/src/pagination/cursor';
import { pageNumberCursors } from '../libs/common/src/pagination/page';
import { SQL_VERIFY_API_KEY } from '../libs/domain/src/api-token/api-token.sql';
import { SQL_LIVE_ACCESS_TOKEN } from '../libs/domain/src/auth/auth.sql';
import { ISSUE_ORDER_KEYS } from '../libs/domain/src/issue/issue-filters';
import { SQL_WORKSPACE_ACCESS } from '../libs/domain/src/workspace/workspace.sql';
import { SQL_PROJECT_ACCESS } from '../libs/domain/src/project/project.sql';
import {
  ISSUE_COLUMNS,
  ISSUE_LIST_COLUMNS,
  SQL_APP_VALUES,
  SQL_STATE_GROUP_KEYS,
  SQL_CREATE_ISSUE_PLAIN,
  SQL_CREATE_ISSUE_PLAIN_NO_STATE,
  SQL_DEFAULT_STATE,
  SQL_ISSUE_SETS,
  SQL_NEXT_SEQUENCE,
  SQL_PROJECT_FOR_CREATE,
  SQL_PROJECT_VISIBLE_COUNT,
  SQL_VISIBLE_ISSUE,
  SQL_VISIBLE_ISSUES_OF_PROJECT,
} from '../libs/domain/src/issue/issue.sql';
/* eslint-enable no-restricted-imports */
import { iso, view } from './work-item-view';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const pool = new Pool({
  connectionString: process.env.BARE_DATABASE_URL,
  max: Number(process.env.BARE_POOL_SIZE ?? 32),
});
const names = new Map<string, string>();
function named(text: string): string {
  let n = names.get(text);
  if (!n) names.set(text, (n = `h${createHash('sha1').update(text).digest('hex').slice(0, 16)}`));
  return n;
}
const q = async (text: string, values: unknown[], client: { query: Pool['query'] } = pool): Promise<Row[]> =>
  (await client.query({ name: named(text), text, values })).rows;

function send(res: ServerResponse, status: number, body: unknown) {
  const json = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(json),
  });
  res.end(json);
}

async function access(req: IncomingMessage, slug: string, projectId: string) {
  const key = req.headers['x-api-key'];
  if (typeof key !== 'string') return null;
  const [token] = await q(SQL_VERIFY_API_KEY, [createHash('sha256').update(key).digest('hex')]);
  if (!token) return null;
  if (!token.last_used || Date.now() - new Date(token.last_used).getTime() > 60_000) {
    await q('UPDATE api_tokens SET last_used = now() WHERE id = $1', [token.id]);
  }
  const [ws] = await q(SQL_WORKSPACE_ACCESS, [token.user_id, slug]);
  if (!ws || ws.workspace_id !== token.workspace_id || ws.role === null) return null;
  const [project] = await q(SQL_PROJECT_ACCESS, [token.user_id, projectId, ws.workspace_id]);
  if (!project || project.role === null) return null;
  return { userId: token.user_id as string, workspaceId: ws.workspace_id as string, projectId };
}

async function list(projectId: string, url: URL) {
  const perPage = Number(url.searchParams.get('per_page') ?? 1000);
  const raw = url.searchParams.get('cursor');
  const page = await paginateSql(
    {
      select: ISSUE_COLUMNS,
      from: SQL_VISIBLE_ISSUES_OF_PROJECT,
      params: [projectId],
      key: 'i.created_at',
      id: 'i.id',
      order: 'DESC',
      total: { sql: SQL_PROJECT_VISIBLE_COUNT, params: [projectId] },
    },
    { perPage, cursor: raw ? parseCursor(raw) : undefined },
    (text, values) => q(text, values),
    (r) => r,
  );
  const ids = page.results.map((r) => r.id as string);
  const sets = ids.length ? await q(SQL_ISSUE_SETS, [ids]) : [];
  const a = new Map<string, string[]>();
  const l = new Map<string, string[]>();
  for (const s of sets) {
    const m = s.k === 'a' ? a : l;
    m.set(s.issue_id, [...(m.get(s.issue_id) ?? []), s.v]);
  }
  for (const v of [...a.values(), ...l.values()]) v.sort();
  const total = page.totalCount;
  return {
    grouped_by: null,
    sub_grouped_by: null,
    total_count: total,
    next_cursor: page.nextCursor,
    prev_cursor: page.prevCursor,
    next_page_results: page.nextCursor !== null,
    prev_page_results: page.prevCursor !== null,
    count: page.results.length,
    total_pages: Math.ceil(total / perPage),
    total_results: total,
    extra_stats: null,
    results: page.results.map((r: Row) => view(r, a.get(r.id) ?? [], l.get(r.id) ?? [])),
  };
}

async function create(ctx: { userId: string; workspaceId: string; projectId: string }, body: { name: string }) {
  // The reads first, outside a transaction, as Meridian does them.
  const [project] = await q(SQL_PROJECT_FOR_CREATE, [ctx.projectId]);
  if (!project || project.archived_at) throw new Error('project not writable');
  const [state] = await q(SQL_DEFAULT_STATE, [ctx.projectId]);
  // Then the create's own transaction, written at once in pg's pipeline mode as Meridian writes a
  // batch: BEGIN, the counter upsert, the create statement (Meridian's without its assignee, label
  // and subscriber parts, which the bare server never writes) and COMMIT. Each create commits on
  // its own: the bare server has no group commit (Meridian's IssueCreateBatcher).
  const text = state ? SQL_CREATE_ISSUE_PLAIN : SQL_CREATE_ISSUE_PLAIN_NO_STATE;
  const values = [
    ctx.workspaceId,
    ctx.projectId,
    body.name.trim(),
    '<p></p>',
    '',
    'none',
    state?.id ?? null,
    null,
    null,
    null,
    null,
    null,
    state?.group === 'completed' ? new Date() : null,
    false,
    null,
    null,
    null,
    ctx.userId,
    null,
    Date.now() / 1000,
  ];
  const client = await pool.connect();
  const pipelined = client as unknown as { pipeline: boolean };
  let answers: PromiseSettledResult<Row[]>[];
  pipelined.pipeline = true;
  try {
    answers = await Promise.allSettled([
      client.query('BEGIN').then((r) => r.rows as Row[]),
      q(SQL_NEXT_SEQUENCE, [ctx.projectId, 1], client),
      q(text, values, client),
      client.query('COMMIT').then((r) => r.rows as Row[]),
    ]);
  } finally {
    pipelined.pipeline = false;
    // every answer was read (a failed statement makes PostgreSQL answer the COMMIT with ROLLBACK): the client is idle
    client.release();
  }
  const failed = answers.find((a) => a.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  const [issue] = (answers[2] as PromiseFulfilledResult<Row[]>).value;
  return view(issue, [], []);
}

/** App API access: the Bearer access token's session and user, then workspace and project access. */
async function appAccess(req: IncomingMessage, slug: string, projectId: string) {
  const auth = req.headers.authorization;
  if (!auth?.startsWith('Bearer ')) return null;
  const [row] = await q(SQL_LIVE_ACCESS_TOKEN, [createHash('sha256').update(auth.slice(7)).digest('hex'), 'access']);
  if (!row) return null;
  if (!row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000) {
    await q('UPDATE auth_sessions SET last_used_at = now() WHERE id = $1', [row.session_id]);
  }
  const [ws] = await q(SQL_WORKSPACE_ACCESS, [row.user_id, slug]);
  if (!ws || ws.role === null) return null;
  const [project] = await q(SQL_PROJECT_ACCESS, [row.user_id, projectId, ws.workspace_id]);
  if (!project || project.role === null) return null;
  return { userId: row.user_id as string, workspaceId: ws.workspace_id as string, projectId };
}

const arr = (v: unknown) =>
  Array.isArray(v)
    ? (v as string[])
    : typeof v === 'string'
      ? v
          .replace(/^\{|\}$/g, '')
          .split(',')
          .filter(Boolean)
      : [];

/** The App values of a page's rows (`SQL_APP_VALUES`), in Meridian's App shape. */
async function appRows(rows: Row[]) {
  if (!rows.length) return [];
  const values = new Map((await q(SQL_APP_VALUES, [rows.map((r) => r.id)])).map((v) => [v.id as string, v]));
  return rows.map((i) => {
    const r = values.get(i.id) ?? {};
    return {
      id: i.id,
      name: i.name,
      state_id: i.state_id,
      state__group: r.state_group ?? null,
      sort_order: i.sort_order,
      completed_at: iso(i.completed_at),
      estimate_point: i.estimate_point_id,
      priority: i.priority,
      start_date: i.start_date,
      target_date: i.target_date,
      sequence_id: i.sequence_id,
      project_id: i.project_id,
      parent_id: i.parent_id,
      cycle_id: r.cycle_id ?? null,
      module_ids: arr(r.module_ids),
      label_ids: arr(r.label_ids),
      assignee_ids: arr(r.assignee_ids),
      sub_issues_count: Number(r.sub_issues_count ?? 0),
      created_at: iso(i.created_at),
      updated_at: iso(i.updated_at),
      created_by: i.created_by_id,
      updated_by: i.updated_by_id,
      attachment_count: Number(r.attachment_count ?? 0),
      link_count: Number(r.link_count ?? 0),
      is_draft: i.is_draft,
      archived_at: i.archived_at,
      deleted_at: iso(i.deleted_at),
      type_id: i.type_id,
    };
  });
}

/** The App API list (`cursor=<per_page>:<page>:0`), or its board with `group_by=state_id`. */
async function appList(projectId: string, url: URL) {
  const [perPage, number] = (url.searchParams.get('cursor') ?? '100:0:0').split(':').map(Number);
  const raw = url.searchParams.get('order_by') || '-created_at';
  const desc = raw.startsWith('-');
  const order = ISSUE_ORDER_KEYS[desc ? raw.slice(1) : raw];
  const page = (extra: string, params: unknown[]) =>
    paginateSql(
      {
        select: ISSUE_LIST_COLUMNS,
        from: SQL_VISIBLE_ISSUES_OF_PROJECT + extra,
        params,
        key: order.key,
        id: 'i.id',
        keyType: order.keyType,
        order: desc ? 'DESC' : 'ASC',
        total: extra ? undefined : { sql: SQL_PROJECT_VISIBLE_COUNT, params: [projectId] },
      },
      { perPage, number },
      (text, values) => q(text, values),
      (r) => r,
    );
  if (url.searchParams.get('group_by') !== 'state_id') {
    const p = await page('', [projectId]);
    const cursors = pageNumberCursors(perPage, number, p.nextCursor !== null);
    return {
      grouped_by: null,
      sub_grouped_by: null,
      total_count: p.totalCount,
      next_cursor: cursors.next,
      prev_cursor: cursors.prev,
      next_page_results: cursors.next !== null,
      prev_page_results: cursors.prev !== null,
      count: p.results.length,
      total_pages: Math.ceil(p.totalCount / perPage),
      total_results: p.totalCount,
      extra_stats: null,
      results: await appRows(p.results),
    };
  }
  const keys = (await q(SQL_STATE_GROUP_KEYS, [projectId])).map((r) => r.id as string);
  const read: Array<{ key: string; p: Awaited<ReturnType<typeof page>>; rows: unknown[] }> = [];
  for (let at = 0; at < keys.length; at += 6) {
    read.push(
      ...(await Promise.all(
        keys.slice(at, at + 6).map(async (key) => {
          const p = await page(' AND i.state_id = $2', [projectId, key]);
          return { key, p, rows: await appRows(p.results) };
        }),
      )),
    );
  }
  const results: Record<string, unknown> = {};
  let total = 0;
  let count = 0;
  let more = false;
  let pages = 0;
  for (const { key, p, rows } of read) {
    results[key] = { results: rows, total_results: p.totalCount, next_cursor: p.nextCursor, prev_cursor: p.prevCursor };
    count += p.results.length;
    more ||= p.nextCursor !== null;
    pages = Math.max(pages, Math.ceil(p.totalCount / p.perPage));
    total += p.totalCount;
  }
  const cursors = pageNumberCursors(perPage, number, more);
  return {
    grouped_by: 'state_id',
    sub_grouped_by: null,
    total_count: total,
    next_cursor: cursors.next,
    prev_cursor: cursors.prev,
    next_page_results: more,
    prev_page_results: cursors.prev !== null,
    count,
    total_pages: pages,
    total_results: total,
    extra_stats: null,
    results,
  };
}

const APP_ROUTE = /^\/api\/workspaces\/([^/]+)\/projects\/([0-9a-f-]{36})\/issues\/$/;

const ROUTE = /^\/api\/v1\/workspaces\/([^/]+)\/projects\/([0-9a-f-]{36})\/work-items\/(?:([0-9a-f-]{36})\/)?$/;

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://bare');
  const a = req.method === 'GET' ? APP_ROUTE.exec(url.pathname) : null;
  if (a) {
    (async () => {
      const ctx = await appAccess(req, a[1], a[2]);
      if (!ctx) return send(res, 401, { detail: 'Authentication required.', error_code: 'NOT_AUTHENTICATED' });
      send(res, 200, await appList(ctx.projectId, url));
    })().catch((err: Error) => send(res, 500, { detail: err.message, error_code: 'INTERNAL' }));
    return;
  }
  const m = ROUTE.exec(url.pathname);
  if (!m) return send(res, 404, { detail: 'Not found.', error_code: 'NOT_FOUND' });
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    (async () => {
      const ctx = await access(req, m[1], m[2]);
      if (!ctx) return send(res, 401, { detail: 'Invalid API key.', error_code: 'INVALID_API_KEY' });
      if (req.method === 'GET' && !m[3]) return send(res, 200, await list(ctx.projectId, url));
      if (req.method === 'GET') {
        const [row] = await q(SQL_VISIBLE_ISSUE, [ctx.projectId, m[3]]);
        if (!row) return send(res, 404, { detail: 'Not found.', error_code: 'NOT_FOUND' });
        return send(res, 200, view(row, row.assignee_ids, row.label_ids));
      }
      if (req.method === 'POST' && !m[3])
        return send(res, 201, await create(ctx, JSON.parse(Buffer.concat(chunks).toString('utf8'))));
      send(res, 405, { detail: 'Method not allowed.', error_code: 'METHOD_NOT_ALLOWED' });
    })().catch((err: Error) => send(res, 500, { detail: err.message, error_code: 'INTERNAL' }));
  });
});
server.keepAliveTimeout = 65_000;
server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', () => {
  const { port } = server.address() as { port: number };
  process.stdout.write(`bare: listening on http://127.0.0.1:${port}\n`);
});
