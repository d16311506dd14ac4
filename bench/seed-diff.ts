/**
 * Two databases seeded from one (`workspace.bench.ts --no-relations --keep-db`, copied with
 * `CREATE DATABASE … TEMPLATE …`, then `--db NAME --relations-only --seed-only` on each, one with
 * `--triggered-seed`) compared table by table: the work items (`updated_at` as whether it is after
 * `created_at`), their assignee, label, cycle, module, comment and history rows (ids aside: new
 * rows take new ones), the three tally tables (rows of 0 left out: the triggers leave the rows they
 * brought down to 0, a recount has none) and the projects' counters. Prints each table's row
 * counts and up to 3 differing rows of each side; exits 1 on any difference.
 *
 *   node dist/bench/seed-diff.js DB_A DB_B   (BENCH_DATABASE_URL: the server, default postgres://postgres@127.0.0.1:5432/postgres)
 */
import { Client } from 'pg';

const TABLES: Array<[name: string, select: string]> = [
  [
    'issues',
    `SELECT (to_jsonb(t) - 'updated_at' || jsonb_build_object('touched', t.updated_at > t.created_at))::text AS r FROM issues t`,
  ],
  ...['issue_assignees', 'issue_labels', 'cycle_issues', 'module_issues', 'issue_comments', 'issue_activities'].map(
    (table): [string, string] => [table, `SELECT (to_jsonb(t) - 'id')::text AS r FROM ${table} t`],
  ),
  ...['project_issue_tallies', 'issue_set_tallies', 'issue_date_tallies'].map((table): [string, string] => [
    table,
    `SELECT to_jsonb(t)::text AS r FROM ${table} t WHERE n <> 0`,
  ]),
  ['project_issue_counters', `SELECT to_jsonb(t)::text AS r FROM project_issue_counters t`],
];

async function rows(url: URL, name: string): Promise<Map<string, string[]>> {
  const u = new URL(url);
  u.pathname = `/${name}`;
  const db = new Client({ connectionString: u.toString() });
  await db.connect();
  try {
    const out = new Map<string, string[]>();
    for (const [table, select] of TABLES)
      out.set(
        table,
        (await db.query<{ r: string }>(select)).rows.map((x) => x.r),
      );
    return out;
  } finally {
    await db.end();
  }
}

/** The rows of `a` not in `b` (as multisets; both sorted). */
function minus(a: string[], b: string[]): string[] {
  const out: string[] = [];
  let j = 0;
  for (const x of a) {
    while (j < b.length && b[j] < x) j++;
    if (j < b.length && b[j] === x) j++;
    else out.push(x);
  }
  return out;
}

async function main() {
  const [nameA, nameB] = process.argv.slice(2);
  if (!nameA || !nameB) throw new Error('usage: seed-diff.js DB_A DB_B');
  const url = new URL(process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres');
  const [a, b] = await Promise.all([rows(url, nameA), rows(url, nameB)]);
  let differ = 0;
  const cmp = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
  for (const [table] of TABLES) {
    const ra = a.get(table)!.sort(cmp);
    const rb = b.get(table)!.sort(cmp);
    const onlyA = minus(ra, rb);
    const onlyB = minus(rb, ra);
    differ += onlyA.length + onlyB.length;
    console.log(
      `${table}: ${ra.length} / ${rb.length} rows, ${onlyA.length} / ${onlyB.length} only in ${nameA} / ${nameB}`,
    );
    for (const r of onlyA.slice(0, 3)) console.log(`  only in ${nameA}: ${r}`);
    for (const r of onlyB.slice(0, 3)) console.log(`  only in ${nameB}: ${r}`);
  }
  console.log(differ ? `${differ} rows differ` : 'no difference');
  process.exitCode = differ ? 1 : 0;
}

main().catch((err) => {
  console.error(err);
  process.exit(2);
});
