// The editor and the command line judge the same code the same way: the fixture actions below are
// opened in VS Code, whose Problems panel gets the extension's diagnostics, and checked by the built
// `custom-actions check` as a process; each action's problems (file, line, column, message) agree.
import * as assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { serializeActionYaml } from '../../../src/core/workspace';
import { EXTENSION_ID, eventually, runCli, workspaceRoot } from '../support';

const APP_FOLDER = 'actions';

const metadata = (key: string) => ({
  key,
  name: key,
  description: '',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'n', type: 'number', description: 'A number' },
    { name: 'label', type: 'text', description: 'A label' },
  ],
  result: { type: 'number', description: '' },
});

/** One action per verdict: agreeing code, and each way code can disagree with its metadata. */
const FIXTURES: Record<string, string> = {
  'cli-agree-ok': 'export function main(n: number, label: string): number {\n  return n + label.length;\n}\n',
  'cli-agree-count': 'export function main(n: number): number {\n  return n;\n}\n',
  'cli-agree-type': 'export function main(n: string, label: string): number {\n  return n.length + label.length;\n}\n',
  'cli-agree-result': 'export function main(n: number, label: string): string {\n  return label + n;\n}\n',
  'cli-agree-nomain': 'export function helper(n: number): number {\n  return n;\n}\n',
};

interface CliCheck {
  actions: { key: string; ok: boolean; problems: { file: string; line: number; column: number; message: string }[] }[];
}

describe('The command line and the editor agree on code checks', function () {
  this.timeout(120_000);
  const root = workspaceRoot();
  const folderOf = (key: string) => vscode.Uri.joinPath(root, APP_FOLDER, key);

  before(async () => {
    for (const [key, code] of Object.entries(FIXTURES)) {
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folderOf(key), 'action.yaml'), new TextEncoder().encode(serializeActionYaml(metadata(key))));
      await vscode.workspace.fs.writeFile(vscode.Uri.joinPath(folderOf(key), 'main.ts'), new TextEncoder().encode(code));
    }
  });
  after(async () => {
    for (const key of Object.keys(FIXTURES)) await rm(folderOf(key).fsPath, { recursive: true, force: true });
  });

  it('gives each fixture action the same problems at the same places', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension);
    const cli = path.join(extension.extensionPath, 'dist', 'cli.js');
    const result = await runCli(cli, ['check', '--json', ...Object.keys(FIXTURES)], root.fsPath);
    assert.equal(result.code, 6, result.stderr);
    const fromCli = JSON.parse(result.stdout) as CliCheck;

    for (const key of Object.keys(FIXTURES)) await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folderOf(key), 'main.ts'));
    const problemsOf = (key: string) =>
      vscode.languages
        .getDiagnostics(vscode.Uri.joinPath(folderOf(key), 'main.ts'))
        .filter((d) => d.source === 'Custom Actions')
        .map((d) => ({ file: `${APP_FOLDER}/${key}/main.ts`, line: d.range.start.line + 1, column: d.range.start.character + 1, message: d.message }));
    const refused = Object.keys(FIXTURES).filter((k) => k !== 'cli-agree-ok');
    // The extension checks an opened file after a pause; every refused fixture shows once it has.
    const fromEditor = await eventually(() => {
      const all = Object.fromEntries(Object.keys(FIXTURES).map((k) => [k, problemsOf(k)]));
      return refused.every((k) => all[k]!.length > 0) ? all : undefined;
    }, 'the diagnostics of every refused fixture');

    for (const key of Object.keys(FIXTURES)) {
      const cliAction = fromCli.actions.find((a) => a.key === key);
      assert.ok(cliAction, `the command line checked ${key}`);
      assert.equal(cliAction.ok, fromEditor[key]!.length === 0, `${key}: the verdicts differ`);
      assert.deepEqual(cliAction.problems, fromEditor[key], `${key}: the problems differ`);
    }
    assert.equal(fromCli.actions.find((a) => a.key === 'cli-agree-ok')?.ok, true);
  });
});
