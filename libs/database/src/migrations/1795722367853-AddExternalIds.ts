import { MigrationInterface, QueryRunner } from 'typeorm';

export class AddExternalIds1795722367853 implements MigrationInterface {
  name = 'AddExternalIds1795722367853';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            ALTER TABLE "projects"
            ADD "external_source" character varying(255)
        `);
    await queryRunner.query(`
            ALTER TABLE "projects"
            ADD "external_id" character varying(255)
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_intake_issues_external_live" ON "intake_issues" ("project_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_projects_external_live" ON "projects" ("workspace_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
    await queryRunner.query(`
            CREATE UNIQUE INDEX "uq_states_external_live" ON "states" ("project_id", "external_source", "external_id")
            WHERE "deleted_at" IS NULL
                AND "external_id" IS NOT NULL
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."uq_states_external_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_projects_external_live"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."uq_intake_issues_external_live"
        `);
    await queryRunner.query(`
            ALTER TABLE "projects" DROP COLUMN "external_id"
        `);
    await queryRunner.query(`
            ALTER TABLE "projects" DROP COLUMN "external_source"
        `);
  }
}
