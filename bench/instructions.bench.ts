/**
 * GET one's instructions per request under valgrind's callgrind: the NestJS floor
 * (bench/floor-server.ts) and Meridian builds, each started under `valgrind --tool=callgrind
 * --instr-atstart=no`, warmed with `--warm` GET ones uncounted, then counted over `--requests` GET
 * ones (4 keep-alive connections; `callgrind_control` turns the counting on, zeroes, dumps). The
 * instructions of every thread of the process (V8's compiler and garbage collector threads too),
 * in user space only: a system call's kernel time is not counted. A count does not depend on the
 * machine's load, as the floor bench's CPU time does, but V8's background compilation and garbage
 * collection still vary from run to run (about ±20 % on the floor). Prints each server's total and
 * its share by kind of code (garbage collector, compiler, inline caches and runtime, …) from
 * `callgrind_annotate`.
 *
 *   npm run build
 *   node dist/bench/instructions.bench.js [--requests 2000] [--warm 3000] [--items 500]
 *        [--floor 'floor;opts=--max-old-space-size=768 --max-semi-space-size=8'] …
 *        [--variant 'before;main=dist/server-base/main.js'] [--variant 'after'] …
 *
 * `--floor` adds a floor server (label, and its NODE_OPTIONS); without one, the floor with Node's
 * defaults (as the floor bench starts it). Meridian starts as the image does. Needs `valgrind`;
 * takes minutes per server (valgrind runs it 20–50 times slower). A benchmark, not a test.
 */
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { Agent } from 'node:http';
import * as os from 'node:os';
import * as path from 'node:path';
import { benchHeader, freePort, imageEnv, opt, scratchDatabase, setUp, startServer, variantsFromArgs } from './harness';
import { once } from './load';
import { postgresSeedConnection, seedProject } from './seed';

const REQUESTS = Number(opt('requests', '2000'));
const WARM = Number(opt('warm', '3000'));
const ITEMS = Number(opt('items', '500'));
const CONNECTIONS = 4;

interface Started {
  label: string;
  child: ChildProcess;
  base: string;
  /** the environment `callgrind_control` needs to find the process (valgrind names its pipes after HOST) */
  controlEnv: NodeJS.ProcessEnv;
}

/** Kinds of code by symbol, first match wins (the rest is "other"). */
const KINDS: [string, RegExp][] = [
  [
    'garbage collector',
    /Marking|Scavenge|Sweep|MarkCompact|Heap::|HeapObject::SizeFromMap|BodyDescriptor|Evacuat|RememberedSet|SlotSet|MemoryAllocator|PagedSpace|Worklist|MarkBit|Page/,
  ],
  ['compiler', /compiler::|maglev|Maglev|Parser|Scanner|Bytecode|interpreter::|Compiler::|Zone|turboshaft|Ast/],
  [
    'inline caches and runtime',
    /IC::|LookupIterator|Map::|DescriptorArray|JSObject::|Runtime_|StubCache|FeedbackNexus|TransitionsAccessor|StringTable|FieldIndex|Object::|Builtins_.*IC|LoadIC|StoreIC|Prototype/,
  ],
  ['builtins', /Builtins_/],
  ['JIT code', /^\?\?\?:0x/],
  ['libc', /libc|memcpy|memmove|malloc|free|strlen|memset/],
];

/** Total instructions of a callgrind dump, and by kind of code. */
function kindsOf(file: string): { total: number; kinds: Map<string, number> } {
  const out = execFileSync('callgrind_annotate', ['--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
  });
  const kinds = new Map<string, number>();
  let total = 0;
  for (const line of out.split('\n')) {
    const m = /^\s*([\d,]+) \(\s*[\d.]+%\)\s+(.*)$/.exec(line);
    if (!m || m[2].includes('PROGRAM TOTALS')) continue;
    const ir = Number(m[1].replace(/,/g, ''));
    total += ir;
    const kind = KINDS.find(([, re]) => re.test(m[2]))?.[0] ?? 'other';
    kinds.set(kind, (kinds.get(kind) ?? 0) + ir);
  }
  return { total, kinds };
}

async function underCallgrind(
  label: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  outDir: string,
  controlEnv: NodeJS.ProcessEnv,
): Promise<Started> {
  const child = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--smc-check=all-non-file',
      `--callgrind-out-file=${path.join(outDir, 'callgrind.%p.out')}`,
      process.execPath,
      ...args,
    ],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  const base = await new Promise<string>((resolve, reject) => {
    const onData = (d: Buffer) => {
      out = (out + d).slice(-100_000);
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) resolve(m[1]);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${label} exited ${code}:\n${out}`)));
  });
  child.stdout!.removeAllListeners('data').resume();
  child.stderr!.removeAllListeners('data').resume();
  return { label, child, base, controlEnv };
}

async function main() {
  console.log(benchHeader('instructions bench'));
  const scratch = await scratchDatabase('meridian_instructions');
  const outDir = fs.mkdtempSync(path.join(os.tmpdir(), 'meridian-callgrind-'));
  const db = scratch.url;
  const env = { DATABASE_URL: db, DATABASE_POOL_SIZE: String(CONNECTIONS) };
  try {
    const first = await startServer({ mode: 'image', node: process.execPath, env });
    const t = await setUp(first.base);
    const ids = await seedProject(t, first, ITEMS, () => postgresSeedConnection(db));
    const headers = { 'x-api-key': t.key };
    const next = (n: number) => ({
      method: 'GET' as const,
      path: `/api/v1/workspaces/${t.slug}/projects/${t.projectId}/work-items/${ids[n % ids.length]}/`,
      headers,
    });
    const floors: string[] = [];
    process.argv.forEach((a, i) => a === '--floor' && floors.push(process.argv[i + 1]));
    if (!floors.length) floors.push('floor: NestJS + Express');
    const starts: (() => Promise<Started>)[] = [];
    for (const spec of floors) {
      const [label, ...parts] = spec.split(';');
      const opts = parts.find((p) => p.startsWith('opts='))?.slice(5) ?? '';
      starts.push(async () => {
        const floorEnv = {
          ...process.env,
          NODE_OPTIONS: opts,
          PORT: '0',
          FLOOR: 'nest',
          FLOOR_DATABASE_URL: db,
          FLOOR_POOL_SIZE: String(CONNECTIONS),
        };
        return underCallgrind(label, [path.join(__dirname, 'floor-server.js')], floorEnv, outDir, process.env);
      });
    }
    for (const v of variantsFromArgs('Meridian')) {
      starts.push(async () => {
        const port = await freePort();
        const base: NodeJS.ProcessEnv = { ...process.env };
        for (const k of ['DATABASE_URL', 'DATA_DIR', 'NODE_OPTIONS', 'MALLOC_ARENA_MAX']) delete base[k];
        const serverEnv: NodeJS.ProcessEnv = {
          ...base,
          ...imageEnv(),
          NODE_ENV: 'production',
          SECRET_KEY: 'b'.repeat(64),
          HOST: '127.0.0.1',
          API_KEY_RATE_LIMIT: '100000000/minute',
          ...env,
          ...v.env,
          PORT: String(port),
        };
        if (v.nodeOptions) serverEnv.NODE_OPTIONS = `${serverEnv.NODE_OPTIONS ?? ''} ${v.nodeOptions}`.trim();
        return underCallgrind(v.label, [v.main], serverEnv, outDir, { ...process.env, HOST: '127.0.0.1' });
      });
    }
    const rows: string[] = [];
    for (const start of starts) {
      const s = await start();
      const control = (...args: string[]) =>
        execFileSync('callgrind_control', [...args, String(s.child.pid)], { env: s.controlEnv, stdio: 'ignore' });
      const run = async (count: number) => {
        const agent = new Agent({ keepAlive: true, maxSockets: CONNECTIONS });
        let n = 0;
        await Promise.all(
          Array.from({ length: CONNECTIONS }, async () => {
            while (n < count) {
              const answer = await once(s.base, next(n++), agent);
              if (answer.status !== 200) throw new Error(`${s.label}: ${answer.status} ${answer.body}`);
            }
          }),
        );
        agent.destroy();
      };
      try {
        await run(WARM);
        control('-i', 'on');
        control('-z');
        await run(REQUESTS);
        control('-d', 'counted');
        control('-i', 'off');
      } finally {
        s.child.kill('SIGKILL');
      }
      const dump = fs
        .readdirSync(outDir)
        .filter((f) => f.startsWith(`callgrind.${s.child.pid}.out.`))
        .map((f) => path.join(outDir, f))
        .find((f) => /^desc: Trigger: dump counted/m.test(fs.readFileSync(f, 'utf8')));
      if (!dump) throw new Error(`${s.label}: no callgrind dump in ${outDir}`);
      const { total, kinds } = kindsOf(dump);
      const per = (x: number) => Math.round(x / REQUESTS).toLocaleString('en');
      const shares = [...kinds]
        .sort((a, b) => b[1] - a[1])
        .map(([k, x]) => `${k} ${per(x)}`)
        .join('; ');
      rows.push(`| ${s.label} | ${per(total)} | ${shares} |`);
      console.log(rows[rows.length - 1]);
    }
    console.log(
      `\nGET one work item, ${ITEMS + 200} work items, ${WARM} requests uncounted then ${REQUESTS} counted, ${CONNECTIONS} connections; dumps in ${outDir}`,
    );
    console.log('| server | instructions per request | by kind of code, per request |\n|---|---:|---|');
    for (const row of rows) console.log(row);
  } finally {
    await scratch.drop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
