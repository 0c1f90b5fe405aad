import * as vscode from 'vscode';
import { mightDefineMain } from '../../core/analysis/quickCheck';
import { codeProblems, placeOf } from '../../core/deploy/checks';
import { type ActionMetadata } from '../../core/schema';
import { parseActionYaml, type ParsedAction } from '../../core/workspace';
import { type LocalAction, localActionFromText } from '../localActions';
import { type Parts } from '../parts';
import { loadAnalysis } from './analysisLoader';
import { toRange } from '../ranges';
import { type ActionFile, actionYamlOf, isCodeFile, openDocument, readActionYaml } from './locate';
import { typescriptErrorsOf } from './typescriptErrors';

/** What is known of a text about to be pushed as the code of an action, before anything is sent. */
export type CodeCheck =
  | { readonly kind: 'not-code' }
  | { readonly kind: 'no-main'; readonly file: ActionFile }
  | {
      readonly kind: 'code';
      readonly file: ActionFile;
      /** The action's key, from action.yaml as saved: the action the server is asked about. */
      readonly key: string;
      /** The other folders of the application that declare the key too (`model.sameKeyFolders`), begun with the check. */
      readonly sharing: Promise<readonly LocalAction[] | undefined>;
      /**
       * The errors of the text, computed on first ask: where it disagrees with action.yaml as the
       * editor has it, what the parser refuses in it, and TypeScript's errors of it.
       */
      problems(): Promise<readonly vscode.Diagnostic[]>;
    };

/** A save's check stays good this long: from the start of the save to its end, not for a later save. */
const REUSE_MS = 10_000;

/**
 * The checks a save's code goes through before it is pushed, begun when the save begins
 * (`onWillSaveTextDocument`) so that reading action.yaml and running the compiler overlap the
 * editor writing the file, instead of adding to the time from the save to the server's answer.
 * A check is taken once, by the push of the same text; anything else starts afresh.
 */
export class CodeChecks {
  private readonly ahead = new Map<string, { readonly text: string; readonly until: number; readonly check: Promise<CodeCheck> }>();

  constructor(private readonly s: Pick<Parts, 'context' | 'model'>) {}

  /** Starts checking `text` as the code of `uri`, its problems included when the push will refuse on them. */
  begin(uri: vscode.Uri, text: string, withProblems: boolean): void {
    const now = Date.now();
    for (const [key, entry] of this.ahead) if (entry.until <= now) this.ahead.delete(key);
    const check = this.compute(uri, text);
    this.ahead.set(uri.toString(), { text, until: now + REUSE_MS, check });
    // Failures surface when the push takes the check; begun ahead, nobody may ever ask.
    void check.then((c) => (withProblems && c.kind === 'code' ? c.problems() : undefined)).catch(() => undefined);
  }

  /** The check of `text` begun ahead by its save, or a new one. */
  take(uri: vscode.Uri, text: string): Promise<CodeCheck> {
    const key = uri.toString();
    const entry = this.ahead.get(key);
    if (entry?.text === text) this.ahead.delete(key);
    return entry?.text === text && entry.until > Date.now() ? entry.check : this.compute(uri, text);
  }

  private async compute(uri: vscode.Uri, text: string): Promise<CodeCheck> {
    const file = await this.s.model.fileAt(uri);
    if (!file || !isCodeFile(file)) return { kind: 'not-code' };
    if (!mightDefineMain(text) || loadAnalysis(this.s.context.extensionUri).findMain(text, file.name) === undefined) return { kind: 'no-main', file };
    const saved = await readActionYaml(file.folder, 'saved');
    const key = saved?.metadata?.key ?? localActionFromText(file.folder, saved?.text ?? '').key;
    let problems: Promise<readonly vscode.Diagnostic[]> | undefined;
    const sharing = this.s.model.sameKeyFolders(file.app, file.folder, key);
    // Awaited by the push that takes the check; begun ahead, nobody may ever ask.
    sharing.catch(() => undefined);
    return {
      kind: 'code',
      file,
      key,
      sharing,
      problems: () => (problems ??= this.problems(file, text, asTheEditorHasIt(file, saved)?.metadata)),
    };
  }

  /** A deploy's checks (`codeProblems`, as the command line's), with TypeScript's own errors on top. */
  private async problems(file: ActionFile, text: string, metadata: ActionMetadata | undefined): Promise<vscode.Diagnostic[]> {
    const published = typescriptErrorsOf(file.uri, text);
    const found = codeProblems(loadAnalysis(this.s.context.extensionUri), text, metadata, file.name);
    // TypeScript's errors of this very text, never those it published for the text before it; none
    // when the editor has moved past it, and then the parser and the comparison decide.
    const typescript = (await published) ?? [];
    const reported = new Set(typescript.map(placeOf));
    const ours = found.filter((p) => p.code !== 'syntax' || !reported.has(placeOf(p))).map((p) => new vscode.Diagnostic(toRange(p.range), p.message));
    return [...ours, ...typescript];
  }
}

/** action.yaml as an open editor shows it, else as saved (read once for both). */
function asTheEditorHasIt(file: ActionFile, saved: (ParsedAction & { text: string }) | undefined): ParsedAction | undefined {
  const open = openDocument(actionYamlOf(file.folder));
  if (!open || open.getText() === saved?.text) return saved;
  return parseActionYaml(open.getText());
}
