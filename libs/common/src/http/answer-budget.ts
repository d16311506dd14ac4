import { MeridianError } from '../errors/meridian.error';

/** What lends a chunk its memory: the budget itself, or one answer's share of it (`forOneAnswer`). */
export interface AnswerLender {
  acquire(bytes: number): Promise<() => void>;
}

/**
 * How many bytes of rows the process holds at once for answers that are read and written in
 * chunks (`readInChunks`, `streamedList`): a chunk of rows is read only once its estimated size
 * (the rows' text, as the database measures it) fits in what is left, and given back once it is
 * written to the socket. So ten clients reading the largest work item history at once use at most
 * this much for their rows, whatever the history's length; the rest wait their turn. Sized by
 * `ANSWER_MEMORY_BUDGET` (bytes; docs/decisions.md "Memory per request").
 *
 * A waiter that has not been served after `waitMs` gets 503 `SERVER_BUSY` with `Retry-After`: before
 * the answer's first byte that is the answer; later, the streamed answer is cut (the client sees a
 * broken transfer, never a short list that looks whole).
 */
export class AnswerBudget implements AnswerLender {
  private available: number;
  private readonly waiters: Array<{ bytes: number; grant: () => void }> = [];

  constructor(
    readonly capacity: number,
    private readonly waitMs = 10_000,
  ) {
    this.available = capacity;
  }

  /** Bytes not lent out now (for `/metrics` and tests). */
  get free(): number {
    return this.available;
  }

  /**
   * Lends `bytes` (at most the whole capacity: a single larger chunk takes all of it) and resolves
   * with the function that gives them back (call it once). FIFO: a large chunk is not starved by
   * small ones behind it.
   */
  async acquire(bytes: number): Promise<() => void> {
    const want = this.clamp(bytes);
    if (this.waiters.length === 0 && this.available >= want) {
      this.available -= want;
      return this.releaser(want);
    }
    return new Promise((resolve, reject) => {
      const waiter = {
        bytes: want,
        grant: () => {
          clearTimeout(timer);
          resolve(this.releaser(want));
        },
      };
      const timer = setTimeout(() => {
        const at = this.waiters.indexOf(waiter);
        if (at >= 0) this.waiters.splice(at, 1);
        this.drain();
        reject(new MeridianError('SERVER_BUSY', undefined, {}, Math.ceil(this.waitMs / 1000)));
      }, this.waitMs);
      this.waiters.push(waiter);
    });
  }

  /**
   * The leases of one answer that reads several lists at once (a work item's history merges its
   * history rows and its comments): while the answer holds a lease, a further one is lent at once,
   * past the capacity if need be, instead of waiting for leases that only this answer can give back
   * (two such answers would otherwise each hold one and wait for the other's). An answer so holds at
   * most one chunk per list beyond its first.
   */
  forOneAnswer(): AnswerLender {
    let held = 0;
    return {
      acquire: async (bytes: number) => {
        let release: () => void;
        if (held > 0) {
          const want = this.clamp(bytes);
          this.available -= want;
          release = this.releaser(want);
        } else {
          release = await this.acquire(bytes);
        }
        held++;
        let done = false;
        return () => {
          if (done) return;
          done = true;
          held--;
          release();
        };
      },
    };
  }

  /** What a lease of `bytes` takes: at least 1, at most the whole capacity. */
  private clamp(bytes: number): number {
    return Math.max(1, Math.min(Math.ceil(bytes), this.capacity));
  }

  private releaser(bytes: number): () => void {
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.available += bytes;
      this.drain();
    };
  }

  private drain(): void {
    while (this.waiters.length > 0 && this.available >= this.waiters[0].bytes) {
      const next = this.waiters.shift()!;
      this.available -= next.bytes;
      next.grant();
    }
  }
}

/** The process's budget; `configureAnswerBudget` sets its size at start (default 64 MiB). */
let shared = new AnswerBudget(64 * 1024 * 1024);

export function configureAnswerBudget(bytes: number, waitMs?: number): void {
  shared = new AnswerBudget(bytes, waitMs);
}

export function answerBudget(): AnswerBudget {
  return shared;
}
