/**
 * Test-only preload (`NODE_OPTIONS=--require …/worker-crash-preload.js`) for the server process:
 * keeps every `worker_threads` Worker it starts and terminates them all on SIGUSR2, which is what
 * the embedded database's worker thread looks like to the server when it crashes
 * (test/e2e/embedded-worker.test.ts).
 */
import threads = require('node:worker_threads');

if (threads.isMainThread) {
  const started: threads.Worker[] = [];
  const Original = threads.Worker;
  class Tracked extends Original {
    constructor(...args: ConstructorParameters<typeof Original>) {
      super(...args);
      started.push(this);
    }
  }
  threads.Worker = Tracked; // the module object itself (an `import * as` copy would be read-only)
  process.on('SIGUSR2', () => {
    for (const worker of started) void worker.terminate();
  });
}
