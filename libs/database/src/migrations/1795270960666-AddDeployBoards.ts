import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddDeployBoards1795270960666 implements MigrationInterface {
  name = 'AddDeployBoards1795270960666';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "deploy_boards" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "entity_name" character varying(30) NOT NULL DEFAULT 'project',
                "entity_identifier" uuid NOT NULL,
                "anchor" character varying(255) NOT NULL,
                "is_comments_enabled" boolean NOT NULL DEFAULT false,
                "is_reactions_enabled" boolean NOT NULL DEFAULT false,
                "is_votes_enabled" boolean NOT NULL DEFAULT false,
                "intake_id" uuid,
                "view_props" jsonb NOT NULL DEFAULT '{}',
                "is_activity_enabled" boolean NOT NULL DEFAULT true,
                "is_disabled" boolean NOT NULL DEFAULT false,
                CONSTRAINT "PK_5b3e8bee0619e970e7cde89f705" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_deploy_boards_project" ON "deploy_boards" ("project_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_deploy_boards_entity_live" ON "deploy_boards" ("entity_name", "entity_identifier")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_deploy_boards_anchor" ON "deploy_boards" ("anchor")
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_reactions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "actor_id" uuid NOT NULL,
                "reaction" character varying(20) NOT NULL,
                CONSTRAINT "PK_470f4f264ae6cb53f7523ffa932" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issue_reactions_actor_reaction_live" ON "issue_reactions" ("issue_id", "actor_id", "reaction")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE TABLE "issue_votes" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "actor_id" uuid NOT NULL,
                "vote" smallint NOT NULL,
                CONSTRAINT "PK_d7fb1abbb8eff7b8fcefa56042b" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issue_votes_actor_live" ON "issue_votes" ("issue_id", "actor_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "deploy_boards"
            ADD CONSTRAINT "FK_3e7f6d4603f2d9c2e442c3b2196" FOREIGN KEY ("project_id") REFERENCES "projects"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_reactions"
            ADD CONSTRAINT "FK_ef532f1079a8c491324421ed315" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_votes"
            ADD CONSTRAINT "FK_7ae9d416e37f501961814c3f093" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "issue_votes" DROP CONSTRAINT "FK_7ae9d416e37f501961814c3f093"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_reactions" DROP CONSTRAINT "FK_ef532f1079a8c491324421ed315"
        `);
    await queryRunner.query(`
            ALTER TABLE "deploy_boards" DROP CONSTRAINT "FK_3e7f6d4603f2d9c2e442c3b2196"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issue_votes_actor_live"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_votes"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issue_reactions_actor_reaction_live"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_reactions"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_deploy_boards_anchor"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_deploy_boards_entity_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_deploy_boards_project"
        `);
    await queryRunner.query(`
            DROP TABLE "deploy_boards"
        `);
  }
}
