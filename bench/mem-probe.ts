/**
 * Bench-only memory probe, preloaded into the server by `soak.bench --probe`
 * (`NODE_OPTIONS=--require dist/bench/mem-probe.js`): once a second it appends one JSON line to
 * `MEM_PROBE_FILE` with where the process's memory is: V8's heap (by space), memory held outside
 * it for JavaScript objects (`external`, `array_buffers`), and the resident set. Not part of the
 * server: nothing in apps/ or libs/ loads it.
 */
import * as fs from 'node:fs';
import { getHeapSpaceStatistics } from 'node:v8';

const file = process.env.MEM_PROBE_FILE;
if (file) {
  const MiB = 1048576;
  const fd = fs.openSync(file, 'a');
  const t0 = Date.now();
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    const spaces: Record<string, number> = {};
    for (const s of getHeapSpaceStatistics()) spaces[s.space_name] = +(s.space_size / MiB).toFixed(1);
    const line = {
      t: Math.round((Date.now() - t0) / 1000),
      rss: +(m.rss / MiB).toFixed(1),
      heap_total: +(m.heapTotal / MiB).toFixed(1),
      heap_used: +(m.heapUsed / MiB).toFixed(1),
      external: +(m.external / MiB).toFixed(1),
      array_buffers: +(m.arrayBuffers / MiB).toFixed(1),
      spaces,
    };
    fs.writeSync(fd, JSON.stringify(line) + '\n');
  }, 1000);
  timer.unref();
}
