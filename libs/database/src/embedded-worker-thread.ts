/**
 * The embedded database's worker thread (`EMBEDDED_DB_THREAD=worker`; the main-thread side is
 * `embedded-worker.ts`). Opens PGlite on `workerData.pgDir` and executes the PostgreSQL wire
 * protocol bytes the main thread posts, one batch after the other, answering each batch's raw
 * response bytes (transferred, not copied).
 *
 * Messages in: `{ type: 'data', session, bytes }` (protocol bytes of one `pg` connection; a new
 * session starts with its startup packet), `{ type: 'close' }`.
 * Messages out: `{ type: 'ready' }` or `{ type: 'open-failed', message, stack }` once, then one
 * answer per batch, `{ type: 'data', session, bytes }` (possibly empty), `{ type: 'session-failed', session, message }` (PGlite threw
 * instead of answering: that session is broken), and `{ type: 'closed', error? }` after `close`.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { pgliteExtensions, pgliteStartParams } from './embedded-settings';

export interface WorkerInit {
  pgDir: string;
  /** PostgreSQL settings for PGlite's start (`embeddedSettings`), e.g. `{ shared_buffers: '32MB' }` */
  settings: Record<string, string>;
}

export type ToWorker = { type: 'data'; session: number; bytes: ArrayBuffer } | { type: 'close' };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'open-failed'; message: string; stack?: string }
  | { type: 'data'; session: number; bytes: ArrayBuffer }
  | { type: 'session-failed'; session: number; message: string }
  | { type: 'closed'; error?: string };

/** A Sync message: ends whatever extended-protocol sequence a dropped connection left half done. */
const SYNC = new Uint8Array([0x53, 0, 0, 0, 4]);

async function main(): Promise<void> {
  const port = parentPort!;
  const post = (msg: FromWorker, transfer: ArrayBuffer[] = []) => port.postMessage(msg, transfer);
  const { PGlite } = await import('@electric-sql/pglite');
  let pglite: InstanceType<typeof PGlite>;
  try {
    const { pgDir, settings } = workerData as WorkerInit;
    pglite = await PGlite.create({
      dataDir: pgDir,
      extensions: await pgliteExtensions(),
      startParams: pgliteStartParams(PGlite.defaultStartParams, settings),
    });
  } catch (err) {
    post({ type: 'open-failed', message: (err as Error)?.message ?? String(err), stack: (err as Error)?.stack });
    return;
  }

  /** the session whose bytes PGlite's one backend last executed (0: none yet) */
  let current = 0;
  let closing = false;

  /**
   * A new `pg` connection gets a clean session, as a new PostgreSQL backend would: the previous
   * connection's open transaction (one dropped mid-transaction) is rolled back and its prepared
   * statements are deallocated (the new connection prepares its named statements again).
   */
  const resetSession = async () => {
    await pglite.execProtocolRaw(SYNC);
    if (pglite.isInTransaction()) await pglite.exec('ROLLBACK');
    await pglite.exec('DISCARD ALL');
  };

  const handle = async (msg: ToWorker) => {
    if (msg.type === 'close') {
      closing = true;
      let error: string | undefined;
      try {
        await pglite.close();
      } catch (err) {
        error = (err as Error)?.message ?? String(err);
      }
      post({ type: 'closed', error });
      port.close();
      return;
    }
    if (closing) return;
    const bytes = new Uint8Array(msg.bytes);
    try {
      if (msg.session !== current) {
        if (current !== 0) await resetSession();
        current = msg.session;
      }
      // the answer's bytes as PostgreSQL writes them (views into PGlite's memory: copied), not
      // parsed here (`execProtocolRaw` would also parse them into messages: the main thread's `pg` does)
      const chunks: Uint8Array[] = [];
      let size = 0;
      const onRawData = (chunk: Uint8Array) => {
        chunks.push(chunk.slice());
        size += chunk.byteLength;
      };
      if (bytes[0] === 0)
        onRawData(await pglite.execProtocolRaw(bytes)); // the startup packet
      else await pglite.execProtocolRawStream(bytes, { onRawData });
      const out = chunks.length === 1 ? chunks[0] : new Uint8Array(size);
      if (chunks.length !== 1) {
        let at = 0;
        for (const c of chunks) {
          out.set(c, at);
          at += c.byteLength;
        }
      }
      // every batch is answered (an empty answer too): the main thread counts what is in flight
      const own = out.buffer as ArrayBuffer;
      post({ type: 'data', session: msg.session, bytes: own }, [own]);
    } catch (err) {
      post({ type: 'session-failed', session: msg.session, message: (err as Error)?.message ?? String(err) });
    }
  };

  let queue = Promise.resolve();
  port.on('message', (msg: ToWorker) => {
    queue = queue.then(() => handle(msg));
  });
  post({ type: 'ready' });
}

if (parentPort) void main();
