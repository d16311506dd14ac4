import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `scheduled_jobs`: the job runner's shared state, one row per scheduled job (docs/jobs.md): the
 * schedule slot last claimed, the lease of the run in progress, and the last run's times, outcome
 * and result. Rows are created by the runner for the jobs it knows. And an index on
 * `webhook_logs.created_at`, for `delete-api-logs`' batches.
 */
export class AddScheduledJobs1795740000000 implements MigrationInterface {
  name = 'AddScheduledJobs1795740000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "scheduled_jobs" (
                "name" character varying(100) NOT NULL,
                "last_slot" TIMESTAMP WITH TIME ZONE,
                "running_until" TIMESTAMP WITH TIME ZONE,
                "run_by" character varying(200),
                "started_at" TIMESTAMP WITH TIME ZONE,
                "finished_at" TIMESTAMP WITH TIME ZONE,
                "duration_ms" integer,
                "outcome" character varying(20),
                "error" text,
                "result" jsonb,
                "runs" integer NOT NULL DEFAULT '0',
                "failures" integer NOT NULL DEFAULT '0',
                CONSTRAINT "PK_5c795bbd339d082a44c10f1bb4c" PRIMARY KEY ("name")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_logs_created" ON "webhook_logs" ("created_at")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_webhook_logs_created"`);
    await queryRunner.query(`DROP TABLE "scheduled_jobs"`);
  }
}
