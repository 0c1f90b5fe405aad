import * as vscode from 'vscode';
import { type ActionsModel } from '../model';

/** "Run in Test", "Run in Live" and "Debug" above every input set file. */
export class InputSetCodeLens implements vscode.CodeLensProvider {
  constructor(private readonly model: ActionsModel) {}

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    if (!(await this.model.inputSetAt(document.uri))) return [];
    const top = new vscode.Range(0, 0, 0, 0);
    return [
      ...(['Test', 'Live'] as const).map(
        (env) => new vscode.CodeLens(top, { title: `$(play) Run in ${env}`, command: 'customActions.runInputSet', arguments: [document.uri, env] }),
      ),
      new vscode.CodeLens(top, { title: '$(debug-alt) Debug', command: 'customActions.debugInputSet', arguments: [document.uri] }),
    ];
  }
}
