import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type TestApi } from '../../src/extension';

export const EXTENSION_ID = 'custom-actions.custom-actions-vscode';

/** The extension's internals, handed out only in test runs. */
export async function api(): Promise<TestApi> {
  const extension = vscode.extensions.getExtension<TestApi | undefined>(EXTENSION_ID);
  assert.ok(extension, `${EXTENSION_ID} is not loaded in this host`);
  const exported = await extension.activate();
  assert.ok(exported, 'the extension exports its test API in test runs');
  return exported;
}

export function workspaceRoot(): vscode.Uri {
  const folder = vscode.workspace.workspaceFolders?.[0];
  assert.ok(folder, 'the test workspace is open');
  return folder.uri;
}

/** Polls until `check` returns a value other than undefined, or fails after `timeoutMs`. */
export async function eventually<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
