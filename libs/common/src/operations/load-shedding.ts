import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { getHeapStatistics } from 'node:v8';
import { sendError } from '../errors/error-body';

/** How often the heap is sampled (ms); a request reads the last sample, never the heap itself. */
const SAMPLE_MS = 100;
/** `Retry-After` (seconds) of a shed request. */
export const SHED_RETRY_AFTER_SECONDS = 2;

let sampler: NodeJS.Timeout | undefined;
let heapInUse = 0;

/** The share of the heap limit in use at the last sample (0 to 1). */
export function heapPressure(): number {
  return heapInUse;
}

function sample(): void {
  const heap = getHeapStatistics();
  heapInUse = heap.used_heap_size / heap.heap_size_limit;
}

/**
 * Sheds load before the heap runs out: while the JavaScript heap in use is above `ratio` of its
 * limit (`HEAP_SHED_RATIO`, 0.85 by default, of `--max-old-space-size`), every new request but
 * `/health` and `/metrics` is answered 503 `SERVER_BUSY` with `Retry-After`, and the requests in
 * flight finish with the memory they have. It is the net under the bounds by design (field size
 * limits, lists read in chunks, `AnswerBudget`), for what they do not foresee: a process that answers
 * 503 for a moment serves its other clients again a moment later, one that dies of "heap limit" drops
 * every request it holds. The heap is sampled every 100 ms by one timer per process (unref'd).
 */
export function shedUnderHeapPressure(ratio: number): RequestHandler {
  if (!sampler) {
    sample();
    sampler = setInterval(sample, SAMPLE_MS);
    sampler.unref();
  }
  return (req: Request, res: Response, next: NextFunction) => {
    if (heapInUse <= ratio || req.path === '/health' || req.path === '/metrics') return next();
    res.setHeader('Retry-After', String(SHED_RETRY_AFTER_SECONDS));
    sendError(res, 'SERVER_BUSY');
  };
}
