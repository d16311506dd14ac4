import { Logger, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { Readable } from 'node:stream';

const logger = new Logger('StreamedLines');

/**
 * A JSON-lines answer (`application/x-ndjson`: one JSON object per line, each line ending in
 * `\n`) written as it is read, one chunk at a time with the socket's backpressure, as
 * `streamedList` does for a JSON array: the process holds one chunk, never the list. The first
 * chunk is read before anything is sent (its errors are ordinary error answers); a failure after
 * the first byte cuts the connection, so a client never takes a short file for a whole one.
 * `filename`: sent as an attachment under that name.
 */
export async function streamedLines(chunks: AsyncIterable<unknown[]>, filename?: string): Promise<StreamableFile> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* body(): AsyncGenerator<string> {
    for (let step = first; !step.done; step = await iterator.next()) {
      if (step.value.length === 0) continue;
      yield step.value.map((item) => `${JSON.stringify(item)}\n`).join('');
    }
  }
  const stream = Readable.from(body(), { objectMode: false, highWaterMark: 64 * 1024 });
  return new StreamableFile(stream, {
    type: 'application/x-ndjson; charset=utf-8',
    disposition: filename ? `attachment; filename="${filename.replace(/["\\\r\n]/g, '')}"` : undefined,
  }).setErrorHandler((error: Error, res) => {
    logger.warn({ error: { type: error.name, message: error.message } }, 'Streamed lines cut');
    void iterator.return?.(undefined);
    (res as unknown as Response).destroy();
  });
}
