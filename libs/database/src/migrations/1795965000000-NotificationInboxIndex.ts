import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The inbox (`users/notifications/`) at size (BENCHMARKS.md "The inbox and a work item's history at
 * size"):
 * - `ix_notifications_inbox` replaces `ix_notifications_receiver_workspace_created`: the same leading
 *   keys, then `id` (the pages' order, `created_at, id`, read from the index without a sort), and
 *   every other column the lists' filters read as `INCLUDE`d columns, so the count of a page's
 *   `total_count` and `unread/`'s counts are index-only scans once vacuumed;
 * - `ix_issues_created_by`: the `created` set of the inbox's `type` filter (the caller's own work
 *   items) without reading every work item of the database.
 * `down` restores the previous index and drops both.
 */
export class NotificationInboxIndex1795965000000 implements MigrationInterface {
  name = 'NotificationInboxIndex1795965000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `CREATE INDEX "ix_notifications_inbox" ON "notifications" ("receiver_id", "workspace_id", "created_at", "id")
        INCLUDE ("entity_identifier", "entity_name", "sender", "read_at", "snoozed_till", "archived_at", "deleted_at")`,
    );
    await queryRunner.query(`DROP INDEX "ix_notifications_receiver_workspace_created"`);
    await queryRunner.query(`CREATE INDEX "ix_issues_created_by" ON "issues" ("created_by_id")`);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP INDEX "ix_issues_created_by"`);
    await queryRunner.query(
      `CREATE INDEX "ix_notifications_receiver_workspace_created" ON "notifications" ("receiver_id", "workspace_id", "created_at")`,
    );
    await queryRunner.query(`DROP INDEX "ix_notifications_inbox"`);
  }
}
