import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddIssueRelations1795270914702 implements MigrationInterface {
  name = 'AddIssueRelations1795270914702';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "issue_relations" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "related_issue_id" uuid NOT NULL,
                "relation_type" character varying(20) NOT NULL,
                CONSTRAINT "PK_591ea0e89c274d5803c2280be1a" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_relations_related" ON "issue_relations" ("related_issue_id")
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_issue_relations_pair_live" ON "issue_relations" ("issue_id", "related_issue_id")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_relations"
            ADD CONSTRAINT "FK_ad2775b20dfaf3b1fb72508f73f" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_relations"
            ADD CONSTRAINT "FK_b9260d32c2f4b1ad911baf3bb9d" FOREIGN KEY ("related_issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "issue_relations" DROP CONSTRAINT "FK_b9260d32c2f4b1ad911baf3bb9d"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_relations" DROP CONSTRAINT "FK_ad2775b20dfaf3b1fb72508f73f"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_issue_relations_pair_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_relations_related"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_relations"
        `);
  }
}
