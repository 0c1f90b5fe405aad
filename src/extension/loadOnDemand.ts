import * as path from 'node:path';
import type * as vscode from 'vscode';

let loaded: object | undefined;

/**
 * What activation does not need is in its own bundle, dist/on-demand.js, required here the first time
 * it is needed (the first command, debug run, test run or held push). It takes every module it shares
 * with dist/extension.js from there, so nothing exists twice (scripts/build/onDemandSplit.mjs).
 *
 * Each caller names what it takes (`Needed`, a type of its own feature's on-demand modules), so no
 * import, not even of a type, leads from eager code through the whole on-demand bundle back to
 * itself; the entry (index.ts) checks that it hands out each caller's `Needed`.
 */
export function onDemand<Needed extends object>(context: Pick<vscode.ExtensionContext, 'extensionUri'>): Needed {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require(path.join(context.extensionUri.fsPath, 'dist', 'on-demand.js')) as object;
  return loaded as Needed;
}
