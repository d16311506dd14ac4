/**
 * The statements each HTTP request sends: a preload for Meridian's server process started from
 * tsc's output (`dist/apps/server/src/main.js`; the bundle inlines `pg`), not loaded otherwise.
 * Every statement a request sends through `pg` is appended to `STATEMENT_RECORD_FILE` as one JSON
 * line `{url, text, values, named}` (`named`: sent as a named, prepared statement). Used by
 * `search-statements.ts`.
 *
 *   STATEMENT_RECORD_FILE=/tmp/statements.jsonl NODE_OPTIONS="--require $PWD/dist/bench/statement-recorder.js" \
 *     node dist/apps/server/src/main.js
 */
import { AsyncLocalStorage, AsyncResource } from 'node:async_hooks';
import * as fs from 'node:fs';
import * as http from 'node:http';
import { isMainThread } from 'node:worker_threads';

const file = process.env.STATEMENT_RECORD_FILE;
const isServer = /apps[\\/]server[\\/]src[\\/]main\.js$/.test(process.argv[1] ?? '');

if (file && isServer && isMainThread) install(file);

function install(out: string): void {
  const als = new AsyncLocalStorage<string>();
  const emit = http.Server.prototype.emit as (this: http.Server, event: string, ...args: unknown[]) => boolean;
  http.Server.prototype.emit = function (this: http.Server, event: string, ...args: unknown[]) {
    if (event !== 'request') return emit.call(this, event, ...args);
    const [req] = args as [http.IncomingMessage];
    return als.run(req.url ?? '', () => emit.call(this, event, ...args));
  } as typeof http.Server.prototype.emit;

  // a statement that waited for a connection is sent from the callback `pg-pool` calls when one is
  // released (another request's context, or none): the callback keeps its caller's request
  const Pool = require('pg-pool') as { prototype: { connect: (cb?: unknown) => unknown } };
  const connect = Pool.prototype.connect;
  Pool.prototype.connect = function (this: unknown, cb?: unknown) {
    return connect.call(this, typeof cb === 'function' ? AsyncResource.bind(cb as (...a: unknown[]) => unknown) : cb);
  };

  const { Client } = require('pg') as { Client: { prototype: { query: (...a: unknown[]) => unknown } } };
  const query = Client.prototype.query;
  Client.prototype.query = function (this: unknown, ...a: unknown[]) {
    const url = als.getStore();
    if (url !== undefined) {
      const cfg = a[0] as string | { text?: string; values?: unknown[]; name?: string };
      const line =
        typeof cfg === 'string'
          ? { url, text: cfg, values: Array.isArray(a[1]) ? a[1] : [], named: false }
          : { url, text: cfg?.text ?? '', values: cfg?.values ?? [], named: Boolean(cfg?.name) };
      fs.appendFileSync(out, `${JSON.stringify(line)}\n`);
    }
    return query.apply(this, a);
  };
}
