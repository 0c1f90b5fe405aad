import type * as vscode from 'vscode';
import type * as Analysis from '../../core/analysis';

export type AnalysisModule = typeof Analysis;

let loaded: AnalysisModule | undefined;

/**
 * In a browser the analysis (the TypeScript compiler, which runs in a browser too) is in the one
 * bundle: a browser's worker cannot require dist/analysis.js by its path. It is evaluated on first
 * need all the same (the require below is the bundle's own), and with its small built-in lib: VS
 * Code's lib folder is not on a file system the worker can read.
 */
export function loadAnalysis(_extensionUri: vscode.Uri): AnalysisModule {
  if (!loaded) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require('../../core/analysis') as AnalysisModule;
    // No lib folder on disk: the compiler would ask Node where its own is.
    module.configureLibFolder(null);
    loaded = module;
  }
  return loaded;
}
