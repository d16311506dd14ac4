import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddDescriptionVersions1795724497530 implements MigrationInterface {
  name = 'AddDescriptionVersions1795724497530';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "issue_description_versions" (
                "id" uuid NOT NULL DEFAULT gen_random_uuid(),
                "created_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "updated_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "deleted_at" TIMESTAMP WITH TIME ZONE,
                "created_by_id" uuid,
                "updated_by_id" uuid,
                "workspace_id" uuid NOT NULL,
                "project_id" uuid NOT NULL,
                "issue_id" uuid NOT NULL,
                "description_html" text NOT NULL DEFAULT '<p></p>',
                "description_stripped" text,
                "description_json" jsonb NOT NULL DEFAULT '{}',
                "last_saved_at" TIMESTAMP WITH TIME ZONE NOT NULL DEFAULT now(),
                "owned_by_id" uuid NOT NULL,
                CONSTRAINT "PK_55a36d5315ee9872e33607b9ab3" PRIMARY KEY ("id")
            )
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issue_description_versions_issue_saved" ON "issue_description_versions" ("issue_id", "last_saved_at")
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_description_versions"
            ADD CONSTRAINT "FK_e1c5dd99f01152b8fcdc474fce1" FOREIGN KEY ("issue_id") REFERENCES "issues"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_description_versions"
            ADD CONSTRAINT "FK_0a24ca10134d0ba95906b9a0368" FOREIGN KEY ("owned_by_id") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE NO ACTION
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "issue_description_versions" DROP CONSTRAINT "FK_0a24ca10134d0ba95906b9a0368"
        `);
    await queryRunner.query(`
            ALTER TABLE "issue_description_versions" DROP CONSTRAINT "FK_e1c5dd99f01152b8fcdc474fce1"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issue_description_versions_issue_saved"
        `);
    await queryRunner.query(`
            DROP TABLE "issue_description_versions"
        `);
  }
}
