import { MigrationInterface, QueryRunner } from 'typeorm';

/** A history row `r` counts: live (`deleted_at` unset) and with an actor. */
const COUNTED = (r: string) => `${r}.deleted_at IS NULL AND ${r}.actor_id IS NOT NULL`;
/** The UTC day of history row `r`, as the activity graph reads it. */
const DAY = (r: string) => `(${r}.created_at AT TIME ZONE 'UTC')::date`;
/** The columns of a history row that its tally row depends on. */
const KEYS = ['workspace_id', 'actor_id', 'created_at', 'deleted_at'];
/** Adds the rows of a `SELECT workspace_id, actor_id, day, n` (one per key, in key order) to the tallies. */
const UPSERT = `INSERT INTO issue_activity_day_tallies AS t (workspace_id, actor_id, day, n)`;
const ON_CONFLICT = `ON CONFLICT (workspace_id, actor_id, day) DO UPDATE SET n = t.n + EXCLUDED.n`;

/**
 * `issue_activity_day_tallies`: how many live history rows (`issue_activities` with `deleted_at`
 * unset) each actor has per workspace and UTC day of `created_at` (issue #40; docs/decisions.md
 * "Tallies of the history rows per actor and day"). The home's activity graph
 * (`users/me/workspaces/{slug}/activity-graph/`, Plane's `UserActivityGraphEndpoint`) and the
 * dashboard's `issue_activities` are the caller's rows of the last months per day: a sum of one row
 * per day instead of a count of every history row of the caller (a million for a user who created
 * a million work items). A row without an actor counts nowhere, as the graph reads one actor's.
 *
 * Kept by the database, in the writing transaction, whatever wrote: after each INSERT and DELETE
 * statement on `issue_activities` (its rows as a transition table: one upsert per statement, the
 * keys in order; a work item's hard delete cascades to its history, a statement per work item),
 * and after an UPDATE of a row that changes its workspace, actor, `created_at` or `deleted_at` (the
 * `WHEN` clause: the old row's key out, the new row's in). A request writes the history of one actor
 * (the caller) on one day, so two transactions never take two tally rows in opposite orders. A row
 * whose `n` falls to 0 stays (the reader skips sums of 0). The table is filled from the existing
 * rows; `down` drops the triggers, functions and table.
 */
export class ActivityDayTallies1795987000000 implements MigrationInterface {
  name = 'ActivityDayTallies1795987000000';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE TABLE "issue_activity_day_tallies" (
                "workspace_id" uuid NOT NULL,
                "actor_id" uuid NOT NULL,
                "day" date NOT NULL,
                "n" integer NOT NULL,
                CONSTRAINT "pk_issue_activity_day_tallies" PRIMARY KEY ("workspace_id", "actor_id", "day")
            )
        `);
    for (const [fn, table, sign] of [
      ['meridian_tally_activity_added', 'added', ''],
      ['meridian_tally_activity_removed', 'removed', '-'],
    ])
      await queryRunner.query(`
            CREATE FUNCTION ${fn}() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                ${UPSERT}
                SELECT a.workspace_id, a.actor_id, ${DAY('a')}, ${sign}COUNT(*)::int FROM ${table} a
                WHERE ${COUNTED('a')} GROUP BY 1, 2, 3 ORDER BY 1, 2, 3
                ${ON_CONFLICT};
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issue_activities_tally_days_insert AFTER INSERT ON issue_activities
            REFERENCING NEW TABLE AS added FOR EACH STATEMENT EXECUTE FUNCTION meridian_tally_activity_added()
        `);
    await queryRunner.query(`
            CREATE TRIGGER issue_activities_tally_days_delete AFTER DELETE ON issue_activities
            REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION meridian_tally_activity_removed()
        `);
    await queryRunner.query(`
            CREATE FUNCTION meridian_tally_activity_changed() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                ${UPSERT}
                SELECT d.workspace_id, d.actor_id, d.day, SUM(d.n)::int FROM (
                    SELECT OLD.workspace_id AS workspace_id, OLD.actor_id AS actor_id, ${DAY('OLD')} AS day, -1 AS n
                    WHERE ${COUNTED('OLD')}
                    UNION ALL
                    SELECT NEW.workspace_id, NEW.actor_id, ${DAY('NEW')}, 1 WHERE ${COUNTED('NEW')}
                ) d
                GROUP BY 1, 2, 3 HAVING SUM(d.n) <> 0 ORDER BY 1, 2, 3
                ${ON_CONFLICT};
                RETURN NULL;
            END
            $$
        `);
    await queryRunner.query(`
            CREATE TRIGGER issue_activities_tally_days_update AFTER UPDATE ON issue_activities FOR EACH ROW
            WHEN (${KEYS.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')}) EXECUTE FUNCTION meridian_tally_activity_changed()
        `);
    await queryRunner.query(`
            ${UPSERT}
            SELECT a.workspace_id, a.actor_id, ${DAY('a')}, COUNT(*)::int FROM issue_activities a
            WHERE ${COUNTED('a')} GROUP BY 1, 2, 3
            ${ON_CONFLICT}
        `);
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const event of ['update', 'delete', 'insert'])
      await queryRunner.query(`DROP TRIGGER issue_activities_tally_days_${event} ON issue_activities`);
    for (const fn of ['changed', 'removed', 'added'])
      await queryRunner.query(`DROP FUNCTION meridian_tally_activity_${fn}()`);
    await queryRunner.query(`DROP TABLE "issue_activity_day_tallies"`);
  }
}
