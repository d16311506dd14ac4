import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `email_notification_logs`: Plane's `EmailNotificationLog`, one row per receiver and work item
 * history row, stacked into mails by `EmailNotificationService.sendPending` (with its retry state:
 * `attempts`, `next_attempt_at`, `last_error`), and the partial indexes of the pending rows (the sender's claim) and of the finished ones (pruning).
 */
export class AddEmailNotificationLogs1795931302345 implements MigrationInterface {
  name = 'AddEmailNotificationLogs1795931302345';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "email_notification_logs" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "receiver_id" uuid NOT NULL,
                "triggered_by_id" uuid NOT NULL,
                "entity_identifier" uuid NOT NULL,
                "entity_name" character varying(255) NOT NULL DEFAULT 'issue',
                "data" jsonb NOT NULL,
                "processed_at" TIMESTAMP WITH TIME ZONE,
                "sent_at" TIMESTAMP WITH TIME ZONE,
                "attempts" integer NOT NULL DEFAULT '0',
                "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "last_error" text,
                CONSTRAINT "PK_22d6f3a770a4195b3b3b3cf311a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_email_notification_logs_receiver" ON "email_notification_logs" ("receiver_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_email_notification_logs_due" ON "email_notification_logs" ("next_attempt_at")
            WHERE "processed_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_email_notification_logs_processed" ON "email_notification_logs" ("processed_at")
            WHERE "processed_at" IS NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_email_notification_logs_processed"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_email_notification_logs_due"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_email_notification_logs_receiver"
        `);
    await queryRunner.query(`
            DROP TABLE "email_notification_logs"
        `);
  }
}
