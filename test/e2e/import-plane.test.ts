import assert from 'node:assert/strict';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type TestAgent from 'supertest/lib/agent';
import { addMember, createApiKey, createWorkspace, signUp, unique } from '../support/fixtures';
import type { ChildProcess } from 'node:child_process';
import request from 'supertest';
import { importCommand } from '../../apps/cli/src/import-plane/import-command';
import { parseOptions } from '../../apps/cli/src/options';
import { childEnv, CLI, Finished, listeningUrl, runNode, startServer, waitExit } from '../support/processes';
import { migratedDatabaseEnv, startTestApp, TestApp } from '../support/test-app';

/**
 * `meridian import plane`: a second Meridian server is the source (it speaks Plane's v1), seeded with
 * every kind the importer reads (in this process, then served by a server process of its own); the
 * import command (the CLI's own, run in this process with the environment a CLI process would get;
 * the CLI as a process is tested for its usage errors here and in cli.test.ts) writes into a target
 * database, which is then opened as a test app and read back through HTTP. The target is not served
 * while the import runs (the embedded engine allows one process at a time).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const SLUG_SOURCE = unique('src-');
const today = new Date();
const day = (offset: number) => new Date(today.getTime() + offset * 86_400_000).toISOString().slice(0, 10);

/** A snapshot of a workspace by names and emails, read through v1, for comparing source and target. */
async function snapshot(api: TestAgent, key: string, slug: string) {
  const get = async (path: string) => {
    const res = await api.get(`/api/v1/workspaces/${slug}/${path}`).set('X-API-Key', key);
    assert.equal(res.status, 200, `${path}: ${JSON.stringify(res.body)}`);
    return Array.isArray(res.body) || !('results' in res.body) ? res.body : res.body.results;
  };
  const members: Json[] = await get('members/');
  const email = new Map(members.map((m) => [m.id, m.email]));
  const projects: Json[] = await get('projects/?per_page=100');
  const out: Json[] = [];
  for (const p of projects.sort((a, b) => a.identifier.localeCompare(b.identifier))) {
    const base = `projects/${p.id}`;
    const states: Json[] = await get(`${base}/states/`);
    const stateName = new Map(states.map((s) => [s.id, s.name]));
    const labels: Json[] = await get(`${base}/labels/`);
    const labelName = new Map(labels.map((l) => [l.id, l.name]));
    const est = await api.get(`/api/v1/workspaces/${slug}/${base}/estimates/`).set('X-API-Key', key);
    const points: Json[] = est.status === 200 ? await get(`${base}/estimates/${est.body.id}/estimate-points/`) : [];
    const pointValue = new Map(points.map((pt) => [pt.id, pt.value]));
    const issues: Json[] = await get(`${base}/issues/?per_page=100`);
    const issueName = new Map(issues.map((i) => [i.id, i.name]));
    const items: Json[] = [];
    for (const i of issues) {
      const links: Json[] = await get(`${base}/issues/${i.id}/links/`);
      const comments: Json[] = await get(`${base}/issues/${i.id}/comments/`);
      const rel = (await get(`${base}/issues/${i.id}/relations/`)) as unknown as Record<string, string[]>;
      items.push({
        name: i.name,
        state: stateName.get(i.state),
        priority: i.priority,
        description_html: i.description_html,
        start_date: i.start_date,
        target_date: i.target_date,
        parent: i.parent ? issueName.get(i.parent) : null,
        estimate: i.estimate_point ? pointValue.get(i.estimate_point) : null,
        assignees: i.assignees.map((a: string) => email.get(a)).sort(),
        labels: i.labels.map((l: string) => labelName.get(l)).sort(),
        links: links.map((l) => `${l.title} ${l.url}`).sort(),
        comments: comments.map((c) => `${email.get(c.actor)}: ${c.comment_html}`).sort(),
        relations: Object.fromEntries(
          Object.entries(rel)
            .filter(([, ids]) => ids.length)
            .map(([type, ids]) => [type, ids.map((x) => issueName.get(x)).sort()]),
        ),
      });
    }
    const planning = async (kind: 'cycles' | 'modules') => {
      const rows: Json[] = await get(`${base}/${kind}/`);
      const result: Json[] = [];
      for (const c of rows) {
        const inside: Json[] = await get(`${base}/${kind}/${c.id}/${kind === 'cycles' ? 'cycle' : 'module'}-issues/`);
        result.push({
          name: c.name,
          ...(kind === 'cycles'
            ? { start: c.start_date?.slice(0, 10), end: c.end_date?.slice(0, 10) }
            : {
                status: c.status,
                lead: email.get(c.lead),
                members: c.members.map((m: string) => email.get(m)).sort(),
              }),
          items: inside.map((x) => x.name).sort(),
        });
      }
      return result.sort((a, b) => a.name.localeCompare(b.name));
    };
    const intake: Json[] = p.intake_view ? await get(`${base}/intake-issues/`) : [];
    const projectMembers: Json[] = await get(`${base}/members/`);
    out.push({
      identifier: p.identifier,
      name: p.name,
      description: p.description,
      intake_view: p.intake_view,
      estimate:
        est.status === 200 ? { name: est.body.name, type: est.body.type, in_use: p.estimate === est.body.id } : null,
      points: points.map((pt) => `${pt.key}:${pt.value}`).sort(),
      members: projectMembers
        .map((m) => `${m.email}:${m.role}`)
        .filter((m) => !m.startsWith('target-'))
        .sort(),
      states: states.map((s) => `${s.name}/${s.group}/${s.color}${s.default ? '/default' : ''}`).sort(),
      labels: labels.map((l) => `${l.name}/${l.color}/${l.parent ? labelName.get(l.parent) : '-'}`).sort(),
      issues: items.sort((a, b) => a.name.localeCompare(b.name)),
      cycles: await planning('cycles'),
      modules: await planning('modules'),
      intake: intake.map((x) => `${x.issue_detail.name}:${x.status}`).sort(),
    });
  }
  return {
    members: members
      .map((m) => `${m.email}:${m.role}`)
      .filter((m) => !m.startsWith('target-'))
      .sort(),
    projects: out,
  };
}

/** Rows per kind in the target database: the duplicates check. */
async function counts(t: TestApp, workspaceId: string) {
  const tables = [
    'projects',
    'states',
    'labels',
    'issues',
    'issue_comments',
    'issue_links',
    'issue_relations',
    'cycles',
    'cycle_issues',
    'modules',
    'module_issues',
    'intake_issues',
    'estimates',
    'estimate_points',
    'project_members',
    'workspace_members',
  ];
  const out: Record<string, number> = {};
  for (const table of tables) {
    const rows = await t.sql<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table} WHERE workspace_id = $1${table.endsWith('members') || table === 'estimate_points' ? '' : ' AND deleted_at IS NULL'}`,
      [workspaceId],
    );
    out[table] = rows[0].n;
  }
  const users = await t.sql<{ n: number }>('SELECT count(*)::int AS n FROM users');
  out.users = users[0].n;
  return out;
}

/**
 * `meridian import …` in this process: the CLI's command with the environment a CLI process gets
 * (`childEnv`), its output collected, and a thrown error reported as the CLI's `main` reports it
 * (exit code 1, `meridian: message` on stderr). The source stays a server process: two Nest
 * applications in one process share Passport's strategies (the last one's win), so an in-process
 * source would check its API keys against the target's database once a target app is opened.
 */
async function importInProcess(args: string[], env: Record<string, string>): Promise<Finished> {
  let stdout = '';
  let stderr = '';
  const io = { env: childEnv(env), out: (l: string) => (stdout += `${l}\n`), err: (l: string) => (stderr += `${l}\n`) };
  let code: number;
  try {
    code = await importCommand(args, parseOptions, io);
  } catch (err) {
    io.err(`meridian: ${(err as Error)?.message ?? String(err)}`);
    code = 1;
  }
  return { code, signal: null, stdout, stderr };
}

describe('meridian import plane', () => {
  let sourceDb: { env: Record<string, string>; drop(): Promise<void> };
  let server: ChildProcess;
  let sourceUrl: string;
  let sourceKey: string;
  let target: { env: Record<string, string>; drop(): Promise<void> };
  const targets: Record<string, { id: string; slug: string }> = {};
  let targetOwner: { email: string; password: string };
  let expected: Awaited<ReturnType<typeof snapshot>>;
  let bobEmail: string;

  before(async () => {
    sourceDb = await migratedDatabaseEnv();
    const source = await startTestApp({ ...sourceDb.env, API_KEY_RATE_LIMIT: '100000/minute' });
    try {
      await seed(source);
    } finally {
      await source.close(); // drops the spare database startTestApp made, not the source's
    }

    // the source as a server of its own, its key limit raised for speed (the 429 path has its own case)
    const started = await startServer({ ...sourceDb.env, API_KEY_RATE_LIMIT: '100000/minute' });
    server = started.child;
    sourceUrl = listeningUrl(started.output());
    // the server's own view equals the seeded one
    assert.deepEqual(await snapshot(request(sourceUrl), sourceKey, SLUG_SOURCE), expected);

    // the target: its owner, bob (the same email as in the source: matched), three workspaces
    target = await migratedDatabaseEnv();
    const t = await startTestApp(target.env);
    try {
      targetOwner = { email: `target-owner-${unique()}@example.com`, password: 'correct horse 1' };
      const me = await signUp(t, targetOwner.email, targetOwner.password);
      await signUp(t, bobEmail);
      for (const name of ['main', 'resume', 'proxy', 'v025']) targets[name] = await createWorkspace(t, me.token);
    } finally {
      await t.close(); // drops the spare database startTestApp made, not the target
    }
  });

  /** Seeds the source with every kind the importer reads, and takes its snapshot (`expected`). */
  async function seed(source: TestApp) {
    const owner = await signUp(source, `owner-${unique()}@example.com`);
    const ws = await createWorkspace(source, owner.token, SLUG_SOURCE);
    sourceKey = await createApiKey(source, owner.token, ws.slug);
    const bob = await signUp(source, `bob-${unique()}@example.com`);
    const carol = await signUp(source, `carol-${unique()}@example.com`);
    await addMember(source, ws.id, bob.userId, 15);
    await addMember(source, ws.id, carol.userId, 5);

    const api = (key: string = sourceKey) => ({
      post: (path: string, body: unknown) =>
        source.api
          .post(`/api/v1/workspaces/${ws.slug}/${path}`)
          .set('X-API-Key', key)
          .send(body as object),
      patch: (path: string, body: unknown) =>
        source.api
          .patch(`/api/v1/workspaces/${ws.slug}/${path}`)
          .set('X-API-Key', key)
          .send(body as object),
    });
    const ok = async (res: Promise<{ status: number; body: Json }> | { status: number; body: Json }) => {
      const r = await res;
      assert.ok(r.status >= 200 && r.status < 300, JSON.stringify(r.body));
      return r.body;
    };
    // two projects: the first with everything, the second small
    const a = await ok(api().post('projects/', { name: 'Apollo', identifier: 'APO', description: 'Moon' }));
    const b = await ok(api().post('projects/', { name: 'Borealis', identifier: 'BOR', network: 0 }));
    const pa = `projects/${a.id}`;
    await ok(
      source.api
        .post(`/api/workspaces/${ws.slug}/projects/${a.id}/members/`)
        .auth(owner.token, { type: 'bearer' })
        .send({
          members: [
            { member_id: bob.userId, role: 15 },
            { member_id: carol.userId, role: 5 },
          ],
        }),
    );
    const review = await ok(api().post(`${pa}/states/`, { name: 'Review', color: '#123456', group: 'started' }));
    const area = await ok(api().post(`${pa}/labels/`, { name: 'Area', color: '#ff0000' }));
    const frontend = await ok(api().post(`${pa}/labels/`, { name: 'Frontend', color: '#00ff00', parent: area.id }));
    const bug = await ok(api().post(`${pa}/labels/`, { name: 'bug', color: '#0000ff' }));
    const estimate = await ok(api().post(`${pa}/estimates/`, { name: 'Story points', type: 'points' }));
    const pts = (await ok(
      api().post(`${pa}/estimates/${estimate.id}/estimate-points/`, [
        { key: 1, value: '1' },
        { key: 2, value: '3' },
        { key: 3, value: '8' },
      ]),
    )) as unknown as Json[];
    await ok(api().patch(`${pa}/`, { estimate: estimate.id, intake_view: true }));
    const epic = await ok(
      api().post(`${pa}/issues/`, {
        name: 'Epic: landing',
        priority: 'high',
        labels: [frontend.id],
        assignees: [owner.userId, bob.userId],
        estimate_point: pts[2].id,
        start_date: day(-2),
        target_date: day(10),
        description_html: '<p>The whole <b>landing</b></p>',
      }),
    );
    const child = await ok(
      api().post(`${pa}/issues/`, {
        name: 'Child: fuel',
        parent: epic.id,
        state: review.id,
        labels: [bug.id, area.id],
      }),
    );
    const grandchild = await ok(api().post(`${pa}/issues/`, { name: 'Grandchild: valves', parent: child.id }));
    const lone = await ok(
      api().post(`${pa}/issues/`, { name: 'Lone item', priority: 'urgent', assignees: [bob.userId] }),
    );
    await ok(api().post(`${pa}/issues/${epic.id}/links/`, { url: 'https://example.com/spec', title: 'Spec' }));
    await ok(api().post(`${pa}/issues/${epic.id}/links/`, { url: 'https://example.com/design', title: 'Design' }));
    await ok(api().post(`${pa}/issues/${epic.id}/comments/`, { comment_html: '<p>First from owner</p>' }));
    await ok(
      source.api
        .post(`/api/workspaces/${ws.slug}/${pa}/issues/${epic.id}/comments/`)
        .auth(bob.token, { type: 'bearer' })
        .send({ comment_html: '<p>Reply from bob</p>' }),
    );
    await ok(api().post(`${pa}/issues/${child.id}/comments/`, { comment_html: '<p>On the child</p>' }));
    await ok(api().post(`${pa}/issues/${child.id}/relations/`, { relation_type: 'blocking', issues: [lone.id] }));
    await ok(
      api().post(`${pa}/issues/${grandchild.id}/relations/`, { relation_type: 'relates_to', issues: [epic.id] }),
    );
    const cycle = await ok(api().post(`${pa}/cycles/`, { name: 'Sprint 1', start_date: day(-1), end_date: day(13) }));
    await ok(api().post(`${pa}/cycles/${cycle.id}/cycle-issues/`, { issues: [epic.id, child.id] }));
    await ok(api().post(`${pa}/cycles/`, { name: 'Someday' }));
    const mod = await ok(
      api().post(`${pa}/modules/`, {
        name: 'Launch',
        status: 'in-progress',
        lead: bob.userId,
        members: [bob.userId, owner.userId],
        start_date: day(-3),
        target_date: day(30),
      }),
    );
    await ok(api().post(`${pa}/modules/${mod.id}/module-issues/`, { issues: [epic.id, lone.id] }));
    await ok(api().post(`${pa}/intake-issues/`, { issue: { name: 'Intake: pending idea', priority: 'low' } }));
    const declined = await ok(api().post(`${pa}/intake-issues/`, { issue: { name: 'Intake: declined bug' } }));
    await ok(api().patch(`${pa}/intake-issues/${declined.issue}/`, { status: -1 }));
    await ok(api().post(`projects/${b.id}/issues/`, { name: 'Borealis item' }));
    await ok(api().post(`projects/${b.id}/labels/`, { name: 'bug', color: '#111111' }));

    expected = await snapshot(source.api, sourceKey, ws.slug);
    assert.equal(expected.projects.length, 2);
    assert.equal(expected.projects[0].issues.length, 5); // + the declined intake item
    bobEmail = bob.email;
  }

  after(async () => {
    if (server) {
      server.kill('SIGTERM');
      await waitExit(server);
    }
    await sourceDb?.drop();
    await target?.drop();
  });

  /** Opens the target as a server (`target.env`), signs in as its owner and hands an API key for `slug`. */
  async function withTarget<T>(slug: string, fn: (t: TestApp, key: string) => Promise<T>): Promise<T> {
    const t = await startTestApp(target.env, { setup: false });
    try {
      const signIn = await t.api.post('/auth/sign-in/').send(targetOwner);
      assert.equal(signIn.status, 200, JSON.stringify(signIn.body));
      const key = await createApiKey(t, signIn.body.access_token, slug);
      return await fn(t, key);
    } finally {
      await t.close(); // drops the spare database startTestApp made, not the target
    }
  }

  const runImport = (into: string, extra: string[] = [], url = sourceUrl) =>
    importInProcess(['plane', '--url', url, '--workspace', SLUG_SOURCE, '--into', into, ...extra], {
      ...target.env,
      PLANE_API_KEY: sourceKey,
      LOG_LEVEL: 'silent',
    });

  const created = (stdout: string, kind: string) => {
    const m = new RegExp(`^${kind}\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)\\s+(\\d+)$`, 'm').exec(stdout);
    assert.ok(m, `no ${kind} row in:\n${stdout}`);
    return { created: +m[1], updated: +m[2], skipped: +m[3], failed: +m[4] };
  };

  let firstCounts: Record<string, number>;

  it('imports every kind: read back through HTTP, the target equals the source', async () => {
    const res = await runImport(targets.main.slug);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    assert.match(res.stderr, /\[1\/2\] project APO Apollo/);
    // the declined intake item is a work item too: imported with the intake, then found by the work item pass
    assert.deepEqual(created(res.stdout, 'work_items'), { created: 5, updated: 0, skipped: 1, failed: 0 });
    assert.equal(created(res.stdout, 'intake').created, 2);
    assert.equal(created(res.stdout, 'relations').created, 2);
    assert.equal(created(res.stdout, 'members').created, 3); // owner and carol are new users, bob exists
    assert.equal(created(res.stdout, 'states').updated, 10); // the default states of both projects, adopted
    assert.ok(!res.stdout.includes(sourceKey) && !res.stderr.includes(sourceKey), 'the API key was printed');
    await withTarget(targets.main.slug, async (t, key) => {
      assert.deepEqual(await snapshot(t.api, key, targets.main.slug), expected);
      firstCounts = await counts(t, targets.main.id);
      // origins recorded; people brought over without a password, bob matched
      const origin = await t.sql<{ n: number }>(
        `SELECT count(*)::int AS n FROM projects WHERE workspace_id = $1 AND external_source = 'plane' AND external_id IS NOT NULL`,
        [targets.main.id],
      );
      assert.equal(origin[0].n, 2);
      const carol = await t.sql<{ password_hash: string | null }>(
        `SELECT password_hash FROM users WHERE email LIKE 'carol-%'`,
      );
      assert.deepEqual(carol, [{ password_hash: null }]);
    });
  });

  it('run again: nothing is created twice', async () => {
    const res = await runImport(targets.main.slug);
    assert.equal(res.code, 0, res.stdout + res.stderr);
    for (const kind of [
      'projects',
      'states',
      'labels',
      'work_items',
      'comments',
      'links',
      'relations',
      'cycles',
      'modules',
      'intake',
    ]) {
      const row = created(res.stdout, kind);
      assert.equal(row.created + row.updated + row.failed, 0, `${kind}: ${JSON.stringify(row)}\n${res.stdout}`);
    }
    await withTarget(targets.main.slug, async (t, key) => {
      assert.deepEqual(await counts(t, targets.main.id), firstCounts);
      assert.deepEqual(await snapshot(t.api, key, targets.main.slug), expected);
    });
  });

  it('a run that fails midway (--max-requests) is completed by the next one', async () => {
    const failed = await runImport(targets.resume.slug, ['--max-requests', '14']);
    assert.equal(failed.code, 1, failed.stdout + failed.stderr);
    assert.match(failed.stderr, /import stopped: stopped after 14 requests[\s\S]*Run the same command again/);
    const again = await runImport(targets.resume.slug);
    assert.equal(again.code, 0, again.stdout + again.stderr);
    assert.ok(created(again.stdout, 'projects').skipped >= 1, again.stdout);
    await withTarget(targets.resume.slug, async (t, key) => {
      assert.deepEqual(await snapshot(t.api, key, targets.resume.slug), expected);
      const now = await counts(t, targets.resume.id);
      for (const k of Object.keys(firstCounts)) if (k !== 'users') assert.equal(now[k], firstCounts[k], k);
    });
  });

  it('honours 429 Retry-After and X-RateLimit-Remaining: 0 from the source', async () => {
    // a proxy before the source: the 3rd request gets a 429 (Retry-After: 1); the 6th answer says no request remains
    let n = 0;
    const times: number[] = [];
    const proxy = http.createServer((req, res) => {
      n++;
      times.push(Date.now());
      if (n === 3) {
        res.writeHead(429, { 'Retry-After': '1', 'Content-Type': 'application/json' });
        res.end('{"error_code":5900,"error_message":"RATE_LIMIT_EXCEEDED"}');
        return;
      }
      const upstream = http.request(
        `${sourceUrl}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(sourceUrl).host } },
        (up) => {
          const headers = { ...up.headers };
          if (n === 6) {
            headers['x-ratelimit-remaining'] = '0';
            headers['x-ratelimit-reset'] = String(Math.ceil(Date.now() / 1000) + 1);
          }
          res.writeHead(up.statusCode ?? 502, headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      const res = await runImport(targets.proxy.slug, [], url);
      assert.equal(res.code, 0, res.stdout + res.stderr);
      assert.match(res.stderr, /rate limited by the source; waiting 1 s/);
      assert.match(res.stderr, /source rate limit reached; waiting/);
      assert.match(res.stdout, /, 1 rate-limited,/);
      assert.ok(times[3] - times[2] >= 900, `retried after ${times[3] - times[2]} ms`);
      assert.ok(times[6] - times[5] >= 200, `the request after Remaining: 0 went after ${times[6] - times[5]} ms`);
      // with headroom left, no waiting: those two are the only pauses of the run
      assert.equal(res.stderr.match(/waiting \d+ s/g)?.length, 2, res.stderr);
    } finally {
      proxy.close();
    }
    await withTarget(targets.proxy.slug, async (t, key) => {
      assert.deepEqual(await snapshot(t.api, key, targets.proxy.slug), expected);
    });
  });

  it('from a Plane 0.25.3 source (no workspace members, estimates or relations routes): the rest comes over', async () => {
    // a proxy that answers 404 (Plane's "Page not found.") where Plane 0.25.3's v1 has no route
    const seen: string[] = [];
    const proxy = http.createServer((req, res) => {
      seen.push(req.url ?? '');
      const path = (req.url ?? '').split('?')[0];
      if (/^\/api\/v1\/workspaces\/[^/]+\/members\/$|\/relations\/$|\/estimates\//.test(path)) {
        res.writeHead(404, { 'Content-Type': 'application/json' });
        res.end('{"error":"Page not found."}');
        return;
      }
      const upstream = http.request(
        `${sourceUrl}${req.url}`,
        { method: req.method, headers: { ...req.headers, host: new URL(sourceUrl).host } },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
    try {
      const res = await runImport(targets.v025.slug, [], url);
      assert.equal(res.code, 0, res.stdout + res.stderr);
      assert.match(res.stderr, /the source has no relations route/);
      // relations are asked for once, then no more
      assert.equal(seen.filter((u) => u.includes('/relations/')).length, 1);
      assert.equal(created(res.stdout, 'relations').created, 0);
      assert.equal(created(res.stdout, 'estimates').created, 0);
    } finally {
      proxy.close();
    }
    // members come from the projects' member lists; no estimate; no relations; the rest as the source
    const want = structuredClone(expected);
    for (const p of want.projects) {
      p.estimate = null;
      p.points = [];
      for (const i of p.issues) {
        i.estimate = null;
        i.relations = {};
      }
    }
    await withTarget(targets.v025.slug, async (t, key) => {
      assert.deepEqual(await snapshot(t.api, key, targets.v025.slug), want);
    });
  });

  it('refuses bad usage and an unknown target workspace', async () => {
    const usage = await runNode([CLI, 'import', 'plane', '--url', 'nope', '--workspace', 'x'], { ...target.env });
    assert.equal(usage.code, 2);
    assert.match(usage.stderr, /import plane needs --url/);
    const missing = await runImport('no-such-workspace');
    // what a re-run cannot fix: exit 2, what to change, and no "run it again"
    assert.equal(missing.code, 2, missing.stdout + missing.stderr);
    assert.match(missing.stderr, /NOT_FOUND: No workspace "no-such-workspace"/);
    assert.match(missing.stderr, /Check --into \("no-such-workspace"/);
    assert.doesNotMatch(missing.stderr, /again/);
  });

  it('tells a wrong key and an unknown source workspace (exit 2, what to fix) from a transient failure', async () => {
    const wrongKey = await runImport(targets.main.slug, ['--api-key', 'plane_api_0123456789abcdef0123456789abcdef']);
    assert.equal(wrongKey.code, 2, wrongKey.stdout + wrongKey.stderr);
    assert.match(wrongKey.stderr, /import stopped: 401 from the source/);
    assert.match(wrongKey.stderr, /The source refused the API key/);
    assert.doesNotMatch(wrongKey.stderr, /again/);

    const unknown = await importInProcess(
      ['plane', '--url', sourceUrl, '--workspace', 'no-such-source', '--into', targets.main.slug],
      { ...target.env, PLANE_API_KEY: sourceKey, LOG_LEVEL: 'silent' },
    );
    assert.equal(unknown.code, 2, unknown.stdout + unknown.stderr);
    assert.match(unknown.stderr, /import stopped: 40[34] from the source/);
    assert.match(unknown.stderr, /workspace "no-such-source"|--workspace \("no-such-source"\)/);
    assert.doesNotMatch(unknown.stderr, /again/);

    // a URL that answers a web page, not Plane's API
    const page = http.createServer((_req, res) =>
      res.writeHead(200, { 'Content-Type': 'text/html' }).end('<html>hi</html>'),
    );
    await new Promise<void>((resolve) => page.listen(0, '127.0.0.1', resolve));
    try {
      const notApi = await runImport(targets.main.slug, [], `http://127.0.0.1:${(page.address() as AddressInfo).port}`);
      assert.equal(notApi.code, 2, notApi.stdout + notApi.stderr);
      assert.match(notApi.stderr, /not Plane's API \(JSON\): check --url/);
      assert.doesNotMatch(notApi.stderr, /again/);
    } finally {
      page.close();
    }
  });
});
