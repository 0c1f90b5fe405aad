/**
 * The command line against the sandbox, as a pipeline runs it (`node dist/cli.js`, a process per
 * deploy, from its start to its exit): a deploy of 100 changed actions against 100 bare PUTs of their
 * code sent over the same number of connections, and a deploy of 100 unchanged actions. Each changed
 * deploy is paired with a bare round made right beside it, the one or the other first in turn, and the
 * figure is the median of the pairs' ratios with its 95 % interval: a busy moment of a shared machine
 * then weighs on both halves of one pair. Needs a build; `npm run build` measures what the package
 * ships (minified), `npm run build:dev` works too and is said so in the figures' notes.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { stringify } from 'yaml';
import { startSandbox } from '../../src/sandbox';
import { loadTemplate } from '../../src/sandbox/store/database';
import type * as Analysis from '../../src/core/analysis';
import { emit, median, medianInterval, note, runBench } from '../lib';

const BENCH = 'cli';
const ACTIONS = 100;
const CONNECTIONS = 8;
/** Pairs of a changed deploy and a bare round, and unchanged deploys; enough for an interval of the median. */
const PAIRS = 15;
const UNCHANGED = 11;
const root = path.resolve(__dirname, '..', '..');
const cli = path.join(root, 'dist', 'cli.js');

const metadata = (key: string) => ({
  key,
  name: `Action ${key}`,
  description: 'Adds one.',
  developerEmail: 'dev@example.com',
  parameters: [{ name: 'n', type: 'number', description: 'A number' }],
  result: { type: 'number', description: 'n + 1' },
});
const code = (round: number) => `export async function main(n: number): Promise<number> {\n  return n + ${round};\n}\n`;

function deploy(dir: string, key: string): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, 'deploy', '--concurrency', String(CONNECTIONS)], {
      cwd: dir,
      env: { PATH: process.env.PATH ?? '', CUSTOM_ACTIONS_KEY: key },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (status) => (status === 0 ? resolve(performance.now() - started) : reject(new Error(`deploy exited ${status}: ${stderr}`))));
  });
}

async function main(): Promise<void> {
  if (!existsSync(cli)) throw new Error(`${cli} is missing: npm run build:dev first`);
  await loadTemplate();
  const sandbox = await startSandbox({ applications: [{ id: 'bench', name: 'Bench' }], log: () => undefined });
  const dir = mkdtempSync(path.join(tmpdir(), 'custom-actions-cli-bench-'));
  const pool = new Pool(sandbox.url, { connections: CONNECTIONS });
  try {
    const key = sandbox.applications[0]!.key;
    writeFileSync(path.join(dir, 'customactions.yaml'), stringify({ baseUrl: sandbox.url, applications: [{ id: 'bench', folder: 'bench' }] }));
    const keys = Array.from({ length: ACTIONS }, (_, i) => `a${String(i).padStart(3, '0')}`);
    const writeCode = (round: number) => keys.forEach((k) => writeFileSync(path.join(dir, 'bench', k, 'main.ts'), code(round)));
    for (const k of keys) {
      mkdirSync(path.join(dir, 'bench', k), { recursive: true });
      writeFileSync(path.join(dir, 'bench', k, 'action.yaml'), stringify(metadata(k)));
    }
    writeCode(0);
    await deploy(dir, key);
    // The bare PUTs go to 100 other actions of the same application, so they never move the versions the deploys are based on.
    const ids: string[] = [];
    for (const k of keys) {
      const answer = await pool.request({
        method: 'POST',
        path: '/api/application/bench/actions',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json' },
        body: JSON.stringify(metadata(`bare${k}`)),
      });
      await answer.body.text();
      const location = String(answer.headers.location ?? '');
      if (answer.statusCode !== 201 || !location) throw new Error(`create: ${answer.statusCode}`);
      ids.push(location.split('/').pop()!);
    }
    const bare = async (round: number) => {
      const started = performance.now();
      let next = 0;
      const lane = async () => {
        for (let i = next++; i < ids.length; i = next++) {
          const answer = await pool.request({
            method: 'PUT',
            path: `/api/actions/${ids[i]}/implementation`,
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/typescript', accept: 'application/json' },
            body: code(round),
          });
          await answer.body.text();
          if (answer.statusCode >= 300) throw new Error(`bare PUT: ${answer.statusCode}`);
        }
      };
      await Promise.all(Array.from({ length: CONNECTIONS }, lane));
      return performance.now() - started;
    };
    await bare(0);
    const bundle = `dist/cli.js ${Math.round(readFileSync(cli).length / 1024)} KB${/\n\s{2,}\S/.test(readFileSync(cli, 'utf8').slice(0, 20_000)) ? ', not minified (build:dev)' : ', minified'}`;
    const loadBefore = loadavg()[0]!;
    const deploys: number[] = [];
    const bares: number[] = [];
    const ratios: number[] = [];
    for (let round = 1; round <= PAIRS; round++) {
      writeCode(round);
      let d: number;
      let b: number;
      if (round % 2) {
        d = await deploy(dir, key);
        b = await bare(round);
      } else {
        b = await bare(round);
        d = await deploy(dir, key);
      }
      deploys.push(d);
      bares.push(b);
      ratios.push(d / b);
    }
    const unchanged: number[] = [];
    for (let i = 0; i < UNCHANGED; i++) unchanged.push(await deploy(dir, key));
    const load = `load ${loadBefore.toFixed(1)} → ${loadavg()[0]!.toFixed(1)}`;
    const [low, high] = medianInterval(ratios);
    const ms = (values: readonly number[]) => values.map(Math.round).join(', ');
    note(
      `deploy of ${ACTIONS} changed actions: ${ms(deploys)} ms; ${ACTIONS} bare PUTs over ${CONNECTIONS} connections: ${ms(bares)} ms; unchanged: ${ms(unchanged)} ms`,
    );
    emit({
      bench: BENCH,
      metric: 'deploy_100_changed_ms_median',
      value: median(deploys),
      unit: 'ms',
      note: `a process per deploy, ${CONNECTIONS} at once; ${bundle}`,
    });
    emit({ bench: BENCH, metric: 'bare_100_puts_ms_median', value: median(bares), unit: 'ms', note: `${CONNECTIONS} connections` });
    emit({
      bench: BENCH,
      metric: 'deploy_100_changed_vs_bare_puts',
      value: median(ratios),
      target: 1.2,
      unit: 'x',
      note: `median of ${PAIRS} paired ratios, 95 % interval ${low!.toFixed(2)}–${high!.toFixed(2)}; ratio of medians ${(median(deploys) / median(bares)).toFixed(2)}; ${load}`,
    });
    emit({
      bench: BENCH,
      metric: 'deploy_100_unchanged_ms_median',
      value: median(unchanged),
      target: 1000,
      unit: 'ms',
      note: `median of ${UNCHANGED} (min ${Math.round(Math.min(...unchanged))}, max ${Math.round(Math.max(...unchanged))}); one list request, no write; ${load}`,
    });
    // What the deploy spends on checking code against its metadata (the TypeScript compiler), in-process.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const analysis = require(path.join(root, 'dist', 'analysis.js')) as typeof Analysis;
    const started = performance.now();
    for (let i = 0; i < ACTIONS; i++) analysis.compareWithMetadata(code(i), metadata(`a${i}`) as never, { fileName: 'main.ts' });
    emit({
      bench: BENCH,
      metric: 'check_100_actions_ms',
      value: performance.now() - started,
      unit: 'ms',
      note: 'in one process, the first check loads the compiler',
    });
    // What the deploy runs instead: the same checks a chunk of 25 actions at a time, one program each.
    const batched = performance.now();
    for (let from = 0; from < ACTIONS; from += 25)
      analysis.checkMany(Array.from({ length: 25 }, (_, i) => ({ source: code(from + i), metadata: metadata(`a${from + i}`) as never })));
    emit({
      bench: BENCH,
      metric: 'check_100_actions_batched_ms',
      value: performance.now() - batched,
      unit: 'ms',
      note: 'checkMany, 4 programs of 25 actions (as a deploy checks them), compiler already loaded',
    });
  } finally {
    await pool.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(BENCH, main);
