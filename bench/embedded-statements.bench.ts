/**
 * What PGlite itself spends on the statements of a list page and of a GET one, as the embedded
 * worker runs them: named (prepared) statements, Bind/Describe/Execute/Sync as raw protocol bytes
 * (`execProtocolRawStream`, the answer's bytes copied out and not parsed), no `pg`, no HTTP.
 *
 *   node dist/bench/embedded-statements.bench.js <DATA_DIR of a seeded work-items bench, server stopped> [runs]
 *
 * `work-items.bench.ts --embedded --data-dir DIR` seeds and keeps DIR. Opens `DIR/pg` directly (no
 * lock is taken: do not run it while a server uses DIR). Prints min and median per statement.
 */
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { serialize } from 'pg-protocol';
// the SQL texts alone, as bench/bare-server.ts takes them (issue.sql.ts imports nothing)
/* eslint-disable no-restricted-imports */
import {
  ISSUE_COLUMNS,
  SQL_ISSUE_SETS,
  SQL_PROJECT_VISIBLE_COUNT,
  SQL_VISIBLE_ISSUE,
  SQL_VISIBLE_ISSUES_OF_PROJECT,
} from '../libs/domain/src/issue/issue.sql';
/* eslint-enable no-restricted-imports */

async function main() {
  const dir = process.argv[2];
  const runs = Number(process.argv[3] ?? 60);
  if (!dir) throw new Error('usage: embedded-statements.bench.js <DATA_DIR> [runs]');
  const { PGlite } = await import('@electric-sql/pglite');
  const pg = await PGlite.create({
    dataDir: path.join(path.resolve(dir), 'pg'),
    extensions: { pg_trgm: (await import('@electric-sql/pglite/contrib/pg_trgm')).pg_trgm },
  });
  try {
    const [{ project_id }] = (
      await pg.query<{ project_id: string }>(
        'SELECT project_id FROM issues GROUP BY project_id ORDER BY COUNT(*) DESC LIMIT 1',
      )
    ).rows;
    const ids = (
      await pg.query<{ id: string }>('SELECT id FROM issues WHERE project_id = $1 ORDER BY random() LIMIT 200', [
        project_id,
      ])
    ).rows.map((r) => r.id);
    const page = (cols: string) =>
      `SELECT ${cols} ${SQL_VISIBLE_ISSUES_OF_PROJECT} ORDER BY i.created_at DESC, i.id DESC LIMIT 101`;
    const cases: Array<[string, string, (n: number) => unknown[]]> = [
      ['list: first page (100 + 1 rows, every column)', page(ISSUE_COLUMNS), () => [project_id]],
      ['list: first page, ids only', page('i.id'), () => [project_id]],
      ['list: the total (project counter)', SQL_PROJECT_VISIBLE_COUNT, () => [project_id]],
      ['list: assignees and labels of 100', SQL_ISSUE_SETS, () => [`{${ids.slice(0, 100).join(',')}}`]],
      ['GET one: a work item with its assignees and labels', SQL_VISIBLE_ISSUE, (n) => [project_id, ids[n % 200]]],
    ];
    console.log(`PGlite, ${dir}, ${runs} runs per statement after one warm-up`);
    console.log('| statement | min ms | median ms | answer bytes |\n|---|---|---|---|');
    let k = 0;
    for (const [name, text, values] of cases) {
      const statement = `b${k++}`;
      const sink = { onRawData: () => undefined };
      await pg.execProtocolRawStream(
        Buffer.concat([serialize.parse({ name: statement, text }), serialize.sync()]),
        sink,
      );
      const times: number[] = [];
      let bytes = 0;
      for (let i = -1; i < runs; i++) {
        const message = Buffer.concat([
          serialize.bind({ statement, values: values(i) as Array<string | null> }),
          serialize.describe({ type: 'P' }),
          serialize.execute(),
          serialize.sync(),
        ]);
        bytes = 0;
        const t0 = performance.now();
        await pg.execProtocolRawStream(message, {
          onRawData: (chunk) => {
            bytes += chunk.slice().byteLength;
          },
        });
        if (i >= 0) times.push(performance.now() - t0);
      }
      times.sort((a, b) => a - b);
      console.log(
        `| ${name} | ${times[0].toFixed(2)} | ${times[Math.floor(times.length / 2)].toFixed(2)} | ${bytes} |`,
      );
    }
  } finally {
    await pg.close();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
