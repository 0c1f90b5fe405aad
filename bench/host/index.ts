/**
 * The benchmark payload VS Code runs in its extension host (like the host tests' index): each bench
 * writes JSON lines to the file named in CUSTOM_ACTIONS_BENCH_OUTPUT, which bench/host.mjs tails.
 * Throws only when something could not be measured.
 */
import { note } from '../lib';
import { activation } from './activation';
import { idleUnwatched, rapidSaves, saveToDeploy } from './deploy';
import { type Bench, setUp } from './setup';
import { bigApplication } from './tree';

const benches: [string, (b: Bench) => Promise<void>][] = [
  ['idle', idleUnwatched],
  ['deploy', saveToDeploy],
  ['rapid', rapidSaves],
  ['tree', bigApplication],
  // Last: it disposes the extension's services to activate the bundle again.
  ['activation', activation],
];

export async function run(): Promise<void> {
  const only = (process.env.CUSTOM_ACTIONS_BENCH_ONLY ?? '').split(',').filter(Boolean);
  const b = await setUp();
  const failed: string[] = [];
  try {
    for (const [name, bench] of benches) {
      if (only.length > 0 && !only.includes(name)) continue;
      const started = Date.now();
      try {
        await bench(b);
        note(`host ${name}: ${Date.now() - started} ms`);
      } catch (error) {
        failed.push(name);
        note(`host ${name} could not measure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
      }
    }
  } finally {
    await b.restore().catch(() => undefined);
  }
  note('host: done');
  if (failed.length > 0) throw new Error(`could not measure: ${failed.join(', ')}`);
}
