import * as vscode from 'vscode';
import { type ActionMetadata } from '../../core/schema';
import { MAIN_FILE } from '../../core/workspace';
import { type LocalRunRequest } from '../../sandbox/runner/local/localRun';
import { readText } from '../files';

/**
 * What Debug and the Testing view's Local runs share: the harness (dist/run-local.js), the Node that
 * runs it, and the request, made from main.ts as it is in the editor.
 */

export function harnessPath(extensionUri: vscode.Uri): string {
  return vscode.Uri.joinPath(extensionUri, 'dist', 'run-local.js').fsPath;
}

/**
 * The Node that runs the harness: `runtimeExecutable` (the `customActions.debug.runtimeExecutable`
 * setting) or, when empty, the extension host's own runtime; in desktop VS Code that is Electron,
 * which behaves as Node with ELECTRON_RUN_AS_NODE.
 */
export function harnessRuntime(runtimeExecutable: string): { command: string; env: Record<string, string> } {
  const own = runtimeExecutable === '';
  const electron = own && process.versions.electron !== undefined;
  return { command: own ? process.execPath : runtimeExecutable, env: electron ? { ELECTRON_RUN_AS_NODE: '1' } : {} };
}

/** The text of main.ts the user sees: the open editor's, unsaved edits included, else the file's. */
export async function currentMainText(folder: vscode.Uri): Promise<{ main: vscode.Uri; code: string }> {
  const main = vscode.Uri.joinPath(folder, MAIN_FILE);
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === main.toString());
  return { main, code: open ? open.getText() : await readText(main) };
}

/** One run of the action in `folder` with these inputs, on main.ts as it is in the editor. */
export async function localRunRequest(folder: vscode.Uri, metadata: ActionMetadata, inputs: unknown, timeoutMs?: number): Promise<LocalRunRequest> {
  const { main, code } = await currentMainText(folder);
  if (main.scheme !== 'file') throw new Error('A local run needs the action on this machine’s disk (a file: folder).');
  return { mainPath: main.fsPath, code, metadata, inputs, ...(timeoutMs === undefined ? {} : { timeoutMs }) };
}
