/**
 * The benchmark payload VS Code runs in its extension host (like the host tests' index): each bench
 * writes JSON lines to the file named in CUSTOM_ACTIONS_BENCH_OUTPUT, which bench/host.mjs tails.
 * Throws only when something could not be measured.
 */
import { type Services } from '../../src/extension/services';
import { api } from '../../test/host/support';
import { note } from '../lib';
import { activation } from './activation';
import { debugClick } from './debug';
import { idleUnwatched, rapidSaves, saveToDeploy } from './deploy';
import { firstClick } from './firstClick';
import { type Bench, setUp } from './setup';
import { localCases } from './testing';
import { bigApplication } from './tree';

/** Benches of the fixture as a user has it (`local-sandbox`), run before setUp points the project at the proxy. */
const beforeSetUp: [string, (s: Services) => Promise<void>][] = [
  ['first-click', firstClick],
  ['testing', localCases],
  ['debug', debugClick],
];

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
  const wanted = (name: string) => only.length === 0 || only.includes(name);
  const failed: string[] = [];
  const measure = async (name: string, bench: () => Promise<void>) => {
    const started = Date.now();
    try {
      await bench();
      note(`host ${name}: ${Date.now() - started} ms`);
    } catch (error) {
      failed.push(name);
      note(`host ${name} could not measure: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    }
  };
  const { services } = await api();
  for (const [name, bench] of beforeSetUp) if (wanted(name)) await measure(name, () => bench(services));
  if (benches.some(([name]) => wanted(name))) {
    const b = await setUp();
    try {
      for (const [name, bench] of benches) if (wanted(name)) await measure(name, () => bench(b));
    } finally {
      await b.restore().catch(() => undefined);
    }
  }
  note('host: done');
  if (failed.length > 0) throw new Error(`could not measure: ${failed.join(', ')}`);
}
