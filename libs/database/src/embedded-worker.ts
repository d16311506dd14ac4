import * as path from 'node:path';
import { Duplex } from 'node:stream';
import { Worker } from 'node:worker_threads';

import type { FromWorker, ToWorker, WorkerInit } from './embedded-worker-thread';

/**
 * PGlite in a `worker_threads` Worker (`EMBEDDED_DB_THREAD=worker`, docs/decisions.md "Embedded
 * database off the main thread"). The main thread keeps `pg`, TypeORM and the pool of 1; each `pg`
 * connection talks the PostgreSQL wire protocol over a `WorkerSocket` (a `Duplex` standing in for
 * the TCP socket) whose bytes go to the worker and back as transferred `ArrayBuffer`s. PGlite's
 * statements then run on another core than the HTTP work.
 *
 * Errors: a statement's error is PostgreSQL's own ErrorResponse, as over TCP (`pg` raises its
 * `DatabaseError`). If PGlite throws instead of answering, that connection's stream is destroyed
 * with the error (the query fails with it, the pool drops the connection). If the worker stops
 * unexpectedly, every open stream is destroyed with an error naming it and `onCrash` is called
 * (by default: an uncaught error, so the process exits non-zero rather than hanging).
 */
export class EmbeddedWorker {
  private readonly sessions = new Map<number, WorkerSocket>();
  private nextSession = 1;
  private closing: Promise<void> | null = null;
  private crashed: Error | null = null;
  /** batches posted and not yet answered: the worker keeps the process alive only while > 0 */
  private inFlight = 0;

  private constructor(
    private readonly worker: Worker,
    private readonly onCrash: (err: Error) => void,
  ) {
    worker.on('message', (msg: FromWorker) => this.onMessage(msg));
    worker.on('error', (err) => this.crash(err));
    worker.on('exit', (code) => this.crash(new Error(`exit code ${code}`)));
    worker.unref();
  }

  /**
   * Starts the worker and opens PGlite on `pgDir` in it (an initialised cluster: see
   * `initEmbeddedCluster`) with the PostgreSQL `settings` (`embeddedSettings`). Rejects with
   * PGlite's error if it cannot open the directory.
   */
  static start(
    pgDir: string,
    settings: Record<string, string>,
    onCrash: (err: Error) => void = throwUncaught,
  ): Promise<EmbeddedWorker> {
    const init: WorkerInit = { pgDir, settings };
    // beside this file in tsc's output and in the server's bundle (scripts/bundle.js);
    // execArgv: [] so the parent's flags (`--test`, inspector, `--cpu-prof`) are not inherited
    const worker = new Worker(path.join(__dirname, 'embedded-worker-thread.js'), { workerData: init, execArgv: [] });
    return new Promise((resolve, reject) => {
      const onExit = (code: number) => reject(new Error(`the embedded database's worker exited (code ${code})`));
      worker.once('error', reject);
      worker.once('exit', onExit);
      worker.once('message', (msg: FromWorker) => {
        worker.off('error', reject);
        worker.off('exit', onExit);
        if (msg.type === 'ready') return resolve(new EmbeddedWorker(worker, onCrash));
        const err = new Error(msg.type === 'open-failed' ? msg.message : `unexpected ${msg.type}`);
        if (msg.type === 'open-failed' && msg.stack) err.stack = msg.stack;
        void worker.terminate();
        reject(err);
      });
    });
  }

  /** A new connection's stream, for `pg`'s `stream` option (one `pg` connection per call). */
  connect(): WorkerSocket {
    const id = this.nextSession++;
    const socket = new WorkerSocket(this, id);
    if (this.crashed) process.nextTick(() => socket.destroy(this.crashed!));
    else this.sessions.set(id, socket);
    return socket;
  }

  /** @internal the bytes a `WorkerSocket` wrote, as one batch */
  send(session: number, bytes: Uint8Array): void {
    if (this.crashed || this.closing) {
      // nothing will answer: fail the connection rather than leave its query waiting
      const err = this.crashed ?? new Error('The embedded database is closed');
      const socket = this.sessions.get(session);
      process.nextTick(() => socket?.destroy(err));
      return;
    }
    if (this.inFlight++ === 0) this.worker.ref();
    const message: ToWorker = { type: 'data', session, bytes: bytes.buffer as ArrayBuffer };
    this.worker.postMessage(message, [message.bytes]);
  }

  /** @internal */
  forget(session: number): void {
    this.sessions.delete(session);
  }

  /**
   * Closes PGlite in the worker (after the batches already posted), then ends the worker. The
   * caller releases the data directory's lock after this resolves. Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= new Promise<void>((resolve, reject) => {
      if (this.crashed) return resolve(); // nothing left to close
      this.worker.ref();
      let finished = false;
      const done = (err?: Error) => {
        if (finished) return;
        finished = true;
        this.worker.off('message', onClosed);
        void this.worker.terminate().then(() => (err ? reject(err) : resolve()));
      };
      const onClosed = (msg: FromWorker) => {
        if (msg.type === 'closed') done(msg.error ? new Error(`closing PGlite: ${msg.error}`) : undefined);
      };
      this.worker.on('message', onClosed);
      this.worker.once('exit', (code) => done(new Error(`the embedded database's worker exited (code ${code})`)));
      const message: ToWorker = { type: 'close' };
      this.worker.postMessage(message);
    });
    return this.closing;
  }

  private onMessage(msg: FromWorker): void {
    if (msg.type === 'data' || msg.type === 'session-failed') {
      if (--this.inFlight === 0 && !this.closing) this.worker.unref();
      const socket = this.sessions.get(msg.session);
      if (!socket) return; // a connection already ended
      if (msg.type === 'data') {
        if (msg.bytes.byteLength) socket.push(Buffer.from(msg.bytes));
      } else socket.destroy(new Error(`embedded database: ${msg.message}`));
    }
  }

  private crash(cause: Error): void {
    if (this.crashed || this.closing) return;
    const err = new Error(`The embedded database's worker thread stopped unexpectedly: ${cause.message}`, { cause });
    this.crashed = err;
    for (const socket of this.sessions.values()) socket.destroy(err);
    this.sessions.clear();
    this.onCrash(err);
  }
}

/** The default for a crashed worker: an uncaught error (the process prints it and exits non-zero). */
function throwUncaught(err: Error): void {
  process.nextTick(() => {
    throw err;
  });
}

/**
 * The stream `pg`'s `Connection` reads and writes in place of a TCP socket. Writes made in one
 * tick (`pg` writes Parse, Bind, Describe, Execute and Sync of a query one after the other) are
 * posted as one batch; the worker's answers are pushed as they come.
 */
export class WorkerSocket extends Duplex {
  private pending: Uint8Array[] = [];
  private scheduled = false;

  constructor(
    private readonly owner: EmbeddedWorker,
    private readonly session: number,
  ) {
    super();
  }

  /** `pg` calls these on a socket; nothing to do here */
  setNoDelay(): this {
    return this;
  }
  setKeepAlive(): this {
    return this;
  }
  ref(): this {
    return this;
  }
  unref(): this {
    return this;
  }

  /** "Connected" at once: the startup packet `pg` writes next starts the session in the worker. */
  connect(): this {
    process.nextTick(() => this.emit('connect'));
    return this;
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.pending.push(chunk);
    if (!this.scheduled) {
      this.scheduled = true;
      process.nextTick(() => this.flush());
    }
    callback();
  }

  override _read(): void {
    // answers are pushed when the worker posts them
  }

  override _final(callback: (error?: Error | null) => void): void {
    this.flush();
    this.push(null); // the "socket" closes: `pg` sees 'end' and 'close'
    callback();
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    this.owner.forget(this.session);
    callback(err);
  }

  private flush(): void {
    this.scheduled = false;
    if (!this.pending.length) return;
    // one buffer of its own (not a slice of Node's shared pool), so it can be transferred
    const total = this.pending.reduce((n, c) => n + c.byteLength, 0);
    const batch = new Uint8Array(total);
    let at = 0;
    for (const chunk of this.pending) {
      batch.set(chunk, at);
      at += chunk.byteLength;
    }
    this.pending = [];
    this.owner.send(this.session, batch);
  }
}
