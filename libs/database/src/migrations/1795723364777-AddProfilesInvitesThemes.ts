import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddProfilesInvitesThemes1795723364777 implements MigrationInterface {
  name = 'AddProfilesInvitesThemes1795723364777';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "user_notification_preferences" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "user_id" uuid NOT NULL,
                "workspace_id" uuid,
                "project_id" uuid,
                "property_change" boolean NOT NULL DEFAULT true,
                "state_change" boolean NOT NULL DEFAULT true,
                "comment" boolean NOT NULL DEFAULT true,
                "mention" boolean NOT NULL DEFAULT true,
                "issue_completed" boolean NOT NULL DEFAULT true,
                CONSTRAINT "PK_2b30dfc697b16f75a55be54d464" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_user_notification_preferences_user_live" ON "user_notification_preferences" ("user_id")
            WHERE "workspace_id" IS NULL
                AND "project_id" IS NULL
                AND "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "workspace_themes" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "name" character varying(300) NOT NULL,
                "actor_id" uuid NOT NULL,
                "colors" jsonb NOT NULL DEFAULT '{}',
                CONSTRAINT "PK_10e7eb832450c688a3a1107100a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspace_themes_name_live" ON "workspace_themes" ("workspace_id", "name")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "project_member_invites" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "email" character varying(255) NOT NULL,
                "accepted" boolean NOT NULL DEFAULT false,
                "message" text,
                "responded_at" TIMESTAMP WITH TIME ZONE,
                "role" smallint NOT NULL DEFAULT '5',
                CONSTRAINT "PK_076822042a68bd432cf31782efa" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_project_member_invites_email" ON "project_member_invites" ("email")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_project_member_invites_live" ON "project_member_invites" ("project_id", "email")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "user_notification_preferences"
            ADD CONSTRAINT "FK_816517663cdb51e17cd20947556" FOREIGN KEY ("user_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_themes"
            ADD CONSTRAINT "FK_7973f7aa0d3867749f14a7c8a4c" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_themes"
            ADD CONSTRAINT "FK_4bcca8568c8de8b83ac6cb1cd9b" FOREIGN KEY ("actor_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "project_member_invites"
            ADD CONSTRAINT "FK_740c04c0e7b124788f711e11c0a" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "project_member_invites" DROP CONSTRAINT "FK_740c04c0e7b124788f711e11c0a"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_themes" DROP CONSTRAINT "FK_4bcca8568c8de8b83ac6cb1cd9b"
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_themes" DROP CONSTRAINT "FK_7973f7aa0d3867749f14a7c8a4c"
        `);
    await queryRunner.query(`
            ALTER TABLE "user_notification_preferences" DROP CONSTRAINT "FK_816517663cdb51e17cd20947556"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_project_member_invites_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_project_member_invites_email"
        `);
    await queryRunner.query(`
            DROP TABLE "project_member_invites"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_workspace_themes_name_live"
        `);
    await queryRunner.query(`
            DROP TABLE "workspace_themes"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_user_notification_preferences_user_live"
        `);
    await queryRunner.query(`
            DROP TABLE "user_notification_preferences"
        `);
  }
}
