import { MigrationInterface, QueryRunner } from 'typeorm';

export class IssueListAndSortIndexes1795467867619 implements MigrationInterface {
  name = 'IssueListAndSortIndexes1795467867619';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE INDEX "ix_issues_project_state_sort" ON "issues" ("project_id", "state_id", "sort_order")
            WHERE "deleted_at" IS NULL
        `);
    await queryRunner.query(`
            CREATE INDEX "ix_issues_project_live_created" ON "issues" ("project_id", "created_at", "id")
            WHERE "deleted_at" IS NULL
                AND "archived_at" IS NULL
                AND "is_draft" = false
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            DROP INDEX "public"."ix_issues_project_live_created"
        `);
    await queryRunner.query(`
            DROP INDEX "public"."ix_issues_project_state_sort"
        `);
  }
}
