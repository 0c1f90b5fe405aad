import * as vscode from 'vscode';
import { setDefaultTransport } from './core/client';
import { createFetchTransport } from './core/client/fetchTransport';
import { activateExtension } from './extension/activate';
import { type TestApi } from './extension';

/**
 * The entry of dist/browser.js, the extension in VS Code for the Web: requests by fetch; what needs
 * a process (the local sandbox, Debug, Local test runs) is left out by the `.browser.ts` twins.
 */
export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const started = performance.now();
  setDefaultTransport(createFetchTransport());
  try {
    const services = activateExtension(context);
    return context.extensionMode === vscode.ExtensionMode.Test ? { services, activationMs: performance.now() - started } : undefined;
  } catch (error) {
    void vscode.window.showErrorMessage(`Custom Actions could not start: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

export function deactivate(): void {}
