import * as vscode from 'vscode';
import { outdatedBy } from '../../core/testing';
import { ACTION_FILE, INPUTS_FOLDER, MAIN_FILE } from '../../core/workspace';
import { Disposable } from '../lifecycle';

/**
 * Marks verdicts outdated, as VS Code's own test extensions do (`invalidateTestResults`): a change to
 * an action's main.ts or action.yaml outdates the results of that action's cases, a change to an
 * input set the result of its case. An edit in the editor counts, unsaved or not, because a Local run
 * takes main.ts and the input set as the editor has them; so does a change on disk the editor did not
 * make (a git pull, a merge or pull written by the extension, another program). Nothing else is
 * outdated: the other actions keep their verdicts.
 */
export class OutdatedVerdicts extends Disposable {
  constructor(
    private readonly controller: vscode.TestController,
    /** The test item of the action in `folder`, or of the case in `file`, when the view has it. */
    private readonly itemFor: (folder: vscode.Uri, file?: vscode.Uri) => vscode.TestItem | undefined,
  ) {
    super();
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.changed(e.document.uri);
      }),
    );
    for (const pattern of [`**/${MAIN_FILE}`, `**/${ACTION_FILE}`, `**/${INPUTS_FOLDER}/*.json`]) {
      const watcher = this.register(vscode.workspace.createFileSystemWatcher(pattern));
      this.register(watcher.onDidChange((uri) => this.changed(uri)));
      this.register(watcher.onDidCreate((uri) => this.changed(uri)));
      this.register(watcher.onDidDelete((uri) => this.changed(uri)));
    }
  }

  private changed(uri: vscode.Uri): void {
    const by = outdatedBy(uri.path);
    if (!by) return;
    // Found by id, scheme included: a diff's git: or an untitled copy of main.ts matches no item.
    const folder = uri.with({ path: by.folder, query: '', fragment: '' });
    const item = by.scope === 'action' ? this.itemFor(folder) : this.itemFor(folder, uri);
    if (item) this.controller.invalidateTestResults(item);
  }
}
