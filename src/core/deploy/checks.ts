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

export interface CodeProblem {
  readonly message: string;
  readonly range: Range;
  /** The mismatch's kind (`count`, `type`, …) or `syntax`: the code the Problems panel shows. */
  readonly code: string;
}

type AnalysisModule = Pick<typeof Analysis, 'compareWithMetadata' | 'syntaxErrors' | 'mightDefineMain'>;

/**
 * Where `text`, the code of file `fileName` of an action, disagrees with `metadata`: the mismatches
 * first (only main.ts must define main; another file without it is a helper), then the parser's errors
 * not already reported at the same place.
 */
export function codeProblems(analysis: AnalysisModule, text: string, metadata: ActionMetadata, fileName: string = MAIN_FILE): CodeProblem[] {
  const mismatches =
    fileName !== MAIN_FILE && !analysis.mightDefineMain(text)
      ? []
      : analysis.compareWithMetadata(text, metadata, { fileName }).filter((m) => fileName === MAIN_FILE || m.kind !== 'missing-main');
  const found: CodeProblem[] = mismatches.map((m) => ({ message: m.message, range: m.range, code: m.kind }));
  const at = new Set(found.map((p) => `${p.range.start.line}:${p.range.start.character}:${p.message}`));
  for (const p of analysis.syntaxErrors(text)) {
    if (!at.has(`${p.range.start.line}:${p.range.start.character}:${p.message}`)) found.push({ message: p.message, range: p.range, code: 'syntax' });
  }
  return found;
}
