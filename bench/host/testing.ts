import * as vscode from 'vscode';
import { type ActionMetadata } from '../../src/core/schema';
import { serializeActionYaml } from '../../src/core/workspace';
import { type Services } from '../../src/extension/services';
import { workspaceRoot } from '../../test/host/support';
import { emit, median } from '../lib';

const APP = 'test-app';
const KEY = 'bench-testing';
const CASES = 100;
const ROUNDS = 5;
const metadata: ActionMetadata = {
  key: KEY,
  name: 'Bench testing',
  description: 'Totals an order',
  developerEmail: 'bench@example.com',
  parameters: [
    { name: 'prices', type: { type: 'collection', items: 'number' } },
    { name: 'customer', type: 'text' },
  ],
  result: { type: { type: 'object', properties: { total: { type: 'number' }, lines: { type: 'number' } } } },
};
const CODE = `export async function main(prices: number[], customer: string): Promise<{ total: number; lines: number }> {
  console.log('order of ' + customer);
  await new Promise((resolve) => setTimeout(resolve, 1));
  return { total: prices.reduce((a, b) => a + b, 0), lines: prices.length };
}
`;

/**
 * 100 input sets of one action run with the Local profile, as the Testing view's Run does: from the
 * request to the run's end, every case judged (the run's own reports are counted to be sure).
 */
export async function localCases(s: Services): Promise<void> {
  const folder = vscode.Uri.joinPath(workspaceRoot(), 'actions', KEY);
  const write = (uri: vscode.Uri, text: string) => vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  await write(vscode.Uri.joinPath(folder, 'action.yaml'), serializeActionYaml(metadata));
  await write(vscode.Uri.joinPath(folder, 'main.ts'), CODE);
  for (let i = 0; i < CASES; i++) {
    const prices = Array.from({ length: (i % 7) + 1 }, (_, j) => j + i);
    const content = { inputs: { prices, customer: `c${i}` }, expect: { result: { total: prices.reduce((a, b) => a + b, 0), lines: prices.length } } };
    await write(vscode.Uri.joinPath(folder, 'inputs', `case-${String(i).padStart(3, '0')}.json`), JSON.stringify(content));
  }
  const { controller, profiles } = s.testing;
  const original = controller.createTestRun;
  let passed = 0;
  controller.createTestRun = (request, name, persist) => {
    const run = original.call(controller, request, name, persist);
    return new Proxy(run, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown;
        if (property === 'passed') passed++;
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    });
  };
  try {
    // An application's item is named by its uid (its project's folder and its id), as two projects may list the same id.
    const application = (await s.model.applications()).find((a) => a.id === APP && a.project.root.toString() === workspaceRoot().toString());
    if (!application) throw new Error(`the fixture's project should list ${APP}`);
    await controller.resolveHandler?.(undefined);
    const app = controller.items.get(`app:${application.uid}`);
    if (!app) throw new Error(`no ${APP} in the Testing view`);
    await controller.resolveHandler?.(app);
    const action = app.children.get(`action:${folder.toString()}`);
    if (!action) throw new Error(`no ${KEY} in the Testing view`);
    const times: number[] = [];
    let first = 0;
    for (let round = 0; round <= ROUNDS; round++) {
      passed = 0;
      const started = performance.now();
      const local = profiles.local;
      if (!local) throw new Error('no Local profile');
      await local.runHandler(new vscode.TestRunRequest([action], undefined, local), new vscode.CancellationTokenSource().token);
      const ms = performance.now() - started;
      if (passed !== CASES) throw new Error(`${passed} of ${CASES} cases passed`);
      if (round === 0) first = ms;
      else times.push(ms);
    }
    emit({
      bench: 'testing',
      metric: 'local_100_cases_ms_median',
      value: median(times),
      target: 3_000,
      unit: 'ms',
      note: `Local profile, request to the run's end, ${ROUNDS} rounds; first (files read for the first time) ${Math.round(first)} ms`,
    });
  } finally {
    controller.createTestRun = original;
    await vscode.workspace.fs.delete(folder, { recursive: true }).then(undefined, () => undefined);
  }
}
