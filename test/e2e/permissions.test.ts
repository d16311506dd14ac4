import { AUTH_SCHEME, PROJECT_ROLE, PROJECT_ROLE_WORKSPACE_OVERRIDE, WORKSPACE_ROLE } from '#common';
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../support/processes';
import { collectRoutes } from '../support/routes';
import { startTestApp, TestApp } from '../support/test-app';

/** The modules whose routes docs/permissions.md must list, with their base path and heading. */
const SECTIONS: Record<string, { prefix: string; heading: string }> = {
  AppApiModule: { prefix: 'api', heading: '## App API (/api/)' },
  AuthModule: { prefix: 'auth', heading: '## Auth (/auth/)' },
  InstanceModule: { prefix: 'api/instances', heading: '## Instance (/api/instances/)' },
  PublicModule: { prefix: 'api/public', heading: '## Public API (/api/public/)' },
};

interface Route {
  module: string;
  /** e.g. `GET /api/workspaces/{slug}/` */
  key: string;
  /** the role its declarations require, in the doc's vocabulary */
  role: string;
}

const NAMES: Record<number, string> = { 20: 'Admin', 15: 'Admin or Member' };

/** What a route's decorators require, phrased as docs/permissions.md phrases it. */
function requiredRole(method: string, routePath: string, meta: (key: string) => unknown): string {
  const scheme = meta(AUTH_SCHEME);
  if (scheme === 'public') return 'public';
  if (scheme === 'api-key') return 'API key';
  if (scheme === 'instance-admin') return 'instance admin';
  if (routePath.includes('{project_id}')) {
    const rule = meta(PROJECT_ROLE) as number | 'visible' | undefined;
    const override = meta(PROJECT_ROLE_WORKSPACE_OVERRIDE) as number | undefined;
    const needed = rule ?? (method === 'GET' ? 5 : 15);
    const base =
      needed === 'visible'
        ? 'workspace member who can see the project'
        : NAMES[needed]
          ? `project ${NAMES[needed]}`
          : 'project member';
    return override ? `${base} or workspace ${NAMES[override] ?? 'member'}` : base;
  }
  if (routePath.includes('{slug}')) {
    const min = meta(WORKSPACE_ROLE) as number | undefined;
    return min && NAMES[min] ? `workspace ${NAMES[min]}` : 'workspace member';
  }
  return 'signed in';
}

function collect(t: TestApp): Route[] {
  return collectRoutes(t)
    .filter((r) => SECTIONS[r.module])
    .map((r) => {
      const routePath = `/${[SECTIONS[r.module].prefix, r.path].filter((p) => p).join('/')}/`
        .replace(/\/+/g, '/')
        .replace(/:([A-Za-z_]+)/g, '{$1}');
      return { module: r.module, key: `${r.verb} ${routePath}`, role: requiredRole(r.verb, routePath, r.meta) };
    });
}

/** The rows of one `## …` section of docs/permissions.md: `METHOD path` → required role. */
function documented(doc: string, heading: string): Map<string, string> {
  const start = doc.indexOf(`\n${heading}\n`);
  assert.ok(start >= 0, `docs/permissions.md has no "${heading}" section`);
  const rest = doc.slice(start + heading.length + 2);
  const end = rest.search(/^## /m);
  const body = end >= 0 ? rest.slice(0, end) : rest;
  const rows = new Map<string, string>();
  for (const m of body.matchAll(/^\| (GET|POST|PUT|PATCH|DELETE) \| `([^`]+)` \| ([^|]+?) \|/gm)) {
    const key = `${m[1]} ${m[2]}`;
    assert.ok(!rows.has(key), `${key} is listed twice`);
    rows.set(key, m[3].trim());
  }
  return rows;
}

describe('docs/permissions.md', () => {
  let t: TestApp;
  let routes: Route[];
  let doc: string;
  before(async () => {
    t = await startTestApp();
    routes = collect(t);
    doc = fs.readFileSync(path.join(ROOT, 'docs', 'permissions.md'), 'utf8');
  });
  after(() => t.close());

  it('lists every App API, Auth and Instance route under its section', () => {
    assert.ok(routes.filter((r) => r.module === 'AppApiModule').length >= 40, `found ${routes.length} routes`);
    for (const [module, { heading }] of Object.entries(SECTIONS)) {
      const rows = documented(doc, heading);
      const missing = routes.filter((r) => r.module === module && !rows.has(r.key)).map((r) => r.key);
      assert.deepEqual(missing, [], `missing from "${heading}" in docs/permissions.md`);
    }
  });

  for (const module of ['AppApiModule', 'InstanceModule', 'PublicModule']) {
    it(`lists no ${module} route that does not exist`, () => {
      const rows = documented(doc, SECTIONS[module].heading);
      const existing = new Set(routes.filter((r) => r.module === module).map((r) => r.key));
      assert.deepEqual(
        [...rows.keys()].filter((k) => !existing.has(k)),
        [],
      );
    });

    it(`gives each ${module} route the role its declarations require`, () => {
      const rows = documented(doc, SECTIONS[module].heading);
      const wrong = routes
        .filter((r) => r.module === module && rows.get(r.key) !== r.role)
        .map((r) => `${r.key}: declared "${r.role}", documented "${rows.get(r.key)}"`);
      assert.deepEqual(wrong, []);
    });
  }
});
