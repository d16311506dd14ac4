// The Plane routes Meridian leaves out (docs/decisions.md "Plane routes Meridian does not serve"):
// the table's rows are routes of Plane 0.25.3 (docs/reference/plane-0.25.3-routes.json, derived
// from Plane's URL files by scripts/plane-routes.js) that Meridian's OpenAPI document does not have,
// each with Plane's source line; and the table in decisions.md is the one the script renders.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../support/processes';
import { startTestApp, TestApp } from '../support/test-app';

interface PlaneRoute {
  method: string;
  path: string;
  view: string;
  action?: string;
  source: string;
}
interface LeftOut {
  method: string;
  path: string;
  why: string;
}

const PLANE = JSON.parse(fs.readFileSync(path.join(ROOT, 'docs', 'reference', 'plane-0.25.3-routes.json'), 'utf8')) as {
  ref: string;
  routes: PlaneRoute[];
};
const LEFT_OUT = JSON.parse(
  fs.readFileSync(path.join(ROOT, 'docs', 'reference', 'plane-routes-left-out.json'), 'utf8'),
) as { routes: LeftOut[] };

/** `GET /api/x/{slug}/y/{id}/` and `GET /api/x/{workspace}/y/{pk}/` are one route: parameter names aside. */
const key = (method: string, p: string) => `${method.toUpperCase()} ${p.replace(/\{[^}]+\}(?:-\{[^}]+\})*/g, '{}')}`;

describe('the Plane routes Meridian does not serve', () => {
  let t: TestApp;
  let served: Set<string>;
  const documentFile = path.join(os.tmpdir(), `meridian-openapi-${process.pid}.json`);
  before(async () => {
    t = await startTestApp({}, { setup: false });
    const text = (await t.api.get('/api/openapi.json')).text;
    fs.writeFileSync(documentFile, text);
    const doc = JSON.parse(text) as {
      paths: Record<string, Record<string, unknown>>;
    };
    served = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) =>
        Object.keys(ops)
          .filter((m) => ['get', 'post', 'put', 'patch', 'delete'].includes(m))
          .map((m) => key(m, p)),
      ),
    );
  });
  after(async () => {
    await t?.close();
    fs.rmSync(documentFile, { force: true });
  });

  it('each hand-written reason is for a route of Plane 0.25.3 that Meridian does not serve', () => {
    assert.equal(PLANE.ref, 'v0.25.3');
    assert.ok(LEFT_OUT.routes.length > 0);
    const plane = new Map(PLANE.routes.map((r) => [key(r.method, r.path), r]));
    for (const row of LEFT_OUT.routes) {
      const k = key(row.method, row.path);
      assert.ok(plane.has(k), `${k}: not a route of Plane 0.25.3 (docs/reference/plane-0.25.3-routes.json)`);
      assert.ok(!served.has(k), `${k}: Meridian serves it; take it out of the table`);
      assert.ok(row.why.trim().length > 10, `${k}: say why it fails in Plane`);
    }
    assert.equal(
      new Set(LEFT_OUT.routes.map((r) => key(r.method, r.path))).size,
      LEFT_OUT.routes.length,
      'a row twice',
    );
  });

  it('the served document and the URL list meet: most of Plane 0.25.3 routes are served', () => {
    // a guard against comparing two lists that do not match at all (a path prefix or format changed)
    const plane = PLANE.routes.map((r) => key(r.method, r.path));
    const both = plane.filter((k) => served.has(k));
    assert.ok(both.length > plane.length / 2, `${both.length} of ${plane.length} Plane routes found in the document`);
  });

  it("decisions.md's table is the one scripts/plane-routes.js renders now: every Plane route Meridian does not serve, with why", () => {
    const check = spawnSync(
      process.execPath,
      [path.join(ROOT, 'scripts', 'plane-routes.js'), '--table', '--check', '--openapi', documentFile],
      { cwd: ROOT, encoding: 'utf8' },
    );
    assert.equal(check.status, 0, check.stdout + check.stderr);
  });
});
