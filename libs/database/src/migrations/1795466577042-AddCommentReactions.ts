import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddCommentReactions1795466577042 implements MigrationInterface {
  name = 'AddCommentReactions1795466577042';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "comment_reactions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "comment_id" uuid NOT NULL,
                "actor_id" uuid NOT NULL,
                "reaction" character varying(20) NOT NULL,
                CONSTRAINT "PK_d10c03282d5280fe55f0bb67563" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_comment_reactions_actor_reaction_live" ON "comment_reactions" ("comment_id", "actor_id", "reaction")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "comment_reactions"
            ADD CONSTRAINT "FK_dc714054fc62b698018fcb0ae37" FOREIGN KEY ("comment_id") REFERENCES "issue_comments"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "comment_reactions" DROP CONSTRAINT "FK_dc714054fc62b698018fcb0ae37"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_comment_reactions_actor_reaction_live"
        `);
    await queryRunner.query(`
            DROP TABLE "comment_reactions"
        `);
  }
}
