import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Brings client-set ordering numbers stored before they were range-checked into the range the API
 * now accepts (`SORT_ORDER_MIN`…`SORT_ORDER_MAX`, ±1e12): work item, label, module, cycle and
 * sticky `sort_order`, state `sequence`. A value beyond an end (±Infinity too) becomes that end,
 * NaN (which PostgreSQL sorts above every number) the upper end. Rows in range are not touched;
 * `updated_at` is left as is (no user changed the row). The range is written out here, not
 * imported: a migration must keep doing what it did when it was written.
 *
 * `down` is a no-op: the clamped values are not kept, and putting them back would restore values
 * that the API rejects. Lists already order any stored double (`doubleSortKey`), so neither
 * direction is needed for a list to work; this keeps stored data within what clients can send.
 */
export class ClampStoredSortOrders1795597946397 implements MigrationInterface {
  name = 'ClampStoredSortOrders1795597946397';

  public async up(queryRunner: QueryRunner): Promise<void> {
    for (const [table, column] of [
      ['issues', 'sort_order'],
      ['labels', 'sort_order'],
      ['modules', 'sort_order'],
      ['cycles', 'sort_order'],
      ['stickies', 'sort_order'],
      ['states', 'sequence'],
    ]) {
      await queryRunner.query(`
                UPDATE "${table}" SET "${column}" = LEAST(GREATEST("${column}", -1e12), 1e12)
                WHERE "${column}" NOT BETWEEN -1e12 AND 1e12
            `);
    }
  }

  public async down(): Promise<void> {
    // nothing to undo: see above
  }
}
