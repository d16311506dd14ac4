// The request log's batched stdout: lines held for one write, flushed on a timer and at exit (a child process, no database).
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { describe, it } from 'node:test';
import { REQUEST_LOG_BATCH } from './log-format';

/**
 * Runs `body` in a child Node process with `log` (a pino logger on `requestLogDestination`, JSON)
 * in scope; resolves with the lines of its stdout, each with the ms since the child started when
 * it was read, and its exit code.
 */
function child(body: string): Promise<{ lines: Array<{ msg: string; at: number }>; code: number | null }> {
  const script = `
    const pino = require('pino');
    const { requestLogDestination } = require(${JSON.stringify(require.resolve('./log-format'))});
    const log = pino({ base: null }, requestLogDestination({ logFormat: 'json' }));
    process.stdout.write(JSON.stringify({ msg: 'started' }) + '\\n');
    ${body}
  `;
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    const lines: Array<{ msg: string; at: number }> = [];
    let started = 0;
    let rest = '';
    proc.stdout.on('data', (d: Buffer) => {
      const now = Date.now();
      const parts = (rest + d.toString('utf8')).split('\n');
      rest = parts.pop()!;
      for (const part of parts) {
        const { msg } = JSON.parse(part) as { msg: string };
        if (msg === 'started') started = now;
        lines.push({ msg, at: now - started });
      }
    });
    proc.once('error', reject);
    proc.once('close', (code) => resolve({ lines, code }));
  });
}

describe('requestLogDestination', () => {
  it('writes a line held in the buffer within the flush interval, while the process runs', async () => {
    const { lines, code } = await child(`
      log.info('one line');
      setTimeout(() => {}, ${REQUEST_LOG_BATCH.ms * 4});
    `);
    assert.equal(code, 0);
    const line = lines.find((l) => l.msg === 'one line');
    assert.ok(line, 'the line was written');
    assert.ok(line.at < REQUEST_LOG_BATCH.ms * 3, `written after ${line.at} ms, before the process ended`);
  });

  it('flushes every held line when the process exits, in order', async () => {
    const { lines, code } = await child(`
      for (let i = 0; i < 50; i++) log.info('line ' + i);
      process.exit(3);
    `);
    assert.equal(code, 3);
    assert.deepEqual(
      lines.filter((l) => l.msg.startsWith('line ')).map((l) => l.msg),
      Array.from({ length: 50 }, (_, i) => `line ${i}`),
    );
  });
});
