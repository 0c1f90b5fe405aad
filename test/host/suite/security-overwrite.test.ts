import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { saveInputSet } from '../../../src/extension/events/inputSets';
import { type AutoAnswer, shownWhile, type Shown } from '../notifications';
import { workspaceRoot } from '../support';
import { projectFile, readText } from '../suiteFixture';

/** Answers the pickers the commands show: the first item of a quick pick, `input` for an input box. */
function answerPickers(input: string): vscode.Disposable {
  const window = vscode.window as unknown as Record<string, unknown>;
  const originals = { showQuickPick: window.showQuickPick, showInputBox: window.showInputBox };
  window.showQuickPick = async (items: readonly unknown[] | Thenable<readonly unknown[]>) => (await items)[0];
  window.showInputBox = () => Promise.resolve(input);
  return { dispose: () => Object.assign(window, originals) };
}

async function withAnswers(input: string, answer: AutoAnswer, run: () => Thenable<unknown>): Promise<Shown[]> {
  const pickers = answerPickers(input);
  try {
    return await shownWhile(run, answer);
  } finally {
    pickers.dispose();
  }
}

/**
 * Writes other than Pull that could replace a local file: Create Project File and Save Inputs as Set.
 * Each asks before it replaces a file that differs, and never writes over unsaved changes.
 */
describe('Security: other writes replace no local file unasked', function () {
  this.timeout(60_000);
  const project = projectFile;
  let original: Uint8Array;

  before(async () => {
    original = await vscode.workspace.fs.readFile(project());
  });

  // Whatever a failing run wrote, the suites after this one get the fixture's project file back.
  after(async () => {
    await vscode.workspace.fs.writeFile(project(), original);
  });

  it('Create Project File does not replace an existing customactions.yaml unless told', async () => {
    const before = await readText(project());
    const shown = await withAnswers(
      'https://platform.example.com',
      () => undefined,
      () => vscode.commands.executeCommand('customActions.initProject'),
    );
    assert.equal(await readText(project()), before, 'the project file is unchanged');
    assert.ok(
      shown.some((m) => m.modal && /customactions\.yaml/.test(m.message) && m.items.includes('Replace')),
      JSON.stringify(shown),
    );
  });

  it('Save Inputs as Set asks before replacing a set of the same name, and never writes over unsaved changes', async () => {
    const folder = vscode.Uri.joinPath(workspaceRoot(), 'overwrite', 'some-action');
    const set = vscode.Uri.joinPath(folder, 'inputs', 'typical.json');
    await vscode.workspace.fs.writeFile(set, new TextEncoder().encode('{ "kept": true }\n'));

    await withAnswers(
      'typical',
      () => undefined,
      () => saveInputSet(folder, { replaced: true }),
    );
    assert.equal(await readText(set), '{ "kept": true }\n', 'dismissed: kept');

    await withAnswers(
      'typical',
      (m) => (m.modal ? 'Replace' : undefined),
      () => saveInputSet(folder, { replaced: true }),
    );
    assert.deepEqual(JSON.parse(await readText(set)), { replaced: true }, 'replaced when told');

    const document = await vscode.window.showTextDocument(set);
    await document.edit((e) => e.insert(new vscode.Position(0, 0), ' '));
    const shown = await withAnswers(
      'typical',
      () => 'Replace',
      () => saveInputSet(folder, { third: true }),
    );
    assert.deepEqual(JSON.parse(await readText(set)), { replaced: true }, 'a file with unsaved changes is not written');
    assert.ok(
      shown.some((m) => /unsaved/.test(m.message)),
      JSON.stringify(shown),
    );
    await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
  });
});
