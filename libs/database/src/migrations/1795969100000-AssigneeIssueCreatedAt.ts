import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `issue_assignees.issue_created_at`: the work item's `created_at`, copied onto each of its
 * assignee rows, and `ix_issue_assignees_assignee_created (assignee_id, issue_created_at,
 * issue_id)`, so that an assignee's work items newest (or oldest) first are a range of one index:
 * a page of the workspace list's `group_by=assignees__id` (and of a project's) reads its rows from
 * there and stops at the page, where it read every work item of the assignee and sorted them
 * (201 groups of 5,500 at a million work items: 17–19 s). `IssueRepository.visiblePage` orders such
 * a page by these columns instead of the work item's; the same order, as the copy is kept equal:
 * - `meridian_assignee_issue_created_at`, before an INSERT (or a change of `issue_id`) on
 *   `issue_assignees`: the work item's `created_at`, read by id (the row given is kept only when
 *   the work item cannot be read, which a foreign key then refuses anyway). Every writer is
 *   covered: the create's CTE, TypeORM's inserts of a set's change, rows copied in bulk.
 * - `meridian_issue_created_at_to_assignees`, after an UPDATE of `issues.created_at` that changes it
 *   (the `WHEN` clause: no other update calls it): the work item's assignee rows follow.
 * The backfill copies every row's (the work items' `updated_at` untouched); `down` drops the
 * triggers, the index and the column.
 */
export class AssigneeIssueCreatedAt1795969100000 implements MigrationInterface {
  name = 'AssigneeIssueCreatedAt1795969100000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "issue_assignees" ADD "issue_created_at" timestamptz`);
    // the backfill changes no assignment: the sync's touch of the work item (`TouchIssuesOnLinks`)
    // stays off for it (else every assigned work item would look changed to the web app's local
    // copy, and 900,000 work items rewritten made it 9 minutes at a million)
    await queryRunner.query(`ALTER TABLE "issue_assignees" DISABLE TRIGGER "trg_issue_assignees_touch_issue"`);
    await queryRunner.query(
      `UPDATE "issue_assignees" ia SET "issue_created_at" = i."created_at" FROM "issues" i WHERE i."id" = ia."issue_id"`,
    );
    await queryRunner.query(`ALTER TABLE "issue_assignees" ENABLE TRIGGER "trg_issue_assignees_touch_issue"`);
    await queryRunner.query(`ALTER TABLE "issue_assignees" ALTER COLUMN "issue_created_at" SET NOT NULL`);
    await queryRunner.query(`
            CREATE FUNCTION meridian_assignee_issue_created_at() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                NEW.issue_created_at := COALESCE((SELECT created_at FROM issues WHERE id = NEW.issue_id), NEW.issue_created_at);
                RETURN NEW;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER meridian_assignee_issue_created_at BEFORE INSERT OR UPDATE OF issue_id ON issue_assignees
            FOR EACH ROW EXECUTE FUNCTION meridian_assignee_issue_created_at()
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_issue_created_at_to_assignees() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE issue_assignees SET issue_created_at = NEW.created_at WHERE issue_id = NEW.id;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER meridian_issue_created_at_to_assignees AFTER UPDATE OF created_at ON issues
            FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
            EXECUTE FUNCTION meridian_issue_created_at_to_assignees()
        `);
    await queryRunner.query(
      `CREATE INDEX "ix_issue_assignees_assignee_created" ON "issue_assignees" ("assignee_id", "issue_created_at", "issue_id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issue_assignees_assignee_created"`);
    await queryRunner.query(`DROP TRIGGER meridian_issue_created_at_to_assignees ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_issue_created_at_to_assignees()`);
    await queryRunner.query(`DROP TRIGGER meridian_assignee_issue_created_at ON issue_assignees`);
    await queryRunner.query(`DROP FUNCTION meridian_assignee_issue_created_at()`);
    await queryRunner.query(`ALTER TABLE "issue_assignees" DROP COLUMN "issue_created_at"`);
  }
}
