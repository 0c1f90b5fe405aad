import * as vscode from 'vscode';
import { activateExtension } from './activate';
import { type Services } from './services';

export interface TestApi {
  readonly services: Services;
  /** How long `activate` took, for the benchmarks. */
  readonly activationMs: number;
}

/**
 * What both entries do once their transport is set (dist/extension.js's and dist/browser.js's): the
 * extension activated, or the reason it could not start shown and thrown. `started` is when the
 * entry's `activate` began, so the figure counts the transport's setup too.
 */
export function start(context: vscode.ExtensionContext, started: number): TestApi | undefined {
  try {
    const services = activateExtension(context);
    // Internals (the key store among them) are handed out only to the extension's own test runs.
    return context.extensionMode === vscode.ExtensionMode.Test ? { services, activationMs: performance.now() - started } : undefined;
  } catch (error) {
    void vscode.window.showErrorMessage(`Custom Actions could not start: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}
