import ts from 'typescript';
import { type ActionMetadata } from '../schema/metadata';
import { generateTypes } from '../typegen/generateTypes';
import { compareIn, compareWithMetadata } from './compare';
import { type ActionFiles, createProgramOf } from './program';
import { rangeOf } from './range';
import { syntaxErrors, type SyntaxProblem } from './syntax';
import { type Mismatch } from './types';

export interface CheckItem {
  readonly source: string;
  /** Without metadata, only the parser's errors: nothing is compared. */
  readonly metadata: ActionMetadata | undefined;
  readonly fileName?: string;
  /** action.generated.ts as given; by default the one generated from the metadata. */
  readonly generatedSource?: string;
}

export interface CheckResult {
  /** compareWithMetadata's mismatches; undefined when the item had no metadata. */
  readonly mismatches: Mismatch[] | undefined;
  /** syntaxErrors' problems. */
  readonly syntax: SyntaxProblem[];
}

/**
 * compareWithMetadata and syntaxErrors for many actions at once, with the same answers as one at a
 * time: one program holds every action's files, each action in its own folder, so the lib's globals
 * are merged once and one checker serves all, and the syntax errors come from the files that program
 * parsed. A file without imports or exports is a script, whose declarations would be globals that
 * other actions see: such an action is checked alone.
 */
export function checkMany(items: readonly CheckItem[]): CheckResult[] {
  const results: (CheckResult | undefined)[] = items.map(() => undefined);
  const parsed = new Map<string, ts.SourceFile>();
  let pending = items.map((item, index) => ({ item, index, files: filesOf(item, index) }));
  while (pending.length > 0) {
    const { checker, program, mains, generated } = createProgramOf(
      pending.map((p) => p.files),
      true,
      parsed,
    );
    const scripts = new Set(pending.filter((_, i) => !ts.isExternalModule(mains[i]!) || (generated[i] !== undefined && !ts.isExternalModule(generated[i]!))));
    if (scripts.size > 0) {
      for (const { item, index } of scripts) results[index] = alone(item);
      pending = pending.filter((p) => !scripts.has(p));
      continue;
    }
    pending.forEach(({ item, index }, i) => {
      const file = mains[i]!;
      const syntax = program.getSyntacticDiagnostics(file).map((d) => {
        const start = d.start ?? 0;
        return { message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), range: rangeOf(file, start, start + (d.length ?? 0)) };
      });
      results[index] = { mismatches: item.metadata ? compareIn(file, checker, item.metadata) : undefined, syntax };
    });
    pending = [];
  }
  return results.map((r) => r!);
}

function filesOf(item: CheckItem, index: number): ActionFiles {
  return {
    folder: `/batch/${index}/action`,
    mainSource: item.source,
    generatedSource: item.metadata ? (item.generatedSource ?? generateTypes(item.metadata)) : undefined,
    fileName: item.fileName,
  };
}

function alone(item: CheckItem): CheckResult {
  const mismatches = item.metadata
    ? compareWithMetadata(item.source, item.metadata, { fileName: item.fileName, generatedSource: item.generatedSource })
    : undefined;
  return { mismatches, syntax: syntaxErrors(item.source) };
}
