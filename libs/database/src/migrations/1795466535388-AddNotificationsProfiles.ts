import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddNotificationsProfiles1795466535388 implements MigrationInterface {
  name = 'AddNotificationsProfiles1795466535388';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "notifications" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid,
                "entity_identifier" uuid,
                "entity_name" character varying(255) NOT NULL DEFAULT 'issue',
                "title" text NOT NULL,
                "message" jsonb,
                "message_html" text NOT NULL DEFAULT '<p></p>',
                "message_stripped" text,
                "data" jsonb,
                "sender" character varying(255) NOT NULL,
                "triggered_by_id" uuid,
                "receiver_id" uuid NOT NULL,
                "read_at" TIMESTAMP WITH TIME ZONE,
                "snoozed_till" TIMESTAMP WITH TIME ZONE,
                "archived_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_6a72c3c0f683f6462415e653c3a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_notifications_receiver_workspace_created" ON "notifications" ("receiver_id", "workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_subscribers" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "subscriber_id" uuid NOT NULL,
                "created_by_id" uuid,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_f88d7d032531e7d52384c50b35f" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_subscribers_subscriber" ON "issue_subscribers" ("subscriber_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issue_subscribers_issue_subscriber" ON "issue_subscribers" ("issue_id", "subscriber_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "profiles" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "user_id" uuid NOT NULL,
                "theme" jsonb NOT NULL DEFAULT '{}',
                "is_tour_completed" boolean NOT NULL DEFAULT false,
                "onboarding_step" jsonb NOT NULL DEFAULT '{"workspace_join": false, "profile_complete": false, "workspace_create": false, "workspace_invite": false}',
                "use_case" text,
                "role" character varying(300),
                "is_onboarded" boolean NOT NULL DEFAULT false,
                "last_workspace_id" uuid,
                "billing_address_country" character varying(255),
                "billing_address" jsonb,
                "has_billing_address" boolean NOT NULL DEFAULT false,
                "company_name" character varying(255) NOT NULL DEFAULT '',
                "is_smooth_cursor_enabled" boolean NOT NULL DEFAULT false,
                "is_mobile_onboarded" boolean NOT NULL DEFAULT false,
                "mobile_onboarding_step" jsonb NOT NULL DEFAULT '{"workspace_join": false, "profile_complete": false, "workspace_create": false}',
                "mobile_timezone_auto_set" boolean NOT NULL DEFAULT false,
                "language" character varying(255) NOT NULL DEFAULT 'en',
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_8e520eb4da7dc01d0e190447c8e" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_profiles_user" ON "profiles" ("user_id")
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."uq_profiles_user"
        `);
    await queryRunner.query(`
            DROP TABLE "profiles"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issue_subscribers_issue_subscriber"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_subscribers_subscriber"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_subscribers"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_notifications_receiver_workspace_created"
        `);
    await queryRunner.query(`
            DROP TABLE "notifications"
        `);
  }
}
