import type * as vscode from 'vscode';
import { setDefaultTransport } from './core/client';
import { createFetchTransport } from './core/client/fetchTransport';
import { start, type TestApi } from './extension/start';

/**
 * The entry of dist/browser.js, the extension in VS Code for the Web: requests by fetch; what needs
 * a process (the local sandbox, Debug, Local test runs) is left out by the `.browser.ts` twins.
 */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const started = performance.now();
  setDefaultTransport(createFetchTransport());
  return start(context, started);
}

export function deactivate(): void {}
