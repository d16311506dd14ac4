// @ts-check
/**
 * Rewrites eslint-rules/entity-manager-allowlist.json from a fresh count (`node
 * eslint-rules/update-allowlist.mjs`, from the repository root): after a merge, or after moving
 * queries into repositories. It can only lower what is there unless `--grow` is given (the ratchet
 * is for shrinking; a file that must grow is a change to review).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ESLint } from 'eslint';
import meridian, { ALLOWLIST_FILE, readAllowlist } from './entity-manager-calls.mjs';

const grow = process.argv.includes('--grow');
const eslint = new ESLint({
  overrideConfig: {
    files: ['libs/domain/src/**/*.ts'],
    ignores: ['libs/domain/src/**/*.repository.ts', 'libs/domain/src/kernel/**'],
    plugins: { meridian },
    rules: { 'meridian/entity-manager-calls': ['error', { allowlist: null }] },
  },
  ruleFilter: ({ ruleId }) => ruleId === 'meridian/entity-manager-calls',
});
const results = await eslint.lintFiles(['libs/domain/src']);
/** @type {Record<string, number>} */
const counts = {};
for (const r of results) {
  const n = r.messages.filter((m) => m.ruleId === 'meridian/entity-manager-calls').length;
  if (n) counts[path.relative(process.cwd(), r.filePath).split(path.sep).join('/')] = n;
}
const before = readAllowlist(ALLOWLIST_FILE);
const grown = Object.entries(counts).filter(([f, n]) => n > (before[f] ?? 0));
if (grown.length && !grow) {
  for (const [f, n] of grown) console.error(`${f}: ${n} calls, the allowlist allows ${before[f] ?? 0}`);
  console.error('Move these calls into the room repository (or pass --grow to record them).');
  process.exit(1);
}
const comment = JSON.parse(fs.readFileSync(ALLOWLIST_FILE, 'utf8')).$comment;
const next = {
  $comment: comment,
  ...Object.fromEntries(
    Object.keys(counts)
      .sort()
      .map((f) => [f, counts[f]]),
  ),
};
fs.writeFileSync(ALLOWLIST_FILE, JSON.stringify(next, null, 2) + '\n');
const total = Object.values(counts).reduce((a, b) => a + b, 0);
console.log(`${Object.keys(counts).length} files, ${total} calls`);
