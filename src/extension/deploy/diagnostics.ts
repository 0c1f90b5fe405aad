import * as vscode from 'vscode';
import { mightDefineMain } from '../../core/analysis/quickCheck';
import { type CodeProblem, mismatchProblems } from '../../core/deploy/checks';
import { type ActionMetadata } from '../../core/schema/metadata';
import { isInside } from '../../core/workspace/writeGuard';
import { Disposable } from '../lifecycle';
import { toRange } from '../ranges';
import { type Parts } from '../parts';
import { type AnalysisModule, loadAnalysis } from './analysisLoader';
import { type ActionFile, currentText, isCodeFile, isMetadataFile, mainOf, readActionYaml, sameUri } from './locate';
import { DIAGNOSTIC_SOURCE } from '../diagnosticSource';
import { exists } from '../files';
import { PerFileDebounce } from '../perFileDebounce';

const TYPING_PAUSE_MS = 300;

/**
 * Where the code of an action disagrees with its action.yaml, as diagnostics on the exact parameter.
 * The compiler is loaded only when a file that may define main is opened or changed.
 */
export class CodeDiagnostics extends Disposable {
  readonly collection = this.register(vscode.languages.createDiagnosticCollection('customActions.code'));
  private readonly debounce = this.register(
    new PerFileDebounce(
      (uri) => void this.refresh(uri).catch((error: unknown) => this.s.log.warn(`Checking ${uri.path} against action.yaml failed: ${String(error)}`)),
    ),
  );

  /**
   * Each file's latest check or removal: a check that ends after a newer one began (it reads the disk
   * on its way) changes nothing.
   */
  private readonly latest = new Map<string, number>();
  private tickets = 0;

  constructor(private readonly s: Pick<Parts, 'context' | 'log' | 'model'>) {
    super();
    // A deleted action, or a file gone from disk whose editor closed: its problems go with it, though
    // VS Code may keep its document a while after the tab closes, and no close event comes for a file
    // that was never open (main.ts is checked when its action.yaml changes).
    const prune = () => void this.prune().catch((error: unknown) => this.s.log.warn(`Clearing the problems of deleted files failed: ${String(error)}`));
    this.register(this.s.model.onDidChange(prune));
    this.register(vscode.window.tabGroups.onDidChangeTabs((e) => e.closed.length > 0 && prune()));
    // Deleted outside VS Code (a checkout, rm -r): a folder's deletion comes as the folder's alone.
    const deletions = this.register(vscode.workspace.createFileSystemWatcher('**/*', true, true, false));
    this.register(deletions.onDidDelete((gone) => this.hasUnder(gone) && prune()));
    this.register(vscode.workspace.onDidOpenTextDocument((d) => this.schedule(d.uri, 0)));
    this.register(
      vscode.workspace.onDidChangeTextDocument((e) => {
        if (e.contentChanges.length > 0) this.schedule(e.document.uri, TYPING_PAUSE_MS);
      }),
    );
    // A closed editor may have dropped unsaved text: what remains is the file on disk.
    this.register(vscode.workspace.onDidCloseTextDocument((d) => this.schedule(d.uri, TYPING_PAUSE_MS)));
    // Editors restored with the window: checked once the extension host has settled, not during activation.
    const restored = setTimeout(() => vscode.workspace.textDocuments.forEach((d) => this.schedule(d.uri, 0)), 1_000);
    this.register({ dispose: () => clearTimeout(restored) });
  }

  schedule(uri: vscode.Uri, delayMs: number): void {
    if (!/\.(ts|ya?ml)$/.test(uri.path)) return;
    this.debounce.schedule(uri, delayMs);
  }

  /** Recomputes the diagnostics of a code file, or of the code beside an action.yaml. */
  async refresh(uri: vscode.Uri): Promise<void> {
    const file = await this.s.model.fileAt(uri);
    if (!file) {
      // Moved out of its action folder, or the project changed: no action's code any more.
      this.forget(uri);
      return;
    }
    if (isMetadataFile(file)) {
      const code = new Map<string, vscode.Uri>([[mainOf(file.folder).toString(), mainOf(file.folder)]]);
      for (const d of vscode.workspace.textDocuments) {
        if (sameUri(vscode.Uri.joinPath(d.uri, '..'), file.folder) && d.uri.path.endsWith('.ts')) code.set(d.uri.toString(), d.uri);
      }
      for (const u of code.values()) {
        const codeFile = await this.s.model.fileAt(u);
        if (codeFile && isCodeFile(codeFile)) await this.check(codeFile, await currentText(u));
      }
      return;
    }
    if (isCodeFile(file)) await this.check(file, await currentText(uri));
  }

  /**
   * Where the code disagrees with action.yaml as the editor has it, by the rule of a deploy's checks
   * (`src/core/deploy/checks.ts`); the parser's errors are the language service's to show. The
   * analysis bundle is loaded only for a file that may define main.
   */
  private async check(file: ActionFile, text: string | undefined): Promise<void> {
    const key = file.uri.toString();
    const ticket = ++this.tickets;
    this.latest.set(key, ticket);
    if (text === undefined) return this.forget(file.uri);
    const yaml = await readActionYaml(file.folder, 'current');
    // An action.yaml with problems has its own diagnostics; comparing with half a metadata says nothing.
    const problems = yaml?.metadata ? this.mismatches(file, text, yaml.metadata) : [];
    const present = await this.present(file.uri);
    if (this.latest.get(key) !== ticket) return;
    if (!present) return this.forget(file.uri);
    this.collection.set(file.uri, problems.map(toDiagnostic));
  }

  private mismatches(file: ActionFile, text: string, metadata: ActionMetadata): CodeProblem[] {
    const analysis = {
      mightDefineMain,
      compareWithMetadata: (...args: Parameters<AnalysisModule['compareWithMetadata']>) =>
        loadAnalysis(this.s.context.extensionUri).compareWithMetadata(...args),
    };
    return mismatchProblems(analysis, text, metadata, file.name);
  }

  private forget(uri: vscode.Uri): void {
    // Only a file checked before can have a check under way to outdate.
    if (this.latest.has(uri.toString())) this.latest.set(uri.toString(), ++this.tickets);
    this.collection.delete(uri);
  }

  /** On disk, or in an editor's tab (a deleted file whose unsaved text is still shown keeps its problems). */
  private async present(uri: vscode.Uri): Promise<boolean> {
    const shown = vscode.window.tabGroups.all.some((group) =>
      group.tabs.some((tab) => tab.input instanceof vscode.TabInputText && tab.input.uri.toString() === uri.toString()),
    );
    return shown || (await exists(uri));
  }

  private hasUnder(folder: vscode.Uri): boolean {
    let found = false;
    this.collection.forEach((uri) => (found ||= uri.scheme === folder.scheme && uri.authority === folder.authority && isInside(folder.path, uri.path)));
    return found;
  }

  private async prune(): Promise<void> {
    const uris: vscode.Uri[] = [];
    this.collection.forEach((uri) => uris.push(uri));
    for (const uri of uris) {
      const ticket = this.latest.get(uri.toString());
      // Made again meanwhile and checked anew: that check's problems stand.
      if (!(await this.present(uri)) && this.latest.get(uri.toString()) === ticket) this.forget(uri);
    }
  }
}

export function toDiagnostic(problem: CodeProblem): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(problem.range), problem.message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = problem.code;
  return diagnostic;
}
