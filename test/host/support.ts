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

export { eventually, staysTrue } from '../support/eventually';
