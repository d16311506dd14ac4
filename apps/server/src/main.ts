import 'reflect-metadata';
import {
  AppConfig,
  codeCacheOfEntry,
  ConfigError,
  createProcessLogger,
  describeSecretKeyProblem,
  Draining,
  loadConfig,
  loadDotEnv,
  meridianVersion,
} from '#common';
import {
  DataDirLockedError,
  DatabaseUnavailableError,
  describeDatabase,
  ReadyDatabase,
  startDatabase,
} from '#database';
import { checkLdapEnvDirectory, checkSsoEnvConnections, InstanceService } from '#domain';
import * as net from 'node:net';
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { Logger } from 'pino';
import { createApp } from './bootstrap';

/**
 * Prints one line on stderr and exits non-zero: for start-up failures the operator can fix.
 * (Everything on stdout is JSON; this line is for the person or supervisor that started us.)
 */
function fail(message: string): never {
  process.stderr.write(`meridian: ${message}\n`);
  process.exit(1);
}

/** One sentence for a listen error (port in use, not permitted, unknown host), null for others. */
function describeListenError(err: NodeJS.ErrnoException, host: string, port: number): string | null {
  switch (err.code) {
    case 'EADDRINUSE':
      return `Port ${port} on ${host} is already in use: stop the process that holds it, or set PORT to another port.`;
    case 'EACCES':
      return `Not permitted to listen on ${host}:${port}: use a port above 1023 (PORT), or grant the permission.`;
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return `Cannot listen on ${host}:${port}: ${host} is not an address of this machine (HOST).`;
    default:
      return null;
  }
}

/**
 * Binds HOST:PORT and lets it go again, before the database is opened and migrated, so that a port
 * already in use is one clear line in a second rather than a stack trace after the migrations.
 */
function checkListenable(host: string, port: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

/**
 * Stops on SIGTERM and SIGINT: drains for `SHUTDOWN_DRAIN_MS` (health 503, `Connection: close`), stops accepting connections, lets in-flight requests finish, closes the
 * database (the embedded engine and its data-directory lock included), logs `stopped` and exits 0.
 * After `SHUTDOWN_DRAIN_MS` + `SHUTDOWN_TIMEOUT_MS`, or on a second signal, it exits 1 at once. A signal during start-up
 * (migrations, module set-up) is honoured as soon as the current step ends.
 */
class Lifecycle {
  private stopRequested = false;
  private closer: (() => Promise<void>) | null = null;

  constructor(
    private readonly log: Logger,
    private readonly timeoutMs: number,
  ) {
    process.on('SIGTERM', (signal) => this.onSignal(signal));
    process.on('SIGINT', (signal) => this.onSignal(signal));
  }

  /** True when a stop was requested; `main` checks it between start-up steps and calls `stop`. */
  get stopping(): boolean {
    return this.stopRequested;
  }

  /** From now on a signal closes `closer` (the running application) at once. */
  running(closer: () => Promise<void>): void {
    this.closer = closer;
    if (this.stopRequested) void this.stop(closer);
  }

  /** Closes what is open, logs `stopped` and exits 0 (1 if closing fails). */
  async stop(close: () => Promise<void>): Promise<never> {
    try {
      await close();
    } catch (err) {
      this.log.error({ err }, 'shutdown failed');
      process.exit(1);
    }
    this.log.info('stopped');
    process.exit(0);
  }

  private onSignal(signal: NodeJS.Signals): void {
    if (this.stopRequested) {
      this.log.warn({ signal }, `${signal} again while stopping: exiting now`);
      process.exit(1);
    }
    this.stopRequested = true;
    this.log.info({ signal }, `stopping (${signal})`);
    const deadline = setTimeout(() => {
      this.log.error(
        { timeout_ms: this.timeoutMs },
        `did not stop within ${this.timeoutMs} ms (SHUTDOWN_TIMEOUT_MS): exiting`,
      );
      process.exit(1);
    }, this.timeoutMs);
    deadline.unref();
    if (this.closer) void this.stop(this.closer);
  }
}

/**
 * The migrations a start applied, in one short line (the names are in the line's `migrations` field):
 * `applied 1 migration: AddX1795…`, or `applied 87 migrations: Initial1795… … AddX1795…` (first and last).
 */
function summariseMigrations(applied: string[]): string {
  if (applied.length === 1) return `applied 1 migration: ${applied[0]}`;
  if (applied.length === 2) return `applied 2 migrations: ${applied[0]}, ${applied[1]}`;
  return `applied ${applied.length} migrations: ${applied[0]} … ${applied[applied.length - 1]}`;
}

/**
 * On an instance nobody has claimed yet (no instance admin: Plane's `is_setup_done` false), one line
 * that says how to claim it: Plane's admin app at `WEB_URL/god-mode/`, or the ops CLI. Logged at
 * every start until it is claimed. A failure to read the instance is not a reason to stop serving.
 */
async function logClaimHint(
  log: Logger,
  config: AppConfig,
  app: { get: (t: typeof InstanceService) => InstanceService },
) {
  try {
    if ((await app.get(InstanceService).instance()).isSetupDone) return;
    log.warn(
      `this instance is not claimed yet: create its first admin in Plane's admin app (${config.webUrl}/god-mode/) ` +
        'or with `npm run cli -- admin create --email you@example.com`; until then sign-up answers 403 INSTANCE_NOT_CONFIGURED',
    );
  } catch (err) {
    log.debug({ err }, 'could not read the instance to check whether it is claimed');
  }
}

function logMigrations(log: Logger, config: AppConfig, database: ReadyDatabase): void {
  const { appliedMigrations: applied, pendingMigrations: pending } = database;
  if (applied.length) log.info({ migrations: applied }, summariseMigrations(applied));
  else if (config.database.migrationsRun) log.info('database schema is up to date: no pending migrations');
  if (pending.length) {
    log.warn(
      { migrations: pending },
      `MIGRATIONS_RUN=false and ${pending.length} migration(s) are pending: ${pending.join(', ')}. ` +
        'Apply them with `npm run cli -- migration:run`; until then GET /health answers 503.',
    );
  }
}

async function main(): Promise<void> {
  // where start-up time goes (ms since the process started), logged with "listening": BENCHMARKS.md
  const marks: Record<string, number> = { modules: performance.now() };
  loadDotEnv();
  let config: AppConfig;
  let ssoEnv: ReturnType<typeof checkSsoEnvConnections>;
  try {
    config = loadConfig();
    // the SAML_* and LDAP_* connections, by the Instance API's rules (the variable named)
    ssoEnv = checkSsoEnvConnections(config);
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const log = createProcessLogger(config);
  const lifecycle = new Lifecycle(log, config.shutdownTimeoutMs + config.shutdownDrainMs);
  const { host, port } = config.http;
  const version = meridianVersion();
  // heap_limit_mib: V8's heap limit (`--max-old-space-size` plus the young generation); `npm run
  // start:prod` and the image set 1536 MiB through NODE_OPTIONS (README, "Memory")
  const heapLimitMiB = Math.round(getHeapStatistics().heap_size_limit / 1048576);
  log.info(
    { version, node: process.version, env: config.env, heap_limit_mib: heapLimitMiB },
    `starting Meridian ${version} (${describeDatabase(config)})`,
  );

  const secretKeyProblem = describeSecretKeyProblem(config);
  if (secretKeyProblem && config.env === 'production') fail(secretKeyProblem);
  if (secretKeyProblem) {
    const using = config.secret.problem === 'missing' ? ' Using the fixed development key.' : '';
    log.warn(`${secretKeyProblem}${using} The server refuses to start like this with NODE_ENV=production.`);
  }
  if (config.apiBaseUrlIsDefault && config.env === 'production') {
    log.warn(
      `API_BASE_URL is not set: links to this server (signed upload and download URLs, export links, ` +
        `OAuth callbacks) point at ${config.apiBaseUrl}. Set it to the address clients reach the server at.`,
    );
  }

  // the LDAP_* directory, contacted as an Instance API save does: a refusal stops the start (the
  // variable named), a directory that does not answer is only a warning (docs/sso-ldap.md)
  const ldapCheck = await checkLdapEnvDirectory(config, ssoEnv);
  if (ldapCheck.fatal) fail(ldapCheck.fatal);
  if (ldapCheck.warning) log.warn(ldapCheck.warning);

  try {
    await checkListenable(host, port);
  } catch (err) {
    fail(
      describeListenError(err as NodeJS.ErrnoException, host, port) ??
        `Cannot listen on ${host}:${port}: ${(err as Error).message}`,
    );
  }

  let database: ReadyDatabase;
  try {
    database = await startDatabase(config, {
      // EMBEDDED_DB_THREAD=worker: without its database the server cannot answer; exit (a supervisor restarts it)
      onWorkerCrash: (err) => {
        log.fatal({ err }, 'the embedded database stopped: exiting');
        fail(err.message);
      },
    });
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof DatabaseUnavailableError) fail(err.message);
    fail(`Database start-up failed on ${describeDatabase(config)}: ${(err as Error).message}`);
  }
  marks.database = performance.now();
  logMigrations(log, config, database);
  if (lifecycle.stopping) await lifecycle.stop(() => database.close());

  const app = await createApp(config, database);
  marks.app = performance.now();
  if (lifecycle.stopping) await lifecycle.stop(() => app.close());
  try {
    await app.listen(port, host);
  } catch (err) {
    // the port was free a moment ago: another process took it in between
    const message = describeListenError(err as NodeJS.ErrnoException, host, port);
    if (!message) throw err;
    await app.close().catch(() => undefined);
    fail(message);
  }
  const address = app.getHttpServer().address() as net.AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  const url = `http://${shownHost}:${address.port}`;
  marks.listen = performance.now();
  // each step's own time: loading the modules (and Node's own start), opening the database (first
  // connection, migrations check or run), the Nest application, binding the port
  const startup_ms = {
    modules: Math.round(marks.modules),
    database: Math.round(marks.database - marks.modules),
    app: Math.round(marks.app - marks.database),
    listen: Math.round(marks.listen - marks.app),
    total: Math.round(marks.listen),
    // the database step's parts: opening the embedded engine, TypeORM's metadata and first connection, migrations
    db_open: database.startupMs.open,
    db_connect: database.startupMs.connect,
    db_migrations: database.startupMs.migrations,
  };
  const codeCache = codeCacheOfEntry();
  log.info(
    { url, version, database: describeDatabase(config), startup_ms, code_cache: codeCache?.state() },
    `listening on ${url} (${describeDatabase(config)})`,
  );
  await logClaimHint(log, config, app);
  // the functions this start compiled, for the next start (`save` writes only when this start had no cache)
  if (codeCache) {
    setImmediate(() => {
      const outcome = codeCache.save();
      if (outcome === 'unwritable')
        log.info(
          'the code cache could not be written (CODE_CACHE_DIR, .env.example): later starts compile the code again',
        );
      else if (outcome === 'written') log.debug({ code_cache: outcome }, 'code cache written');
    });
  }
  lifecycle.running(async () => {
    // drain first (README "Replicas"): /health answers 503 and every answer `Connection: close`,
    // while the load balancer notices; then the listener closes and in-flight requests finish
    app.get(Draining).start();
    if (config.shutdownDrainMs > 0) {
      log.info({ drain_ms: config.shutdownDrainMs }, `draining for ${config.shutdownDrainMs} ms (SHUTDOWN_DRAIN_MS)`);
      await new Promise((resolve) => setTimeout(resolve, config.shutdownDrainMs));
    }
    await app.close();
  });
}

main().catch((err: unknown) => fail((err as Error)?.stack ?? String(err)));
