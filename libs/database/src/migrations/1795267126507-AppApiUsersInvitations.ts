import { MigrationInterface, QueryRunner } from 'typeorm';

export class AppApiUsersInvitations1795267126507 implements MigrationInterface {
  name = 'AppApiUsersInvitations1795267126507';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "workspace_member_invites" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "email" character varying(255) NOT NULL,
                "accepted" boolean NOT NULL DEFAULT false,
                "responded_at" TIMESTAMP WITH TIME ZONE,
                "message" text NOT NULL DEFAULT '',
                "role" smallint NOT NULL DEFAULT '5',
                "token_digest" character(64) NOT NULL,
                CONSTRAINT "PK_d0df6009e218fd0041c8cc39184" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_workspace_member_invites_email" ON "workspace_member_invites" ("email")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_workspace_member_invites_live" ON "workspace_member_invites" ("workspace_id", "email")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "users"
            ADD "cover_image" text
        `);
    await queryRunner.query(`
            ALTER TABLE "users"
            ADD "username" character varying(128) NOT NULL DEFAULT gen_random_uuid()
        `);
    await queryRunner.query(`
            ALTER TABLE "users"
            ADD "mobile_number" character varying(255)
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_users_username" ON "users" ("username")
        `);
    await queryRunner.query(`
            ALTER TABLE "workspace_member_invites"
            ADD CONSTRAINT "FK_7db80c4548efcab4520cf6ada1f" FOREIGN KEY ("workspace_id") REFERENCES "workspaces"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "workspace_member_invites" DROP CONSTRAINT "FK_7db80c4548efcab4520cf6ada1f"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_users_username"
        `);
    await queryRunner.query(`
            ALTER TABLE "users" DROP COLUMN "mobile_number"
        `);
    await queryRunner.query(`
            ALTER TABLE "users" DROP COLUMN "username"
        `);
    await queryRunner.query(`
            ALTER TABLE "users" DROP COLUMN "cover_image"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_workspace_member_invites_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_workspace_member_invites_email"
        `);
    await queryRunner.query(`
            DROP TABLE "workspace_member_invites"
        `);
  }
}
