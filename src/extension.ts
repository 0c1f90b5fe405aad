import type * as vscode from 'vscode';
import { useNetworkSettings } from './extension/network';
import { start, type TestApi } from './extension/start';

export type { TestApi } from './extension/start';

export function activate(context: vscode.ExtensionContext): TestApi | undefined {
  const started = performance.now();
  // Requests go through undici, loaded on the first one, by VS Code's proxy and certificate settings.
  useNetworkSettings(context);
  return start(context, started);
}

export function deactivate(): void {}
