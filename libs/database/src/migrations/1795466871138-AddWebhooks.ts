import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddWebhooks1795466871138 implements MigrationInterface {
  name = 'AddWebhooks1795466871138';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "webhooks" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "url" character varying(1024) NOT NULL,
                "is_active" boolean NOT NULL DEFAULT true,
                "secret_sealed" text NOT NULL,
                "project" boolean NOT NULL DEFAULT false,
                "issue" boolean NOT NULL DEFAULT false,
                "module" boolean NOT NULL DEFAULT false,
                "cycle" boolean NOT NULL DEFAULT false,
                "issue_comment" boolean NOT NULL DEFAULT false,
                "failure_count" integer NOT NULL DEFAULT '0',
                CONSTRAINT "PK_9e8795cfc899ab7bdaa831e8527" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhooks_workspace_active" ON "webhooks" ("workspace_id")
            WHERE "is_active"
                AND "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_webhooks_workspace_url_live" ON "webhooks" ("workspace_id", "url")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "webhook_logs" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "webhook_id" uuid NOT NULL,
                "delivery_id" uuid,
                "event_type" character varying(255),
                "request_method" character varying(10),
                "request_headers" text,
                "request_body" text,
                "response_status" text,
                "response_headers" text,
                "response_body" text,
                "retry_count" smallint NOT NULL DEFAULT '0',
                CONSTRAINT "PK_c41f6cdf59cdfe3704807650896" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_logs_webhook" ON "webhook_logs" ("webhook_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "webhook_deliveries" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "workspace_id" uuid NOT NULL,
                "webhook_id" uuid NOT NULL,
                "event" character varying(32) NOT NULL,
                "action" character varying(16) NOT NULL,
                "body" text NOT NULL,
                "status" character varying(16) NOT NULL DEFAULT 'pending',
                "attempts" integer NOT NULL DEFAULT '0',
                "next_attempt_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "last_error" text,
                "finished_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_535dd409947fb6d8fc6dfc0112a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_deliveries_webhook" ON "webhook_deliveries" ("webhook_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_webhook_deliveries_due" ON "webhook_deliveries" ("next_attempt_at")
            WHERE "status" = 'pending'
        `);
    await queryRunner.query(`
            ALTER TABLE "webhooks"
            ADD CONSTRAINT "FK_3ed8fd5f3708d4acac990ad2369" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "webhook_logs"
            ADD CONSTRAINT "FK_cb81c41dac67e949f650d56147e" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "webhook_logs"
            ADD CONSTRAINT "FK_0b8ec678bfddfab16abccafb3c7" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "webhook_deliveries"
            ADD CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2" FOREIGN KEY ("webhook_id") REFERENCES "webhooks"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "FK_a0286aeb96db651efd1ae2966f2"
        `);
    await queryRunner.query(`
            ALTER TABLE "webhook_logs" DROP CONSTRAINT "FK_0b8ec678bfddfab16abccafb3c7"
        `);
    await queryRunner.query(`
            ALTER TABLE "webhook_logs" DROP CONSTRAINT "FK_cb81c41dac67e949f650d56147e"
        `);
    await queryRunner.query(`
            ALTER TABLE "webhooks" DROP CONSTRAINT "FK_3ed8fd5f3708d4acac990ad2369"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_webhook_deliveries_due"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_webhook_deliveries_webhook"
        `);
    await queryRunner.query(`
            DROP TABLE "webhook_deliveries"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_webhook_logs_webhook"
        `);
    await queryRunner.query(`
            DROP TABLE "webhook_logs"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_webhooks_workspace_url_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_webhooks_workspace_active"
        `);
    await queryRunner.query(`
            DROP TABLE "webhooks"
        `);
  }
}
