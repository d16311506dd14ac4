import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * `issue_labels.issue_created_at`: the work item's `created_at`, copied onto each of its label rows,
 * and `ix_issue_labels_label_created (label_id, issue_created_at, issue_id)`, so that a label's work
 * items newest (or oldest) first are a range of one index, as an assignee's are (migration
 * `AssigneeIssueCreatedAt`): a page of the lists filtered by one label (`labels=<id>`) and of the
 * `labels__id` groups in creation order reads its rows from there and stops at the page, where it
 * read every work item of the label and sorted them (10,000 for a label at a million work items).
 * `IssueRepository.visiblePage` orders such a page by these columns instead of the work item's; the
 * same order, as the copy is kept equal:
 * - `meridian_label_issue_created_at`, before an INSERT (or a change of `issue_id`) on
 *   `issue_labels`: the work item's `created_at`, read by id (the row given is kept only when the
 *   work item cannot be read, which the foreign key then refuses anyway). Every writer is covered:
 *   the create's CTE, TypeORM's inserts of a set's change, rows copied in bulk.
 * - `meridian_issue_created_at_to_labels`, after an UPDATE of `issues.created_at` that changes it
 *   (the `WHEN` clause: no other update calls it): the work item's label rows follow.
 * The backfill copies every row's with the sync's touch trigger off (the work items' `updated_at`
 * untouched: copying a column changes no label); the tallies' update trigger on `issue_labels` looks
 * at `issue_id` and `label_id` only. `down` drops the triggers, the index and the column.
 */
export class LabelIssueCreatedAt1795978000000 implements MigrationInterface {
  name = 'LabelIssueCreatedAt1795978000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE "issue_labels" ADD "issue_created_at" timestamptz`);
    await queryRunner.query(`ALTER TABLE "issue_labels" DISABLE TRIGGER "trg_issue_labels_touch_issue"`);
    await queryRunner.query(
      `UPDATE "issue_labels" il SET "issue_created_at" = i."created_at" FROM "issues" i WHERE i."id" = il."issue_id"`,
    );
    await queryRunner.query(`ALTER TABLE "issue_labels" ENABLE TRIGGER "trg_issue_labels_touch_issue"`);
    await queryRunner.query(`ALTER TABLE "issue_labels" ALTER COLUMN "issue_created_at" SET NOT NULL`);
    await queryRunner.query(`
            CREATE FUNCTION meridian_label_issue_created_at() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                NEW.issue_created_at := COALESCE((SELECT created_at FROM issues WHERE id = NEW.issue_id), NEW.issue_created_at);
                RETURN NEW;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER meridian_label_issue_created_at BEFORE INSERT OR UPDATE OF issue_id ON issue_labels
            FOR EACH ROW EXECUTE FUNCTION meridian_label_issue_created_at()
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_issue_created_at_to_labels() RETURNS trigger
            LANGUAGE plpgsql AS $$
            BEGIN
                UPDATE issue_labels SET issue_created_at = NEW.created_at WHERE issue_id = NEW.id;
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER meridian_issue_created_at_to_labels AFTER UPDATE OF created_at ON issues
            FOR EACH ROW WHEN (OLD.created_at IS DISTINCT FROM NEW.created_at)
            EXECUTE FUNCTION meridian_issue_created_at_to_labels()
        `);
    await queryRunner.query(
      `CREATE INDEX "ix_issue_labels_label_created" ON "issue_labels" ("label_id", "issue_created_at", "issue_id")`,
    );
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issue_labels_label_created"`);
    await queryRunner.query(`DROP TRIGGER meridian_issue_created_at_to_labels ON issues`);
    await queryRunner.query(`DROP FUNCTION meridian_issue_created_at_to_labels()`);
    await queryRunner.query(`DROP TRIGGER meridian_label_issue_created_at ON issue_labels`);
    await queryRunner.query(`DROP FUNCTION meridian_label_issue_created_at()`);
    await queryRunner.query(`ALTER TABLE "issue_labels" DROP COLUMN "issue_created_at"`);
  }
}
