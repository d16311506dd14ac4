import { MigrationInterface, QueryRunner } from 'typeorm';

const LIVE = `WHERE "deleted_at" IS NULL AND "archived_at" IS NULL AND "is_draft" = false`;
/** `PRIORITY_RANK` (issue-filters.ts), the key of `order_by=priority`, as the planner must match it. */
const RANK = `(CASE priority WHEN 'urgent' THEN 0 WHEN 'high' THEN 1 WHEN 'medium' THEN 2 WHEN 'low' THEN 3 ELSE 4 END)`;
const COVERING = `INCLUDE ("project_id", "created_by_id", "state_id", "priority")`;

/**
 * The workspace list (`GET workspaces/{slug}/issues/`, `SQL_VISIBLE_ISSUES_OF_WORKSPACE`) in the
 * web app's other two orders, `order_by=sort_order` (manual) and `order_by=priority`: the
 * workspace's open work items by `(sort_order, id)` and by `(PRIORITY_RANK, id)`, holding what the
 * list's scope and its `state`, `priority` and `project` filters read (as
 * `ix_issues_workspace_live_created` does for `-created_at`, migration `WorkspaceListCoveringIndex`).
 * The first page is then a walk that stops at the page, a deep page's start key an index-only walk;
 * before, both sorted the whole workspace for every page (6–7 s at a million work items). The
 * projects' own indexes (`ix_issues_project_live_sort`, `_priority_rank`) serve a project's list.
 */
export class WorkspaceListOrderIndexes1795969000000 implements MigrationInterface {
  name = 'WorkspaceListOrderIndexes1795969000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_issues_workspace_live_sort" ON "issues" ("workspace_id", "sort_order", "id") ${COVERING} ${LIVE}`,
    );
    await queryRunner.query(
      `CREATE INDEX "ix_issues_workspace_live_priority_rank" ON "issues" ("workspace_id", ${RANK}, "id") ${COVERING} ${LIVE}`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issues_workspace_live_priority_rank"`);
    await queryRunner.query(`DROP INDEX "ix_issues_workspace_live_sort"`);
  }
}
