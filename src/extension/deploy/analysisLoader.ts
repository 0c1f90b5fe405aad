import { existsSync } from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type * as Analysis from '../../core/analysis';

export type AnalysisModule = typeof Analysis;

let loaded: AnalysisModule | undefined;

/**
 * The analysis bundle carries the TypeScript compiler, so it is required on first need rather than
 * at activation. It is pointed at the standard lib VS Code ships, when there is one, so types such
 * as `Promise` and `Array` resolve in full instead of through the small built-in lib.
 */
export function loadAnalysis(extensionUri: vscode.Uri): AnalysisModule {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(path.join(extensionUri.fsPath, 'dist', 'analysis.js')) as AnalysisModule;
    const lib = path.join(vscode.env.appRoot, 'extensions', 'node_modules', 'typescript', 'lib');
    if (existsSync(path.join(lib, 'lib.es2022.d.ts'))) module.configureLibFolder(lib);
    loaded = module;
  }
  return loaded;
}
