import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddInstance1795267277879 implements MigrationInterface {
  name = 'AddInstance1795267277879';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "instances" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "singleton" boolean NOT NULL DEFAULT true,
                "instance_name" character varying(255) NOT NULL DEFAULT 'Meridian',
                "instance_key" character varying(24) NOT NULL,
                "edition" character varying(255) NOT NULL DEFAULT 'PLANE_COMMUNITY',
                "domain" text,
                "is_setup_done" boolean NOT NULL DEFAULT false,
                "is_signup_screen_visited" boolean NOT NULL DEFAULT false,
                "is_telemetry_enabled" boolean NOT NULL DEFAULT true,
                "is_support_required" boolean NOT NULL DEFAULT true,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_11862209053330b4765f7f54178" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_instances_singleton" ON "instances" ("singleton")
        `);
    await queryRunner.query(`
            CREATE TABLE "instance_admins" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "user_id" uuid NOT NULL,
                "instance_id" uuid NOT NULL,
                "role" smallint NOT NULL DEFAULT '20',
                "is_verified" boolean NOT NULL DEFAULT false,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "created_by_id" uuid,
                CONSTRAINT "PK_e211c0b0e0bc1deb14b1239160c" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_instance_admins_user" ON "instance_admins" ("user_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "instance_configurations" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "key" character varying(100) NOT NULL,
                "value" text NOT NULL,
                "category" character varying(100) NOT NULL,
                "is_encrypted" boolean NOT NULL DEFAULT false,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "created_by_id" uuid,
                "updated_by_id" uuid,
                CONSTRAINT "PK_b08515c7ba973b149a8c02bbef8" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_instance_configurations_key" ON "instance_configurations" ("key")
        `);
    await queryRunner.query(`
            CREATE TABLE "instance_admin_sessions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "user_id" uuid NOT NULL,
                "access_digest" character(64) NOT NULL,
                "access_expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "refresh_digest" character(64) NOT NULL,
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "revoked_at" TIMESTAMP WITH TIME ZONE,
                "user_agent" character varying(512),
                "ip_address" character varying(64),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_719ac9c1b409fab0767ed6a12c1" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_instance_admin_sessions_user" ON "instance_admin_sessions" ("user_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_instance_admin_sessions_access" ON "instance_admin_sessions" ("access_digest")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_instance_admin_sessions_refresh" ON "instance_admin_sessions" ("refresh_digest")
        `);
    await queryRunner.query(`
            ALTER TABLE "instance_admins"
            ADD CONSTRAINT "FK_23a6da751a6891fd56a8c5fef7b" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "instance_admins"
            ADD CONSTRAINT "FK_be8f70db74334cb8d0477a5b7b3" FOREIGN KEY ("instance_id") REFERENCES "instances"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "instance_admin_sessions"
            ADD CONSTRAINT "FK_bbe4dc17aa557e9b3a3cf2a263c" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "instance_admin_sessions" DROP CONSTRAINT "FK_bbe4dc17aa557e9b3a3cf2a263c"
        `);
    await queryRunner.query(`
            ALTER TABLE "instance_admins" DROP CONSTRAINT "FK_be8f70db74334cb8d0477a5b7b3"
        `);
    await queryRunner.query(`
            ALTER TABLE "instance_admins" DROP CONSTRAINT "FK_23a6da751a6891fd56a8c5fef7b"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_instance_admin_sessions_refresh"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_instance_admin_sessions_access"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_instance_admin_sessions_user"
        `);
    await queryRunner.query(`
            DROP TABLE "instance_admin_sessions"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_instance_configurations_key"
        `);
    await queryRunner.query(`
            DROP TABLE "instance_configurations"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_instance_admins_user"
        `);
    await queryRunner.query(`
            DROP TABLE "instance_admins"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_instances_singleton"
        `);
    await queryRunner.query(`
            DROP TABLE "instances"
        `);
  }
}
