/**
 * The child process of `initEmbeddedCluster` (embedded-initdb.ts): `node embedded-initdb-child.js
 * <dir>` runs PGlite's initdb in `<dir>` and exits (0, or 1 with the error on stderr). A file of its
 * own, run only as a process: the server's bundle (scripts/bundle.js) builds it beside main.js.
 */
async function childMain(dir: string): Promise<void> {
  const { PGlite } = await import('@electric-sql/pglite');
  const pglite = await PGlite.create({ dataDir: dir });
  await pglite.close();
}

childMain(process.argv[2]).then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(`${(err as Error)?.stack ?? String(err)}\n`);
    process.exit(1);
  },
);
