import { spawn } from 'node:child_process';
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type TestApi } from '../../src/extension';
import { type Application } from '../../src/extension/project';
import { type Services } from '../../src/extension/services';

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

/** The fixture's application `appId` as the project file names it now (read afresh), on a server that is up. */
export async function fixtureApplication(services: Services, appId: string): Promise<Application> {
  await services.connections.baseUrl();
  await services.project.reload();
  const state = await services.project.only();
  assert.ok(state.kind === 'ok', 'the fixture project file is valid');
  const app = state.applications.find((a) => a.id === appId);
  assert.ok(app, `the fixture project names ${appId}`);
  return app;
}

/** Removes what a suite made: its actions on the server and their folders; the model reads afresh. */
export async function removeActions(services: Services, app: Application, ids: Iterable<string>, folders: Iterable<vscode.Uri>): Promise<void> {
  for (const id of ids) await services.connections.call(app, (c) => c.deleteAction(id)).catch(() => undefined);
  for (const folder of folders) await vscode.workspace.fs.delete(folder, { recursive: true }).then(undefined, () => undefined);
  services.model.refresh();
}

/** Puts back the project file a suite changed (its base URL, say), and reads the project and model afresh. */
export async function restoreProjectFile(services: Services, text: string): Promise<void> {
  await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(workspaceRoot(), 'customactions.yaml'), new TextEncoder().encode(text));
  await services.project.reload();
  services.model.refresh();
}

export { eventually, staysTrue } from '../support/eventually';

/**
 * Trusts or distrusts the workspace as the extension sees it, through the command it registers in test
 * runs only: the host tests run where VS Code's workspace trust is disabled (everything is trusted).
 */
export async function setWorkspaceTrust(trusted: boolean): Promise<void> {
  await vscode.commands.executeCommand('customActions.test.setWorkspaceTrust', trusted);
}

/**
 * Does what the window regaining focus does, through the command the extension registers in test runs
 * only: the active file's action is checked on the server again, however recently it was. Returns when
 * the check is done; its effects are in the model (the tree), the status bar and the lock.
 */
export async function regainWindowFocus(): Promise<void> {
  await vscode.commands.executeCommand('customActions.test.regainWindowFocus');
}

/**
 * What an output channel of the extension shows, read from its document: VS Code hands an extension
 * the document of a channel the Output view shows. Undefined while no such document is open.
 */
export function outputChannelText(name: string): string | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'output' && decodeURIComponent(d.uri.path).endsWith(`-${name}`))?.getText();
}

/**
 * Ten lines of `main`, with `first` and `last` on lines 2 and 8: far enough apart that a change of each
 * merges without a conflict when the base is true, and shows as conflicts when there is none.
 */
export const codeWith = (first: string, last: string) =>
  `export function main(n: number): number {\n  const a = ${first};\n  const b = 2;\n  const c = 3;\n  const d = 4;\n  const e = 5;\n  const f = 6;\n  const g = ${last};\n  return a + b + c + d + e + f + g + n;\n}\n`;

/** What the built command line printed, run as a process. */
export interface CliRun {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `custom-actions` (`cli`, its dist/cli.js) in `cwd`, with only PATH and `env` in its environment. */
export function runCli(cli: string, args: readonly string[], cwd: string, env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], { cwd, env: { PATH: process.env.PATH ?? '', ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}
