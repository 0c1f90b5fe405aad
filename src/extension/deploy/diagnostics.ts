import * as vscode from 'vscode';
import { mightDefineMain } from '../../core/analysis/quickCheck';
import { type CodeProblem, mismatchProblems } from '../../core/deploy/checks';
import { Disposable } from '../lifecycle';
import { toRange } from '../ranges';
import { type Services } from '../services';
import { type AnalysisModule, loadAnalysis } from './analysisLoader';
import { type ActionFile, currentText, isCodeFile, isMetadataFile, mainOf, readActionYaml, sameUri } from './locate';
import { DIAGNOSTIC_SOURCE } from '../diagnosticSource';
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

  constructor(private readonly s: Pick<Services, 'context' | 'log' | 'model'>) {
    super();
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
    if (!file) return;
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
    if (text === undefined) {
      this.collection.delete(file.uri);
      return;
    }
    const yaml = await readActionYaml(file.folder, 'current');
    // An action.yaml with problems has its own diagnostics; comparing with half a metadata says nothing.
    if (!yaml?.metadata) {
      this.collection.set(file.uri, []);
      return;
    }
    const analysis = {
      mightDefineMain,
      compareWithMetadata: (...args: Parameters<AnalysisModule['compareWithMetadata']>) =>
        loadAnalysis(this.s.context.extensionUri).compareWithMetadata(...args),
    };
    this.collection.set(file.uri, mismatchProblems(analysis, text, yaml.metadata, file.name).map(toDiagnostic));
  }
}

export function toDiagnostic(problem: CodeProblem): vscode.Diagnostic {
  const diagnostic = new vscode.Diagnostic(toRange(problem.range), problem.message, vscode.DiagnosticSeverity.Error);
  diagnostic.source = DIAGNOSTIC_SOURCE;
  diagnostic.code = problem.code;
  return diagnostic;
}
