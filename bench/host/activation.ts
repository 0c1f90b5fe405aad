import * as path from 'node:path';
import type * as vscode from 'vscode';
import { emit, median } from '../lib';
import { type Bench } from './setup';

interface ExtensionModule {
  activate(context: vscode.ExtensionContext): unknown;
}

/**
 * activate() as VS Code ran it (timed by the extension itself in test runs), then the bundle loaded
 * afresh and activated again several times on a copy of the context, once the real one is disposed.
 * Runs last: it tears the extension's services down.
 */
export async function activation(b: Bench): Promise<void> {
  emit({ bench: 'activation', metric: 'activate_ms_first', value: b.activationMs, unit: 'ms', note: 'as VS Code ran it' });
  const context = b.services.context;
  const bundle = path.join(context.extensionUri.fsPath, 'dist', 'extension.js');
  for (const d of context.subscriptions.splice(0)) d.dispose();
  await new Promise((r) => setTimeout(r, 500));
  const loads: number[] = [];
  const activations: number[] = [];
  for (let i = 0; i < 11; i++) {
    delete require.cache[require.resolve(bundle)];
    const loadStarted = performance.now();
    // Loaded by path at run time, on purpose: the bundle VS Code loads, not a copy built into this one.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const extension = require(bundle) as ExtensionModule;
    loads.push(performance.now() - loadStarted);
    const copy = Object.create(context, { subscriptions: { value: [] as vscode.Disposable[] } }) as vscode.ExtensionContext;
    const started = performance.now();
    extension.activate(copy);
    activations.push(performance.now() - started);
    for (const d of copy.subscriptions) d.dispose();
    await new Promise((r) => setTimeout(r, 100));
  }
  emit({
    bench: 'activation',
    metric: 'activate_ms_median',
    value: median([b.activationMs, ...activations]),
    target: 25,
    unit: 'ms',
    note: `first and ${activations.length} re-activations`,
  });
  emit({ bench: 'activation', metric: 'bundle_load_ms_median', value: median(loads), unit: 'ms', note: 'require() of dist/extension.js, not cached' });
  // What the first command, form, debug or test run pays once: the on-demand bundle loaded beside the extension's.
  const onDemand = path.join(context.extensionUri.fsPath, 'dist', 'on-demand.js');
  const onDemandLoads: number[] = [];
  for (let i = 0; i < 11; i++) {
    delete require.cache[require.resolve(onDemand)];
    const started = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    require(onDemand);
    onDemandLoads.push(performance.now() - started);
  }
  emit({
    bench: 'activation',
    metric: 'on_demand_load_ms_median',
    value: median(onDemandLoads),
    unit: 'ms',
    note: 'require() of dist/on-demand.js, not cached: once, on first use',
  });
}
