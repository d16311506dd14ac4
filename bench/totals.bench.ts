/**
 * Database time of a work item list's statements at scale, measured inside PostgreSQL (`EXPLAIN
 * (ANALYZE)`'s execution time, so the load of the machine's other processes weighs less than in
 * an HTTP benchmark): the first page alone, the exact total as a `COUNT(*)` of the list (before
 * issue #22), and the total read from the project's counter (after). Also the board's per-state
 * page and count, and the filtered totals the indexes serve.
 *
 *   node dist/bench/totals.bench.js postgres://…/<database kept by work-items.bench --keep-db> <project id> [runs]
 */
import { Client } from 'pg';
/* eslint-disable no-restricted-imports */
import { PRIORITY_RANK } from '../libs/domain/src/issue/issue-filters';
import {
  ISSUE_COLUMNS,
  SQL_PROJECT_VISIBLE_COUNT,
  SQL_VISIBLE_ISSUES_OF_PROJECT,
} from '../libs/domain/src/issue/issue.sql';
/* eslint-enable no-restricted-imports */

async function main() {
  const [url, projectId, runsArg] = process.argv.slice(2);
  const runs = Number(runsArg ?? 50);
  const db = new Client({ connectionString: url });
  await db.connect();
  const [state] = (
    await db.query(`SELECT id FROM states WHERE project_id = $1 AND is_triage = false ORDER BY sequence LIMIT 1`, [
      projectId,
    ])
  ).rows;
  const statements: Array<[string, string, unknown[]]> = [
    [
      'page: first 100, newest first',
      `SELECT ${ISSUE_COLUMNS} ${SQL_VISIBLE_ISSUES_OF_PROJECT} ORDER BY i.created_at DESC, i.id DESC LIMIT 101`,
      [projectId],
    ],
    ['total: COUNT(*) of the list (before)', `SELECT COUNT(*)::int AS n ${SQL_VISIBLE_ISSUES_OF_PROJECT}`, [projectId]],
    ['total: the counter (after)', SQL_PROJECT_VISIBLE_COUNT, [projectId]],
    [
      'board column: first 50 of a state',
      `SELECT ${ISSUE_COLUMNS} ${SQL_VISIBLE_ISSUES_OF_PROJECT} AND i.state_id = $2 ORDER BY i.created_at DESC, i.id DESC LIMIT 51`,
      [projectId, state.id],
    ],
    [
      'board column: its total',
      `SELECT COUNT(*)::int AS n ${SQL_VISIBLE_ISSUES_OF_PROJECT} AND i.state_id = $2`,
      [projectId, state.id],
    ],
    [
      'App list page 500 (OFFSET 50,000), newest first',
      `SELECT ${ISSUE_COLUMNS} ${SQL_VISIBLE_ISSUES_OF_PROJECT} ORDER BY i.created_at DESC, i.id DESC OFFSET 50000 LIMIT 101`,
      [projectId],
    ],
    [
      'App list page 0, order_by=sort_order',
      `SELECT ${ISSUE_COLUMNS} ${SQL_VISIBLE_ISSUES_OF_PROJECT} ORDER BY i.sort_order ASC, i.id ASC LIMIT 101`,
      [projectId],
    ],
    [
      'App list page 0, order_by=-priority',
      `SELECT ${ISSUE_COLUMNS} ${SQL_VISIBLE_ISSUES_OF_PROJECT} ORDER BY ${PRIORITY_RANK} DESC, i.id DESC LIMIT 101`,
      [projectId],
    ],
    [
      'filtered total: priority=urgent',
      `SELECT COUNT(*)::int AS n ${SQL_VISIBLE_ISSUES_OF_PROJECT} AND i.priority = ANY($2::text[])`,
      [projectId, ['urgent']],
    ],
  ];
  console.log(`| statement | median ms | p90 ms | plan |`);
  console.log(`|---|---|---|---|`);
  for (const [name, sql, params] of statements) {
    const times: number[] = [];
    let plan = '';
    for (let r = 0; r < runs; r++) {
      const res = await db.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${sql}`, params);
      const out = res.rows[0]['QUERY PLAN'][0];
      times.push(out['Execution Time']);
      const top = (p: { 'Node Type': string; 'Index Name'?: string; Plans?: unknown[] }): string[] => [
        p['Index Name'] ? `${p['Node Type']} ${p['Index Name']}` : p['Node Type'],
        ...((p.Plans ?? []) as Array<typeof p>).flatMap(top),
      ];
      plan = [...new Set(top(out.Plan).filter((n) => /Index|Seq/.test(n)))].join(', ');
    }
    times.sort((a, b) => a - b);
    console.log(
      `| ${name} | ${times[Math.floor(runs / 2)].toFixed(2)} | ${times[Math.floor(runs * 0.9)].toFixed(2)} | ${plan} |`,
    );
  }
  await db.end();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
