import { MigrationInterface, QueryRunner } from 'typeorm';

/** The link tables whose rows put a work item in or out of a list the web app shows, and their work item columns. */
const LINKS: Array<[table: string, columns: string[]]> = [
  ['cycle_issues', ['issue_id']],
  ['module_issues', ['issue_id']],
  ['issue_labels', ['issue_id']],
  ['issue_assignees', ['issue_id']],
  ['issue_relations', ['issue_id', 'related_issue_id']],
  ['intake_issues', ['issue_id']],
];

/**
 * Plane's web app keeps a local copy of a project's work items and asks only for what changed
 * since its last sync (`v2/issues/?updated_at__gt=…`, `deleted-issues/?updated_at__gt=…`). A row
 * written, changed or removed in a link table (cycle, module, label, assignee, relation, intake)
 * changes what the work item's row in that answer holds (`cycle_id`, `module_ids`, `label_ids`,
 * `assignee_ids`, relations, intake visibility), so it moves the work item's `updated_at` to the
 * transaction's time, by trigger: every writer (App API, v1 API, jobs, cascades of a deleted cycle,
 * module or label) is covered by this one rule. A work item already changed in the same
 * transaction (a create with its assignees and labels) is not written again.
 */
export class TouchIssuesOnLinks1795740000100 implements MigrationInterface {
  name = 'TouchIssuesOnLinks1795740000100';

  public async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
            CREATE FUNCTION meridian_touch_linked_issues() RETURNS trigger
            LANGUAGE plpgsql AS $$
            DECLARE
                col text;
                ids uuid[] := '{}';
            BEGIN
                FOREACH col IN ARRAY TG_ARGV LOOP
                    IF TG_OP <> 'INSERT' THEN
                        ids := ids || (to_jsonb(OLD) ->> col)::uuid;
                    END IF;
                    IF TG_OP <> 'DELETE' THEN
                        ids := ids || (to_jsonb(NEW) ->> col)::uuid;
                    END IF;
                END LOOP;
                UPDATE issues SET updated_at = now() WHERE id = ANY(ids) AND updated_at < now();
                RETURN NULL;
            END
            $$
        `);
    for (const [table, columns] of LINKS) {
      await queryRunner.query(`
            CREATE TRIGGER "trg_${table}_touch_issue" AFTER INSERT OR UPDATE OR DELETE ON "${table}"
            FOR EACH ROW EXECUTE FUNCTION meridian_touch_linked_issues(${columns.map((c) => `'${c}'`).join(', ')})
        `);
    }
  }

  public async down(queryRunner: QueryRunner): Promise<void> {
    for (const [table] of LINKS) {
      await queryRunner.query(`DROP TRIGGER "trg_${table}_touch_issue" ON "${table}"`);
    }
    await queryRunner.query('DROP FUNCTION meridian_touch_linked_issues()');
  }
}
