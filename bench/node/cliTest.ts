/**
 * `custom-actions test` of 100 input sets (issue #28, target ≤ 1.5 s): the built command as a
 * pipeline runs it, from the start of the process to its exit, on one action's 100 cases locally.
 * The median of eleven runs after one warm-up (the file cache, not the process, is what it warms).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { emit, median } from '../lib';

const root = path.resolve(__dirname, '..', '..');
const cli = path.join(root, 'dist', 'cli.js');
const dir = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-bench-cli-'));
try {
  writeFileSync(path.join(dir, 'customactions.yaml'), stringify({ baseUrl: 'http://127.0.0.1:1', applications: [{ id: 'bench', folder: 'bench' }] }));
  const folder = path.join(dir, 'bench', 'add');
  mkdirSync(path.join(folder, 'inputs'), { recursive: true });
  const metadata = {
    key: 'add',
    name: 'Add',
    description: '',
    developerEmail: 'dev@example.com',
    parameters: [
      { name: 'a', type: 'number' },
      { name: 'b', type: 'number' },
    ],
    result: { type: 'number' },
  };
  writeFileSync(path.join(folder, 'action.yaml'), stringify(metadata));
  writeFileSync(path.join(folder, 'main.ts'), 'export async function main(a: number, b: number): Promise<number> {\n  return a + b;\n}\n');
  for (let i = 0; i < 100; i++)
    writeFileSync(
      path.join(folder, 'inputs', `case-${String(i).padStart(3, '0')}.json`),
      JSON.stringify({ inputs: { a: i, b: 1 }, expect: { result: i + 1 } }),
    );
  const times: number[] = [];
  const loadBefore = os.loadavg()[0]!;
  for (let run = 0; run < 12; run++) {
    const started = performance.now();
    const result = spawnSync(process.execPath, [cli, 'test'], { cwd: dir, env: { PATH: process.env.PATH ?? '' }, encoding: 'utf8' });
    const elapsed = performance.now() - started;
    if (result.status !== 0) throw new Error(`custom-actions test exited ${result.status}: ${result.stderr}`);
    if (run > 0) times.push(elapsed);
  }
  emit({
    bench: 'cli',
    metric: `test of 100 input sets (process start to exit, median of ${times.length})`,
    value: median(times) / 1000,
    target: 1.5,
    unit: 's',
    note: `min ${(Math.min(...times) / 1000).toFixed(2)} s, max ${(Math.max(...times) / 1000).toFixed(2)} s, load ${loadBefore.toFixed(1)} → ${os.loadavg()[0]!.toFixed(1)}`,
  });
} finally {
  rmSync(dir, { recursive: true, force: true });
}
