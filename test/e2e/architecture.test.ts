/**
 * The module boundaries that `npm run deps` checks in CI (.dependency-cruiser.cjs and
 * .dependency-cruiser.runtime.cjs, see docs/architecture.md) and the SQL and read-model import rules
 * of `npm run lint` (eslint.config.mjs): each rule is shown to fire on a planted violation in a scratch tree laid out
 * like the repository (CI's `npm run deps` and `npm run lint` show that the repository itself
 * passes). No database: it runs once, in the embedded database's run.
 *
 * Both tools run in this process through their APIs, on the repository's own configuration files:
 * dependency-cruiser's `cruise` as its command line calls it (about 0.1 CPU-second a cruise, where a
 * `depcruise` process costs about 1.5), and ESLint without type information (the rule checked here
 * is syntactic; with the type-aware parser every lint would build a TypeScript program of the whole
 * repository, about 11 CPU-seconds, which `npm run lint` does in CI).
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ROOT } from '../support/processes';

const CONFIGS = ['.dependency-cruiser.cjs', '.dependency-cruiser.runtime.cjs'];

/**
 * Runs both cruises over `dirs` of the tree in `baseDir`, as `depcruise <dirs> --config <config>
 * --output-type err` run there would; the names of the rules that fired, with the exit status (the
 * number of errors, as the command's).
 */
async function cruise(
  baseDir: string,
  dirs: string[],
): Promise<{ status: number; rules: Set<string>; output: string }> {
  const { cruise: run } = await import('dependency-cruiser');
  const { default: extractDepcruiseOptions } = await import('dependency-cruiser/config-utl/extract-depcruise-options');
  const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
  const rules = new Set<string>();
  let status = 0;
  let output = '';
  for (const config of CONFIGS) {
    const options = await extractDepcruiseOptions(path.join(ROOT, config));
    const tsConfigFile = options.tsConfig?.fileName;
    const tsConfig = tsConfigFile ? extractTSConfig(path.join(baseDir, tsConfigFile)) : undefined;
    const res = await run(dirs, { ...options, baseDir, outputType: 'err' }, {}, { tsConfig });
    status ||= res.exitCode;
    const text = String(res.output);
    output += text;
    for (const m of text.matchAll(/error ([a-z-]+):/g)) rules.add(m[1]);
  }
  return { status, rules, output };
}

describe(
  'module boundaries (npm run deps)',
  { skip: process.env.TEST_DATABASE_URL ? 'no database involved: runs in the embedded run' : false },
  () => {
    let scratch: string;
    /** Writes a scratch file relative to the scratch root. */
    const plant = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
      fs.writeFileSync(path.join(scratch, file), text);
    };

    before(() => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-deps-'));
      plant(
        'tsconfig.json',
        JSON.stringify({ compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true } }),
      );
      plant('package.json', JSON.stringify({ name: 'scratch', private: true }));
      // two features and a kernel, laid out as libs/domain/src
      plant('libs/domain/src/kernel/time.ts', 'export const now = () => new Date();\n');
      plant(
        'libs/domain/src/project/project.service.ts',
        "import { now } from '../kernel/time';\nexport const projectNow = now;\n",
      );
      plant('libs/domain/src/project/index.ts', "export { projectNow } from './project.service';\n");
      plant(
        'libs/domain/src/issue/issue.service.ts',
        "import { projectNow } from '../project';\nexport const issueNow = projectNow;\n",
      );
      plant('libs/domain/src/issue/issue.entity.ts', 'export class Issue {\n  id = "";\n}\n');
      plant(
        'libs/domain/src/issue/index.ts',
        "export { issueNow } from './issue.service';\nexport { Issue } from './issue.entity';\n",
      );
      // a repository may name another room's entity as a type, and use its own room's files
      plant(
        'libs/domain/src/project/project.repository.ts',
        "import type { Issue } from '../issue';\nimport { projectNow } from './project.service';\nexport const f = (i: Issue) => [i.id, projectNow];\n",
      );
      plant('libs/domain/src/index.ts', "export * from './project';\nexport * from './issue';\n");
    });
    after(() => fs.rmSync(scratch, { recursive: true, force: true }));

    it('a tree that keeps the rules passes', async () => {
      const res = await cruise(scratch, ['libs']);
      assert.equal(res.status, 0, res.output);
    });

    const cases: Array<[rule: string, file: string, text: string]> = [
      [
        'kernel-imports-no-feature',
        'libs/domain/src/kernel/bad.ts',
        "import type { issueNow } from '../issue';\nexport type T = typeof issueNow;\n",
      ],
      [
        'features-meet-through-index',
        'libs/domain/src/project/bad.ts',
        "import { issueNow } from '../issue/issue.service';\nexport const x = issueNow;\n",
      ],
      [
        'feature-not-through-own-index',
        'libs/domain/src/issue/bad.ts',
        "import { issueNow } from './index';\nexport const x = issueNow;\n",
      ],
      [
        'domain-index-reexports-doors',
        'libs/domain/src/index.ts',
        "export * from './project';\nexport * from './issue/issue.service';\n",
      ],
      // another room's entity file, not through its door
      [
        'features-meet-through-index',
        'libs/domain/src/project/bad-entity.ts',
        "import { Issue } from '../issue/issue.entity';\nexport const x = new Issue();\n",
      ],
      // a repository that reads another room's rows itself (its door imported at run time)
      [
        'repositories-keep-to-their-room',
        'libs/domain/src/project/project-reads.repository.ts',
        "import { issueNow } from '../issue';\nexport const x = issueNow;\n",
      ],
      // a read model of work items that reaches a room other than the issue room at run time
      [
        'read-models-compose-the-issue-contract',
        'libs/domain/src/analytics/analytics.repository.ts',
        "import { projectNow } from '../project';\nexport const x = projectNow;\n",
      ],
      // a run-time cycle: project's door → project.service → issue's door → issue.service → project's door
      [
        'no-circular',
        'libs/domain/src/project/project.service.ts',
        "import { now } from '../kernel/time';\nimport { issueNow } from '../issue';\nexport const projectNow = now;\nexport const y = () => issueNow;\n",
      ],
    ];
    for (const [rule, file, text] of cases) {
      it(`fails on a planted violation of ${rule} (${path.basename(file)})`, async () => {
        const before = fs.existsSync(path.join(scratch, file))
          ? fs.readFileSync(path.join(scratch, file), 'utf8')
          : null;
        plant(file, text);
        try {
          const res = await cruise(scratch, ['libs']);
          assert.notEqual(res.status, 0, `expected ${rule} to fail the check`);
          assert.ok(res.rules.has(rule), `expected ${rule} among ${[...res.rules].join(', ')}\n${res.output}`);
        } finally {
          if (before === null) fs.rmSync(path.join(scratch, file));
          else fs.writeFileSync(path.join(scratch, file), before);
        }
      });
    }

    it("a read model may import the issue room's door at run time (its read contract), and any door's types", async () => {
      const file = 'libs/domain/src/analytics/analytics.repository.ts';
      plant(
        file,
        "import { issueNow } from '../issue';\nimport type { projectNow } from '../project';\nexport const x = issueNow;\nexport type Y = typeof projectNow;\n",
      );
      try {
        const res = await cruise(scratch, ['libs']);
        assert.equal(res.status, 0, res.output);
      } finally {
        fs.rmSync(path.join(scratch, file));
      }
    });

    it("the read models let through by repositories-keep-to-their-room exist and still import another room's door", async () => {
      const { cruise: run } = await import('dependency-cruiser');
      const { default: extractDepcruiseOptions } =
        await import('dependency-cruiser/config-utl/extract-depcruise-options');
      const { default: extractTSConfig } = await import('dependency-cruiser/config-utl/extract-ts-config');
      const options = await extractDepcruiseOptions(path.join(ROOT, '.dependency-cruiser.cjs'));
      const rule = options.ruleSet!.forbidden!.find((r) => r.name === 'repositories-keep-to-their-room')!;
      const listed = ([] as string[])
        .concat((rule.from as { pathNot: string[] }).pathNot)
        .map((re) => re.replace(/^\^|\$$/g, '').replace(/\\\./g, '.'));
      assert.ok(listed.length > 0);
      for (const file of listed)
        assert.ok(fs.existsSync(path.join(ROOT, file)), `${file} is listed but does not exist`);
      // the same rule without its exceptions, over each listed file alone (a file cruised with the
      // others can be reached first as another's dependency, unfollowed): each must still break it
      const strict = { ...rule, from: { path: (rule.from as { path: string }).path } };
      const tsConfig = extractTSConfig(path.join(ROOT, 'tsconfig.json'));
      for (const file of listed) {
        const res = await run(
          [file],
          { ...options, ruleSet: { forbidden: [strict] }, baseDir: ROOT, outputType: 'json', maxDepth: 1 },
          {},
          { tsConfig },
        );
        const violations = (JSON.parse(String(res.output)) as { summary: { violations: Array<{ from: string }> } })
          .summary.violations;
        assert.ok(
          violations.some((v) => v.from === file),
          `${file} no longer imports another room's door: take it off the list`,
        );
      }
    });

    it('a type-only import across a cycle is not a run-time cycle', async () => {
      const file = 'libs/domain/src/project/project.service.ts';
      const before = fs.readFileSync(path.join(scratch, file), 'utf8');
      plant(
        file,
        "import { now } from '../kernel/time';\nimport type { issueNow } from '../issue';\nexport const projectNow = now;\nexport type Y = typeof issueNow;\n",
      );
      try {
        const res = await cruise(scratch, ['libs']);
        assert.equal(res.status, 0, res.output);
      } finally {
        fs.writeFileSync(path.join(scratch, file), before);
      }
    });
  },
);

describe(
  "only repositories send SQL; read models take the issue room's read contract alone (eslint.config.mjs)",
  { skip: process.env.TEST_DATABASE_URL ? 'no database involved: runs in the embedded run' : false },
  () => {
    const SQL_IN_CODE = [
      "export const a = (ds: any) => ds.createQueryBuilder('p').getMany();",
      "export const b = (ds: any) => ds.query('SELECT 1');",
      "import { SQL_PROJECT_ACCESS } from './project.sql';\nexport const c = SQL_PROJECT_ACCESS;",
    ];

    /**
     * The rule ids ESLint reports for `text` as if it were the repository's file `file`, with the
     * repository's configuration less its type-aware rules (typescript-eslint's `disableTypeChecked`)
     */
    async function lint(file: string, text: string): Promise<string[]> {
      const { ESLint } = await import('eslint');
      const { default: tseslint } = await import('typescript-eslint');
      const eslint = new ESLint({ cwd: ROOT, overrideConfig: tseslint.configs.disableTypeChecked });
      const [result] = await eslint.lintText(text, { filePath: path.join(ROOT, file) });
      assert.ok(!result.messages.some((m) => m.fatal), JSON.stringify(result.messages));
      return result.messages.filter((m) => m.severity === 2).map((m) => m.ruleId ?? '');
    }

    for (const text of SQL_IN_CODE) {
      it(`a service may not: ${text.split('\n').pop()}`, async () => {
        const rules = await lint('libs/domain/src/project/project.service.ts', text);
        assert.ok(rules.includes('no-restricted-syntax'), rules.join(', '));
      });
    }

    it('the same code in the feature repository passes', async () => {
      for (const text of SQL_IN_CODE) {
        const rules = await lint('libs/domain/src/project/project.repository.ts', text);
        assert.ok(!rules.includes('no-restricted-syntax'), rules.join(', '));
      }
    });

    // the read models of work items take the issue room's read contract alone from its door
    const READ_MODEL = 'libs/domain/src/analytics/analytics.repository.ts';
    const RESTRICTED = '@typescript-eslint/no-restricted-imports';
    it('a read model may not take from the issue door what is not its read contract (an entity, a service)', async () => {
      for (const name of ['Issue', 'IssueQueryService']) {
        const rules = await lint(READ_MODEL, `import { ${name} } from '../issue';\nexport const x = ${name};`);
        assert.ok(rules.includes(RESTRICTED), `${name}: ${rules.join(', ')}`);
      }
    });

    it("a read model may take the read contract, and the issue door's types", async () => {
      const text =
        "import { guestRule, VISIBLE_ISSUE } from '../issue';\nimport type { Issue } from '../issue';\n" +
        'export const x = [guestRule, VISIBLE_ISSUE];\nexport type Y = Issue;';
      const rules = await lint(READ_MODEL, text);
      assert.ok(!rules.includes(RESTRICTED), rules.join(', '));
    });
  },
);

describe(
  'only repositories call the entity manager (eslint-rules/entity-manager-calls.mjs)',
  { skip: process.env.TEST_DATABASE_URL ? 'no database involved: runs in the embedded run' : false },
  () => {
    const RULE = 'meridian/entity-manager-calls';
    let scratch: string;
    /** Writes a scratch file relative to the scratch root. */
    const plant = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(scratch, file)), { recursive: true });
      fs.writeFileSync(path.join(scratch, file), text);
    };
    const HEADER = "import { DataSource, EntityManager, Repository } from 'typeorm';\nclass Thing { id!: string; }\n";

    /**
     * The messages of the rule for `text` planted as `file` of a scratch tree, linted with the
     * repository's own block for the rule (its files, ignores and severity) over the scratch tree's
     * types.
     */
    async function lint(file: string, text: string) {
      plant(file, HEADER + text);
      const { ESLint } = await import('eslint');
      const { default: tseslint } = await import('typescript-eslint');
      const { pathToFileURL } = await import('node:url');
      const repoConfig = (await import(pathToFileURL(path.join(ROOT, 'eslint.config.mjs')).href)) as {
        default: Array<{ files?: string[]; ignores?: string[]; plugins?: Record<string, unknown> }>;
      };
      const block = repoConfig.default.find((b) => b.plugins?.meridian);
      assert.ok(block, 'eslint.config.mjs has a block for the rule');
      const eslint = new ESLint({
        cwd: scratch,
        overrideConfigFile: true,
        overrideConfig: [
          {
            files: ['**/*.ts'],
            languageOptions: {
              parser: tseslint.parser,
              parserOptions: { projectService: true, tsconfigRootDir: scratch },
            },
          },
          block,
        ] as never,
      });
      try {
        const [result] = await eslint.lintFiles([file]);
        assert.ok(!result.messages.some((m) => m.fatal), JSON.stringify(result.messages));
        return result.messages.filter((m) => m.ruleId === RULE);
      } finally {
        fs.rmSync(path.join(scratch, file));
      }
    }

    before(() => {
      scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-em-'));
      plant(
        'tsconfig.json',
        JSON.stringify({
          compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', strict: true, types: [] },
          include: ['libs/**/*.ts'],
        }),
      );
      plant('package.json', JSON.stringify({ name: 'scratch', private: true }));
      fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(scratch, 'node_modules'));
    });
    after(() => fs.rmSync(scratch, { recursive: true, force: true }));

    const CALLS = [
      'export const a = (em: EntityManager) => em.find(Thing);',
      'export const b = (tx: EntityManager) => tx.save(new Thing());',
      'export const c = (ds: DataSource) => ds.manager.count(Thing);',
      "export const d = (m: EntityManager) => m.getRepository(Thing).findOne({ where: { id: 'x' } });",
      "export const e = (m: EntityManager) => m.createQueryBuilder(Thing, 't').getMany();",
      'export class S { constructor(private readonly things: Repository<Thing>) {} f() { return this.things.exists(); } }',
    ];
    for (const text of CALLS) {
      it(`a service may not: ${text}`, async () => {
        const messages = await lint('libs/domain/src/project/project.service.ts', text);
        assert.equal(messages.length, 1, JSON.stringify(messages));
        assert.equal(messages[0].messageId, 'call');
      });
    }

    it('the same calls pass in the room repository, and in a service inside a transaction it owns', async () => {
      assert.deepEqual(await lint('libs/domain/src/project/project.repository.ts', CALLS.join('\n')), []);
      const service =
        'export const t = (ds: DataSource, save: (em: EntityManager) => Promise<void>) => ds.transaction((em) => save(em));\n' +
        'export const n = (em: EntityManager) => em.create(Thing, {});';
      assert.deepEqual(await lint('libs/domain/src/project/project.service.ts', service), []);
    });

    it('no service is exempt: one call in a service of any room fails', async () => {
      for (const file of ['libs/domain/src/auth/session.service.ts', 'libs/domain/src/cycle/cycle.service.ts']) {
        const messages = await lint(file, CALLS[0]);
        assert.deepEqual(
          messages.map((m) => m.messageId),
          ['call'],
          file,
        );
      }
    });
  },
);
