/**
 * Where a request's time goes on the embedded database: a preload for Meridian's server process
 * (not loaded otherwise). For every HTTP request it records how long it waited for the pool's one
 * connection, how long it held it, how many times it asked for it, and its statements; on exit it
 * appends one JSON line per server to `EMBEDDED_TRACE_FILE`, grouped by request kind (v1 list,
 * GET one, other).
 *
 *   EMBEDDED_TRACE_FILE=/tmp/trace.jsonl NODE_OPTIONS="--require $PWD/dist/bench/embedded-trace.js" \
 *     node dist/bench/work-items.bench.js --embedded --skip-postgres --only mixed --data-dir … --threads main,worker
 *
 * `waitMs`: from `pool.connect()` to the connection (the queue behind other requests); `holdMs`:
 * from getting it to releasing it (the statements, and whatever the request does in between on
 * the main thread); `statementMs`: from `client.query()` to its answer; `totalMs`: request in to
 * response finished. What is left (`totalMs` minus the waits and holds) is the main thread's own
 * work for the request and its waits for the event loop.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

interface RequestTrace {
  kind: string;
  start: number;
  acquisitions: number;
  waitMs: number;
  holdMs: number;
  statements: number;
  statementMs: number;
  texts: string[];
}

const file = process.env.EMBEDDED_TRACE_FILE;
const isServer = /apps[\\/]server[\\/]src[\\/]main\.js$/.test(process.argv[1] ?? '');

if (file && isServer && isMainThread) install(file);

function kindOf(url: string): string {
  if (/\/work-items\/\?/.test(url)) return 'v1 list';
  if (/\/work-items\/[0-9a-f-]{36}\/$/.test(url)) return 'GET one';
  return 'other';
}

function install(out: string): void {
  const als = new AsyncLocalStorage<RequestTrace>();
  const done: RequestTrace[] = [];
  const started = performance.now();
  const cpu0 = process.cpuUsage();
  const elu0 = performance.eventLoopUtilization();

  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [req, res] = args as [http.IncomingMessage, http.ServerResponse];
    const trace: RequestTrace = {
      kind: kindOf(req.url ?? ''),
      start: performance.now(),
      acquisitions: 0,
      waitMs: 0,
      holdMs: 0,
      statements: 0,
      statementMs: 0,
      texts: [],
    };
    res.once('finish', () => {
      done.push(trace);
      (trace as unknown as { totalMs: number }).totalMs = performance.now() - trace.start;
    });
    return als.run(trace, () => emit.call(this, event, ...args));
  } as typeof http.Server.prototype.emit;

  const Pool = require('pg-pool') as { prototype: { connect: (cb?: unknown) => unknown } };
  type Release = (e?: unknown) => void;
  const connect = Pool.prototype.connect;
  Pool.prototype.connect = function (this: unknown, cb?: unknown) {
    const trace = als.getStore();
    if (!trace) return connect.call(this, cb);
    const t0 = performance.now();
    trace.acquisitions++;
    let t1 = 0;
    const held = (client: { release: Release }): Release => {
      t1 = performance.now();
      trace.waitMs += t1 - t0;
      const release = client.release;
      const wrapped: Release = function (this: unknown, e?: unknown) {
        trace.holdMs += performance.now() - t1;
        client.release = release;
        return release.call(client, e);
      };
      client.release = wrapped;
      return wrapped;
    };
    if (typeof cb === 'function')
      return connect.call(this, (err: unknown, client: { release: Release }, done: Release) =>
        err ? cb(err, client, done) : cb(err, client, held(client)),
      );
    return (connect.call(this) as Promise<{ release: Release }>).then((client) => {
      held(client);
      return client;
    });
  };

  const { Client } = require('pg') as { Client: { prototype: { query: (...a: unknown[]) => unknown } } };
  const query = Client.prototype.query;
  Client.prototype.query = function (this: unknown, ...a: unknown[]) {
    const trace = als.getStore();
    if (!trace) return query.apply(this, a);
    const t0 = performance.now();
    trace.statements++;
    const cfg = a[0] as string | { text?: string };
    const text = (typeof cfg === 'string' ? cfg : (cfg?.text ?? '')).replace(/\s+/g, ' ').slice(0, 160);
    trace.texts.push(text);
    const settle = () => {
      trace.statementMs += performance.now() - t0;
    };
    const last = a.length - 1;
    if (typeof a[last] === 'function') {
      const cb = a[last] as (...r: unknown[]) => unknown;
      a[last] = (...r: unknown[]) => {
        settle();
        return cb(...r);
      };
      return query.apply(this, a);
    }
    const result = query.apply(this, a);
    if (result instanceof Promise) result.then(settle, settle);
    return result;
  };

  process.on('exit', () => {
    const wall = performance.now() - started;
    const cpu = process.cpuUsage(cpu0);
    const elu = performance.eventLoopUtilization(elu0);
    const kinds: Record<string, unknown> = {};
    for (const kind of new Set(done.map((d) => d.kind))) {
      const rows = done.filter((d) => d.kind === kind);
      const mean = (f: (d: RequestTrace) => number) => rows.reduce((s, d) => s + f(d), 0) / rows.length;
      const sorted = (f: (d: RequestTrace) => number) => rows.map(f).sort((x, y) => x - y);
      const pct = (f: (d: RequestTrace) => number, p: number) => {
        const s = sorted(f);
        return s[Math.min(s.length - 1, Math.floor(s.length * p))];
      };
      const total = (d: RequestTrace) => (d as unknown as { totalMs: number }).totalMs;
      kinds[kind] = {
        requests: rows.length,
        acquisitions: mean((d) => d.acquisitions),
        statements: mean((d) => d.statements),
        waitMs: { mean: mean((d) => d.waitMs), p99: pct((d) => d.waitMs, 0.99) },
        holdMs: { mean: mean((d) => d.holdMs), p99: pct((d) => d.holdMs, 0.99) },
        statementMs: { mean: mean((d) => d.statementMs) },
        totalMs: { mean: mean(total), p50: pct(total, 0.5), p99: pct(total, 0.99) },
        restMs: { mean: mean((d) => total(d) - d.waitMs - d.holdMs) },
        example: rows.find((d) => d.statements > 0)?.texts,
      };
    }
    const line = {
      pid: process.pid,
      design: process.env.EMBEDDED_DB_THREAD ?? 'main',
      wallMs: Math.round(wall),
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      eventLoopUtilization: Number(elu.utilization.toFixed(3)),
      kinds,
    };
    fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
  });
}
