import 'reflect-metadata';
import { ConfigError, describeSecretKeyProblem, loadConfig, loadDotEnv } from '#common';
import { DataDirLockedError, DatabaseUnavailableError, describeDatabase, startDatabase } from '#database';
import { createApp } from './bootstrap';

/** Prints one line and exits non-zero: for start-up failures the operator can fix. */
function fail(message: string): never {
  process.stderr.write(`meridian: ${message}\n`);
  process.exit(1);
}

async function main(): Promise<void> {
  loadDotEnv();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) fail(err.message);
    throw err;
  }
  const secretKeyProblem = describeSecretKeyProblem(config);
  if (secretKeyProblem && config.env === 'production') fail(secretKeyProblem);
  if (secretKeyProblem) {
    const using = config.secret.problem === 'missing' ? ' Using the fixed development key.' : '';
    process.stdout.write(`meridian: warning: ${secretKeyProblem}${using} The server refuses to start like this with NODE_ENV=production.\n`);
  }
  let database;
  try {
    database = await startDatabase(config);
  } catch (err) {
    if (err instanceof DataDirLockedError || err instanceof DatabaseUnavailableError) fail(err.message);
    fail(`Database start-up failed on ${describeDatabase(config)}: ${(err as Error).message}`);
  }
  const app = await createApp(config, database);
  await app.listen(config.http.port, config.http.host);
  process.stdout.write(
    `meridian: listening on http://${config.http.host}:${config.http.port} (${describeDatabase(config)})\n`,
  );
}

main().catch((err: unknown) => fail((err as Error)?.stack ?? String(err)));
