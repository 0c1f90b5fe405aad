import * as vscode from 'vscode';
import { INPUTS_FOLDER, isInputSetFileName } from '../../core/workspace';
import { DIAGNOSTIC_SOURCE } from '../diagnosticSource';
import { Disposable } from '../lifecycle';
import { PerFileDebounce } from '../perFileDebounce';
import { type ActionsModel } from '../model';
import { toRange } from '../ranges';
import { type TestCase, readCase } from './cases';

/** inputs/<name>.json: the only files read as input sets. */
export function isInputSetPath(uri: vscode.Uri): boolean {
  const parts = uri.path.split('/');
  return parts.length >= 3 && parts[parts.length - 2] === INPUTS_FOLDER && isInputSetFileName(uri.path);
}

/**
 * The problems of input set files (inputs that do not fit the parameters, an unknown member of
 * `expect`, an invalid regular expression) on their place in the file, as the editor has it, and for
 * the files the Testing view has read.
 */
export class InputSetDiagnostics extends Disposable {
  private readonly collection = this.register(vscode.languages.createDiagnosticCollection('customActions.inputSets'));
  private readonly checks = this.register(new PerFileDebounce((uri) => void this.check(uri).catch(() => undefined)));

  constructor(private readonly model: ActionsModel) {
    super();
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d.uri, 0)));
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document.uri, 250);
      }),
    );
    // Editors restored with the window, once the extension host has settled.
    const restored = setTimeout(() => vscode.workspace.textDocuments.forEach((d) => this.schedule(d.uri, 0)), 1_000);
    this.register({ dispose: () => clearTimeout(restored) });
  }

  /** Shows a case's problems (read by the Testing view or a run). */
  show(testCase: TestCase): void {
    this.collection.set(
      testCase.uri,
      testCase.file.problems.map((p) => {
        const d = new vscode.Diagnostic(
          toRange(p.range),
          p.message,
          p.severity === 'warning' ? vscode.DiagnosticSeverity.Warning : vscode.DiagnosticSeverity.Error,
        );
        d.source = DIAGNOSTIC_SOURCE;
        return d;
      }),
    );
  }

  forget(uri: vscode.Uri): void {
    this.collection.delete(uri);
  }

  private schedule(uri: vscode.Uri, delayMs: number): void {
    if (!isInputSetPath(uri)) return;
    this.checks.schedule(uri, delayMs);
  }

  private async check(uri: vscode.Uri): Promise<void> {
    const found = await this.model.inputSetAt(uri);
    if (found) this.show(await readCase(uri, found.action));
  }
}
