import { Logger, StreamableFile } from '@nestjs/common';
import type { Response } from 'express';
import { Readable } from 'node:stream';
import { Page, toEnvelope } from '../pagination/page';

const logger = new Logger('StreamedAnswer');

/**
 * A JSON list answered as it is read: `chunks` (arrays of items in list order, from `readInChunks`
 * or a merge of such reads) are serialised one chunk at a time and written with the socket's
 * backpressure, so the process holds one chunk of a list, never the list (docs/decisions.md
 * "Memory per request"). The bytes are what `res.json` would send for the whole array.
 *
 * The first chunk is read before anything is sent: a 404, a 503 `SERVER_BUSY` or a database error
 * there is an ordinary error answer. A failure after the first byte cuts the transfer (the
 * connection is destroyed), so a client never takes a short list for a whole one.
 *
 * `page`: the answer is Plane's page envelope around the items (`results` last, as `toEnvelope`
 * writes it), its counts and cursors from `page` (whose `results` are the page's light rows, one
 * per item `chunks` yields); without it, the bare array.
 */
export async function streamedList(chunks: AsyncIterable<unknown[]>, page?: Page<unknown>): Promise<StreamableFile> {
  const iterator = chunks[Symbol.asyncIterator]();
  const first = await iterator.next();
  const [before, after] = page ? envelopeAround(page) : ['', ''];
  async function* body(): AsyncGenerator<string> {
    let separator = '';
    yield `${before}[`;
    for (let step = first; !step.done; step = await iterator.next()) {
      if (step.value.length === 0) continue;
      yield separator + step.value.map((item) => JSON.stringify(item)).join(',');
      separator = ',';
    }
    yield `]${after}`;
  }
  const stream = Readable.from(body(), { objectMode: false, highWaterMark: 64 * 1024 });
  return new StreamableFile(stream, { type: 'application/json; charset=utf-8' }).setErrorHandler(
    (error: Error, res) => {
      logger.warn({ error: { type: error.name, message: error.message } }, 'Streamed answer cut');
      void iterator.return?.(undefined);
      (res as unknown as Response).destroy();
    },
  );
}

/** The envelope's text before and after its `results` array. */
function envelopeAround(page: Page<unknown>): [string, string] {
  const envelope = { ...toEnvelope(page), results: '\u0000' };
  const text = JSON.stringify(envelope);
  const at = text.indexOf('"\\u0000"');
  return [text.slice(0, at), text.slice(at + '"\\u0000"'.length)];
}
