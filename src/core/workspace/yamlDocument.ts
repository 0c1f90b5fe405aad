import { LineCounter, parseDocument, type Document } from 'yaml';
import { type Problem } from '../schema/validate';
import { type PositionedProblem, rangeOf, rangeOfPath } from './positions';

export interface ParsedYaml {
  readonly doc: Document;
  readonly lines: LineCounter;
  /** The plain value, or undefined when the YAML could not be read. */
  readonly value: unknown;
  readonly syntaxProblems: PositionedProblem[];
}

/** Reads YAML without ever throwing: syntax errors come back as positioned problems. */
export function readYaml(text: string): ParsedYaml {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false, uniqueKeys: true });
  const syntaxProblems: PositionedProblem[] = doc.errors.map((error) => ({
    path: [],
    message: error.message.split('\n')[0] ?? error.message,
    range: rangeOf(lines, error.pos[0], error.pos[1]),
    severity: 'error',
  }));
  let value: unknown;
  if (syntaxProblems.length === 0) {
    try {
      value = doc.toJS({ maxAliasCount: 100 });
    } catch (error) {
      syntaxProblems.push({ path: [], message: error instanceof Error ? error.message : String(error), range: rangeOf(lines, 0, 0), severity: 'error' });
    }
  }
  return { doc, lines, value, syntaxProblems };
}

export function positionProblems(parsed: ParsedYaml, text: string, problems: readonly Problem[]): PositionedProblem[] {
  return problems.map((p) => ({ ...p, range: rangeOfPath(parsed.doc, parsed.lines, p.path, text, p.onKey), severity: 'error' as const }));
}
