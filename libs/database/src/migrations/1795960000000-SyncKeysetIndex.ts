import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The project's open work items oldest change first (`project_id, updated_at, id`, partial as
 * `ix_issues_project_live_created`: what `SQL_VISIBLE_ISSUES_OF_PROJECT` asks of a work item), for
 * the web app's local cache sync (`v2/issues/`): the start keys of its pages in one walk
 * (index-only once vacuumed), each page read from its start key, and a delta (`updated_at__gt`)
 * from its time. `down` drops it.
 */
export class SyncKeysetIndex1795960000000 implements MigrationInterface {
  name = 'SyncKeysetIndex1795960000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_issues_project_live_updated" ON "issues" ("project_id", "updated_at", "id")
        WHERE "deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issues_project_live_updated"`);
  }
}
