import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The workspace's open work items newest first (`workspace_id, created_at, id`, partial as the
 * project's `ix_issues_project_live_created`), for the work item searches over several projects
 * (`search/`, `entity-search/`, `search-issues/?workspace_search=true`, v1 `work-items/search/`):
 * their candidates are the newest name hits, so a common text walks this index newest first and
 * stops after a page of hits, where a rare one is looked up in the trigram index
 * (`ix_issues_name_trgm`) and its few hits sorted; the planner chooses by the name column's
 * statistics (the default histogram of 100 names tells a word in one name in 20 from one in 10,000:
 * estimated 50,515 and 100 rows for 46,236 and 99 at a million work items). `down` drops the index.
 */
export class SearchRecencyIndex1795948404000 implements MigrationInterface {
  name = 'SearchRecencyIndex1795948404000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_issues_workspace_live_created" ON "issues" ("workspace_id", "created_at", "id")
        WHERE "deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issues_workspace_live_created"`);
  }
}
