import { MigrationInterface, QueryRunner } from 'typeorm';

const LIVE = `"deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false`;
/** What the analytics scope reads of a work item (`AnalyticsRepository.scoped`) and the overview sums. */
const COVERING = `INCLUDE ("project_id", "created_by_id", "state_id", "point", "id")`;

/**
 * The rows `default-analytics/` still reads once its counts come from the tallies
 * (`AnalyticsRepository.overview`): the workspace's open work items completed in a range of time
 * (the months of completion of the year) and those with a legacy `point` (its point sums), each
 * holding what the analytics scope tests (project, creator for the Guest rule, id for intake
 * triage) and what the overview groups by (state, point), so both are index-only reads of the
 * rows concerned instead of a pass over the workspace's work items.
 */
export class OverviewIndexes1795974000000 implements MigrationInterface {
  name = 'OverviewIndexes1795974000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_issues_workspace_live_completed" ON "issues" ("workspace_id", "completed_at") ${COVERING}
       WHERE ${LIVE} AND "completed_at" IS NOT NULL`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_issues_workspace_live_point" ON "issues" ("workspace_id") ${COVERING}
       WHERE ${LIVE} AND "point" IS NOT NULL`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issues_workspace_live_point"`);
    await queryRunner.query(`DROP INDEX "ix_issues_workspace_live_completed"`);
  }
}
