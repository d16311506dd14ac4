import { MigrationInterface, QueryRunner } from 'typeorm';

export class Initial1795266269108 implements MigrationInterface {
  name = 'Initial1795266269108';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "users" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "email" character varying(255) NOT NULL,
                "password_hash" character varying(255),
                "first_name" character varying(255) NOT NULL DEFAULT '',
                "last_name" character varying(255) NOT NULL DEFAULT '',
                "display_name" character varying(255) NOT NULL,
                "avatar" text,
                "is_active" boolean NOT NULL DEFAULT true,
                "is_bot" boolean NOT NULL DEFAULT false,
                "is_email_verified" boolean NOT NULL DEFAULT false,
                "user_timezone" character varying(255) NOT NULL DEFAULT 'UTC',
                "last_login_at" TIMESTAMP WITH TIME ZONE,
                "last_login_medium" character varying(30),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                CONSTRAINT "PK_a3ffb1c0c8416b9fc6f907b7433" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_email" ON "users" ("email")
        `);
    await queryRunner.query(`
            CREATE TABLE "workspaces" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "name" character varying(80) NOT NULL,
                "slug" character varying(48) NOT NULL,
                "owner_id" uuid NOT NULL,
                "organization_size" character varying(20),
                "timezone" character varying(255) NOT NULL DEFAULT 'UTC',
                "logo" text,
                CONSTRAINT "PK_098656ae401f3e1a4586f47fd8e" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspaces_slug" ON "workspaces" ("slug")
        `);
    await queryRunner.query(`
            CREATE TABLE "api_tokens" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "label" character varying(255) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "token_digest" character(64) NOT NULL,
                "is_active" boolean NOT NULL DEFAULT true,
                "last_used" TIMESTAMP WITH TIME ZONE,
                "user_type" smallint NOT NULL DEFAULT '0',
                "expired_at" TIMESTAMP WITH TIME ZONE,
                "is_service" boolean NOT NULL DEFAULT false,
                "user_id" uuid NOT NULL,
                "workspace_id" uuid NOT NULL,
                CONSTRAINT "PK_c587455266b5fa8dace7194caac" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_api_tokens_digest" ON "api_tokens" ("token_digest")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_api_tokens_user" ON "api_tokens" ("user_id")
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_api_tokens_workspace" ON "api_tokens" ("workspace_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "auth_sessions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "user_id" uuid NOT NULL,
                "medium" character varying(30) NOT NULL,
                "user_agent" character varying(512),
                "ip_address" character varying(64),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "last_used_at" TIMESTAMP WITH TIME ZONE,
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "revoked_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_641507381f32580e8479efc36cd" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_auth_sessions_user" ON "auth_sessions" ("user_id")
        `);
    await queryRunner.query(`
            CREATE TABLE "auth_tokens" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "session_id" uuid NOT NULL,
                "kind" character varying(10) NOT NULL,
                "digest" character(64) NOT NULL,
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "expires_at" TIMESTAMP WITH TIME ZONE NOT NULL,
                "used_at" TIMESTAMP WITH TIME ZONE,
                CONSTRAINT "PK_41e9ddfbb32da18c4e85e45c2fd" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_auth_tokens_session" ON "auth_tokens" ("session_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_auth_tokens_digest" ON "auth_tokens" ("digest")
        `);
    await queryRunner.query(`
            CREATE TABLE "projects" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "name" character varying(255) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "description_text" jsonb,
                "description_html" jsonb,
                "network" smallint NOT NULL DEFAULT '2',
                "identifier" character varying(12) NOT NULL,
                "default_assignee_id" uuid,
                "project_lead_id" uuid,
                "emoji" character varying(255),
                "icon_prop" jsonb,
                "module_view" boolean NOT NULL DEFAULT true,
                "cycle_view" boolean NOT NULL DEFAULT true,
                "issue_views_view" boolean NOT NULL DEFAULT true,
                "page_view" boolean NOT NULL DEFAULT true,
                "intake_view" boolean NOT NULL DEFAULT false,
                "is_time_tracking_enabled" boolean NOT NULL DEFAULT false,
                "is_issue_type_enabled" boolean NOT NULL DEFAULT false,
                "guest_view_all_features" boolean NOT NULL DEFAULT false,
                "cover_image" text,
                "estimate_id" uuid,
                "archive_in" smallint NOT NULL DEFAULT '0',
                "close_in" smallint NOT NULL DEFAULT '0',
                "logo_props" jsonb NOT NULL DEFAULT '{}',
                "default_state_id" uuid,
                "archived_at" TIMESTAMP WITH TIME ZONE,
                "timezone" character varying(255) NOT NULL DEFAULT 'UTC',
                CONSTRAINT "PK_6271df0a7aed1d6c0691ce6ac50" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_projects_workspace_created" ON "projects" ("workspace_id", "created_at")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_projects_name_live" ON "projects" ("workspace_id", "name")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_projects_identifier_live" ON "projects" ("workspace_id", "identifier")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "project_members" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "member_id" uuid NOT NULL,
                "role" smallint NOT NULL DEFAULT '5',
                "is_active" boolean NOT NULL DEFAULT true,
                "sort_order" double precision NOT NULL DEFAULT '65535',
                "comment" text,
                "view_props" jsonb NOT NULL DEFAULT '{}',
                "default_props" jsonb NOT NULL DEFAULT '{}',
                "preferences" jsonb NOT NULL DEFAULT '{"pages": {"block_display": true}}',
                CONSTRAINT "PK_0b2f46f804be4aea9234c78bcc9" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_project_members_member" ON "project_members" ("member_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_project_members_live" ON "project_members" ("project_id", "member_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "states" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "name" character varying(255) NOT NULL,
                "description" text NOT NULL DEFAULT '',
                "color" character varying(255) NOT NULL,
                "slug" character varying(100) NOT NULL DEFAULT '',
                "sequence" double precision NOT NULL DEFAULT '65535',
                "group" character varying(20) NOT NULL DEFAULT 'backlog',
                "is_triage" boolean NOT NULL DEFAULT false,
                "default" boolean NOT NULL DEFAULT false,
                "external_source" character varying(255),
                "external_id" character varying(255),
                CONSTRAINT "PK_09ab30ca0975c02656483265f4f" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_states_name_live" ON "states" ("project_id", "name")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "workspace_members" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "member_id" uuid NOT NULL,
                "role" smallint NOT NULL DEFAULT '5',
                "is_active" boolean NOT NULL DEFAULT true,
                "company_role" character varying(255),
                CONSTRAINT "PK_22ab43ac5865cd62769121d2bc4" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspace_members_member" ON "workspace_members" ("member_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspace_members_live" ON "workspace_members" ("workspace_id", "member_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "workspaces"
            ADD CONSTRAINT "FK_3bc45ecdd8fdc2108bb92516dde" FOREIGN KEY ("owner_id") REFERENCES "users"("id") ON DELETE RESTRICT ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "api_tokens"
            ADD CONSTRAINT "FK_b74883f5884a42fd8496d389b25" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "api_tokens"
            ADD CONSTRAINT "FK_9c644dd21cac1a0e8fca9443373" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "auth_sessions"
            ADD CONSTRAINT "FK_50ccaa6440288a06f0ba693ccc6" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "auth_tokens"
            ADD CONSTRAINT "FK_b60a8ecb2c667a3fbad37cadd59" FOREIGN KEY ("session_id") REFERENCES "auth_sessions"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ADD CONSTRAINT "FK_af78b8fc6857fe0a10d1bb1699e" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_members"
            ADD CONSTRAINT "FK_b5729113570c20c7e214cf3f58d" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_members"
            ADD CONSTRAINT "FK_0fe49d1dbe3867d97de555f675b" FOREIGN KEY ("member_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "states"
            ADD CONSTRAINT "FK_e520f63a184398a77e0ef1a114f" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_members"
            ADD CONSTRAINT "FK_4a7c584ddfe855379598b5e20fd" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_members"
            ADD CONSTRAINT "FK_13ff6bbd60c886624acb765abcd" FOREIGN KEY ("member_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "workspace_members" DROP CONSTRAINT "FK_13ff6bbd60c886624acb765abcd"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_members" DROP CONSTRAINT "FK_4a7c584ddfe855379598b5e20fd"
        `);
    await queryRunner.query(`
            ALTER TABLE "states" DROP CONSTRAINT "FK_e520f63a184398a77e0ef1a114f"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_members" DROP CONSTRAINT "FK_0fe49d1dbe3867d97de555f675b"
        `);
    await queryRunner.query(`
            ALTER TABLE "project_members" DROP CONSTRAINT "FK_b5729113570c20c7e214cf3f58d"
        `);
    await queryRunner.query(`
            ALTER TABLE "projects" DROP CONSTRAINT "FK_af78b8fc6857fe0a10d1bb1699e"
        `);
    await queryRunner.query(`
            ALTER TABLE "auth_tokens" DROP CONSTRAINT "FK_b60a8ecb2c667a3fbad37cadd59"
        `);
    await queryRunner.query(`
            ALTER TABLE "auth_sessions" DROP CONSTRAINT "FK_50ccaa6440288a06f0ba693ccc6"
        `);
    await queryRunner.query(`
            ALTER TABLE "api_tokens" DROP CONSTRAINT "FK_9c644dd21cac1a0e8fca9443373"
        `);
    await queryRunner.query(`
            ALTER TABLE "api_tokens" DROP CONSTRAINT "FK_b74883f5884a42fd8496d389b25"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspaces" DROP CONSTRAINT "FK_3bc45ecdd8fdc2108bb92516dde"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_workspace_members_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_workspace_members_member"
        `);
    await queryRunner.query(`
            DROP TABLE "workspace_members"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_states_name_live"
        `);
    await queryRunner.query(`
            DROP TABLE "states"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_project_members_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_project_members_member"
        `);
    await queryRunner.query(`
            DROP TABLE "project_members"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_projects_identifier_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_projects_name_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_projects_workspace_created"
        `);
    await queryRunner.query(`
            DROP TABLE "projects"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_auth_tokens_digest"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_auth_tokens_session"
        `);
    await queryRunner.query(`
            DROP TABLE "auth_tokens"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_auth_sessions_user"
        `);
    await queryRunner.query(`
            DROP TABLE "auth_sessions"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_api_tokens_workspace"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_api_tokens_user"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_api_tokens_digest"
        `);
    await queryRunner.query(`
            DROP TABLE "api_tokens"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_workspaces_slug"
        `);
    await queryRunner.query(`
            DROP TABLE "workspaces"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_users_email"
        `);
    await queryRunner.query(`
            DROP TABLE "users"
        `);
  }
}
