import * as nodeModule from 'node:module';

/**
 * Turns on Node's on-disk compile cache (Node 22.1 and newer; nothing on older versions) before
 * the rest of the server is loaded: a start after the first skips compiling most of the ~1,500
 * modules Nest, TypeORM and their dependencies bring, about a third of the start-up time. The
 * cache lives in `NODE_COMPILE_CACHE`, or else `<tmpdir>/node-compile-cache`; Node checks each
 * entry against its source, and `NODE_DISABLE_COMPILE_CACHE=1` turns it off. Imported first by
 * `main.ts` (imports run in order).
 */
const enable = (nodeModule as { enableCompileCache?: (dir?: string) => unknown }).enableCompileCache;
if (typeof enable === 'function' && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  try {
    enable();
  } catch {
    // a read-only or full temporary directory: start without the cache
  }
}
