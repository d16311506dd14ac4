import { Injectable } from '@nestjs/common';
import { IssueRepository } from './issue.repository';

type Row = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The most work items one batch writes: a bound on one transaction's size and on one pipeline's bytes. */
export const MAX_CREATE_BATCH = 64;

interface CreateJob {
  /** `$1`–`$23` of `SQL_CREATE_ISSUE_IN_BATCH` */
  values: unknown[];
  stateless: boolean;
  resolve(row: Row): void;
  reject(err: unknown): void;
}

/**
 * Group commit for work item creates (issue #11; docs/decisions.md "Creates in one project are
 * written in batches"). Creates in one project are serialised by the project's counter row
 * (`sequence_id` is taken under its lock), so while one transaction holds it the next creators
 * wait anyway. Here they wait in this process instead: a create whose checks are done is queued
 * per project; when nothing of that project is being written it is written at once (a batch of
 * one: no added latency), otherwise it joins the next batch, written when the current one is
 * committed. A batch is one transaction: the counter takes all its numbers in one upsert
 * (`SQL_NEXT_SEQUENCES`), then each work item is its own statement, in queue order, so its
 * `sort_order` sees the previous one's row; BEGIN, the statements and COMMIT go in one pipeline.
 *
 * What the caller gets is what a create of its own would give: the row written, or the error of
 * its own statement. When a statement of a batch of several fails, the whole batch is rolled back
 * (nothing of it is kept, and no number is used) and its work items are written again one by one,
 * in order, each in a transaction of its own, so that only the failing one fails and the others
 * get the numbers a one-by-one run would give them.
 *
 * Only for creates whose transaction writes nothing else (no notification, no webhook event, no
 * intake row): the batch runs without TypeORM, so no transaction subscriber hears it (see
 * `IssueCommandService.create`). Across processes the counter row lock still orders the batches.
 */
@Injectable()
export class IssueCreateBatcher {
  /** project id → creates waiting for the batch being written in that project */
  private readonly waiting = new Map<string, CreateJob[]>();

  constructor(private readonly repo: IssueRepository) {}

  /** How many creates of the project wait for the batch being written (0 when none is being written). */
  queued(projectId: string): number {
    return this.waiting.get(projectId)?.length ?? 0;
  }

  /**
   * Writes one work item (`values`: `$1`–`$23` of `SQL_CREATE_ISSUE`; `stateless` when `$7` is null)
   * and answers its row (the work item's columns and `activity_id`). Rejects with the statement's
   * `QueryFailedError` (e.g. the unique violation of a taken `external_id`).
   */
  create(projectId: string, values: unknown[], stateless: boolean): Promise<Row> {
    return new Promise<Row>((resolve, reject) => {
      const job: CreateJob = { values, stateless, resolve, reject };
      const queue = this.waiting.get(projectId);
      if (queue) {
        queue.push(job);
        return;
      }
      this.waiting.set(projectId, []);
      void this.drain(projectId, [job]);
    });
  }

  /** Writes `first`, then whatever queued meanwhile, batch after batch, until the project's queue is empty. */
  private async drain(projectId: string, first: CreateJob[]): Promise<void> {
    let batch = first;
    try {
      while (batch.length) {
        await this.writeBatch(projectId, batch);
        batch = this.waiting.get(projectId)!.splice(0, MAX_CREATE_BATCH);
      }
    } finally {
      // nothing awaits between the empty splice and here: a create arriving now starts a new drain
      const left = this.waiting.get(projectId) ?? [];
      this.waiting.delete(projectId);
      for (const job of left) job.reject(new Error('work item create batch stopped'));
    }
  }

  private async writeBatch(projectId: string, batch: CreateJob[]): Promise<void> {
    try {
      const rows = await this.write(projectId, batch);
      batch.forEach((job, k) => job.resolve(rows[k]));
    } catch (err) {
      if (batch.length === 1) return batch[0].reject(err);
      for (const job of batch) {
        try {
          job.resolve((await this.write(projectId, [job]))[0]);
        } catch (own) {
          job.reject(own);
        }
      }
    }
  }

  /** One transaction: the counter takes `jobs.length` numbers, then one statement per work item. */
  private write(projectId: string, jobs: CreateJob[]): Promise<Row[]> {
    return this.repo.insertBatch(projectId, jobs);
  }
}
