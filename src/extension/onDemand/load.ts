import * as path from 'node:path';
import type * as OnDemand from './index';
import type * as vscode from 'vscode';

export type OnDemandModule = typeof OnDemand;

let loaded: OnDemandModule | undefined;

/**
 * What activation does not need is in its own bundle, dist/on-demand.js, required here the first time
 * it is needed (the first command, debug run, test run or held push). It takes every module it shares
 * with dist/extension.js from there, so nothing exists twice (scripts/build/onDemandSplit.mjs).
 */
export function onDemand(context: Pick<vscode.ExtensionContext, 'extensionUri'>): OnDemandModule {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(context.extensionUri.fsPath, 'dist', 'on-demand.js')) as OnDemandModule;
  return loaded;
}
