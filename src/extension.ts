import * as vscode from 'vscode';
import { setDefaultTransport } from './core/client';
import { createNodeTransport } from './core/client/nodeTransport';
import { activateExtension } from './extension/activate';
import { type Services } from './extension/services';

export interface TestApi {
  readonly services: Services;
  /** How long `activate` took, for the benchmarks. */
  readonly activationMs: number;
}

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const started = performance.now();
  // Requests go through undici's pools, loaded on the first one.
  setDefaultTransport(createNodeTransport());
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
