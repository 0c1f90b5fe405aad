/**
 * The command line against the sandbox, as a pipeline runs it (`node dist/cli.js`, a process per
 * deploy): a deploy of 100 changed actions against 100 bare PUTs of their code sent over the same
 * number of connections, and a deploy of 100 unchanged actions. Rounds are interleaved (deploy, bare,
 * deploy, …) so a busy moment of the machine hits both sides. Needs a build (npm run build:dev).
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Pool } from 'undici';
import { stringify } from 'yaml';
import { startSandbox } from '../../src/sandbox';
import { loadTemplate } from '../../src/sandbox/store/database';
import type * as Analysis from '../../src/core/analysis';
import { emit, median, note, runBench } from '../lib';

const BENCH = 'cli';
const ACTIONS = 100;
const CONNECTIONS = 8;
const ROUNDS = 5;
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
    const deploys: number[] = [];
    const bares: number[] = [];
    for (let round = 1; round <= ROUNDS; round++) {
      writeCode(round);
      deploys.push(await deploy(dir, key));
      bares.push(await bare(round));
    }
    const unchanged: number[] = [];
    for (let i = 0; i < ROUNDS; i++) unchanged.push(await deploy(dir, key));
    const ratio = median(deploys) / median(bares);
    note(
      `deploy of ${ACTIONS} changed actions: ${deploys.map(Math.round).join(', ')} ms; ${ACTIONS} bare PUTs over ${CONNECTIONS} connections: ${bares.map(Math.round).join(', ')} ms`,
    );
    emit({ bench: BENCH, metric: 'deploy_100_changed_ms_median', value: median(deploys), unit: 'ms', note: `a process per deploy, ${CONNECTIONS} at once` });
    emit({ bench: BENCH, metric: 'bare_100_puts_ms_median', value: median(bares), unit: 'ms', note: `${CONNECTIONS} connections` });
    emit({ bench: BENCH, metric: 'deploy_100_changed_vs_bare_puts', value: ratio, target: 1.2, unit: 'x' });
    emit({ bench: BENCH, metric: 'deploy_100_unchanged_ms_median', value: median(unchanged), target: 1000, unit: 'ms', note: 'one list request, no write' });
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
  } finally {
    await pool.close();
    await sandbox.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBench(BENCH, main);
