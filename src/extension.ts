import * as vscode from 'vscode';
import { activateExtension } from './extension/activate';
import { useNetworkSettings } from './extension/network';
import { type Services } from './extension/services';

export interface TestApi {
  readonly services: Services;
  /** How long `activate` took, for the benchmarks. */
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const started = performance.now();
  // Requests go through undici, loaded on the first one, by VS Code's proxy and certificate settings.
  useNetworkSettings(context);
  try {
    const services = activateExtension(context);
    // Internals (the key store among them) are handed out only to the extension's own test runs.
    return context.extensionMode === vscode.ExtensionMode.Test ? { services, activationMs: performance.now() - started } : undefined;
  } catch (error) {
    void vscode.window.showErrorMessage(`Custom Actions could not start: ${error instanceof Error ? error.message : String(error)}`);
    throw error;
  }
}

export function deactivate(): void {}
