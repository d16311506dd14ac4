import * as dotenv from 'dotenv';

/** Loads `./.env` into `process.env` if the file exists; variables already set win. */
export function loadDotEnv(): void {
  dotenv.config({ quiet: true });
}
