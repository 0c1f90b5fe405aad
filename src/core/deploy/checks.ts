/**
 * The checks code goes through before it is deployed, shared by the command line and the extension
 * (which adds TypeScript's own errors of the editor): where `main` disagrees with the metadata, as the
 * Problems panel shows it, and what the parser refuses. The analysis bundle carries the TypeScript
 * compiler, so the caller hands in the module it loaded.
 */
import type * as Analysis from '../analysis';
import { type Range } from '../analysis/types';
import { type ActionMetadata } from '../schema/metadata';
import { MAIN_FILE } from '../workspace/files';
import { type FileProblem } from './outcome';
import { type WorkspaceAction } from './pipeline';

export interface CodeProblem {
  readonly message: string;
  readonly range: Range;
  /** The mismatch's kind (`count`, `type`, …) or `syntax`: the code the Problems panel shows. */
  readonly code: string;
}

type AnalysisModule = Pick<typeof Analysis, 'compareWithMetadata' | 'syntaxErrors' | 'mightDefineMain'>;
type BatchAnalysisModule = Pick<typeof Analysis, 'checkMany' | 'mightDefineMain'>;

/**
 * Where `text`, the code of file `fileName` of an action, disagrees with `metadata`: the mismatches
 * first, then the parser's errors not already reported at the same place. Without metadata (an
 * action.yaml with problems of its own, reported on that file) only the parser's errors: comparing
 * with half a metadata says nothing.
 */
export function codeProblems(analysis: AnalysisModule, text: string, metadata: ActionMetadata | undefined, fileName: string = MAIN_FILE): CodeProblem[] {
  const found = metadata ? mismatchProblems(analysis, text, metadata, fileName) : [];
  return withSyntax(found, analysis.syntaxErrors(text));
}

export interface CodeToCheck {
  readonly text: string;
  readonly metadata: ActionMetadata | undefined;
  readonly fileName?: string;
}

/**
 * codeProblems of many files at once, the same problems in the same order, in a fraction of the
 * time: one TypeScript program for all (`checkMany`) instead of two per file. For a deploy or a
 * command-line check of many actions; the editor checks the one file it saves with codeProblems.
 */
export function codeProblemsOfMany(analysis: BatchAnalysisModule, files: readonly CodeToCheck[]): CodeProblem[][] {
  const compared = files.map((f) => {
    const fileName = f.fileName ?? MAIN_FILE;
    return f.metadata !== undefined && (fileName === MAIN_FILE || analysis.mightDefineMain(f.text));
  });
  const results = analysis.checkMany(
    files.map((f, i) => ({ source: f.text, metadata: compared[i] ? f.metadata : undefined, fileName: f.fileName ?? MAIN_FILE })),
  );
  return results.map((result, i) => {
    const fileName = files[i]!.fileName ?? MAIN_FILE;
    const found = (result.mismatches ?? []).filter((m) => fileName === MAIN_FILE || m.kind !== 'missing-main').map(asProblem);
    return withSyntax(found, result.syntax);
  });
}

/** The parser's errors after the mismatches, but not one already reported at the same place. */
function withSyntax(found: CodeProblem[], syntax: readonly { readonly message: string; readonly range: Range }[]): CodeProblem[] {
  const at = new Set(found.map(placeOf));
  for (const p of syntax) {
    const problem = { message: p.message, range: p.range, code: 'syntax' };
    if (!at.has(placeOf(problem))) found.push(problem);
  }
  return found;
}

function asProblem(m: { readonly message: string; readonly range: Range; readonly kind: string }): CodeProblem {
  return { message: m.message, range: m.range, code: m.kind };
}

/** A workspace action's code problems at its file (none without code), as a deploy and `custom-actions check` report them. */
export function actionCodeProblems(
  analysis: AnalysisModule,
  action: { readonly codeFile: string; readonly code: string | undefined; readonly metadata: ActionMetadata },
): FileProblem[] {
  if (action.code === undefined) return [];
  return codeProblems(analysis, action.code, action.metadata).map((p) => ({ file: action.codeFile, range: p.range, message: p.message, code: p.code }));
}

/**
 * Only where `text` disagrees with `metadata`, for an editor whose language service reports the
 * parser's errors itself. Only main.ts must define main; another file without it is a helper.
 */
export function mismatchProblems(
  analysis: Omit<AnalysisModule, 'syntaxErrors'>,
  text: string,
  metadata: ActionMetadata,
  fileName: string = MAIN_FILE,
): CodeProblem[] {
  if (fileName !== MAIN_FILE && !analysis.mightDefineMain(text)) return [];
  const mismatches = analysis.compareWithMetadata(text, metadata, { fileName }).filter((m) => fileName === MAIN_FILE || m.kind !== 'missing-main');
  return mismatches.map(asProblem);
}

/** Line, column and message: two reports of one problem share it. */
export function placeOf(p: { readonly message: string; readonly range: { readonly start: { readonly line: number; readonly character: number } } }): string {
  return `${p.range.start.line}:${p.range.start.character}:${p.message}`;
}

/**
 * A deploy's `checkCode` that checks many actions' code at once (`codeProblemsOfMany`) with the same
 * problems as `actionCodeProblems`: the first action asked for is checked with the next actions of the
 * list given (those likely to send), `chunk` at a time, so the first writes go out after one chunk's
 * check and the next chunk is checked while they are on the wire. The first chunk is `first` long (a
 * deploy gives its concurrency): every action under way has its verdict, and no write waits on the
 * check of one that cannot start yet. The analysis loads on the first ask.
 */
export class CodeChecks {
  private readonly index = new Map<string, number>();
  private readonly found = new Map<number, readonly FileProblem[]>();
  private readonly chunk: number;
  private readonly first: number;

  constructor(
    private readonly analysis: () => BatchAnalysisModule,
    private readonly actions: readonly WorkspaceAction[],
    sizes: { readonly chunk?: number; readonly first?: number } = {},
  ) {
    this.chunk = sizes.chunk ?? 25;
    this.first = sizes.first ?? this.chunk;
    actions.forEach((a, i) => this.index.set(a.codeFile, i));
  }

  readonly problemsOf = (action: WorkspaceAction & { readonly metadata: ActionMetadata }): readonly FileProblem[] => {
    if (action.code === undefined) return [];
    const i = this.index.get(action.codeFile);
    const listed = i === undefined ? undefined : this.actions[i];
    // Only what was handed in is checked in a batch; anything else (another text) on its own.
    if (i === undefined || listed?.code !== action.code || listed.metadata !== action.metadata) return this.check([action])[0]!;
    if (!this.found.has(i)) {
      const batch: number[] = [];
      const size = this.found.size === 0 ? this.first : this.chunk;
      for (let j = i; j < this.actions.length && batch.length < size; j++)
        if (!this.found.has(j) && this.actions[j]!.code !== undefined && this.actions[j]!.metadata) batch.push(j);
      this.check(batch.map((j) => this.actions[j]!)).forEach((problems, k) => this.found.set(batch[k]!, problems));
    }
    return this.found.get(i)!;
  };

  private check(actions: readonly WorkspaceAction[]): FileProblem[][] {
    const problems = codeProblemsOfMany(
      this.analysis(),
      actions.map((a) => ({ text: a.code!, metadata: a.metadata })),
    );
    return problems.map((list, k) => list.map((p) => ({ file: actions[k]!.codeFile, range: p.range, message: p.message, code: p.code })));
  }
}
