import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Document, type Node } from 'yaml';
import { type PathSegment, type Problem } from '../schema/validate';
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
  return problems.map((p) => ({ ...p, range: rangeOfPath(parsed.doc, parsed.lines, p.path, text), severity: 'error' as const }));
}

/**
 * Brings a document to a new value with the smallest change: untouched parts keep their comments,
 * quoting and order; fields the new value lacks are removed; new fields are appended.
 */
export function applyValue(doc: Document, value: unknown): void {
  if (!isPlainObject(value) || !isMap(doc.contents)) {
    doc.contents = doc.createNode(value) as Node;
    return;
  }
  reconcile(doc, [], value);
}

function reconcile(doc: Document, path: readonly PathSegment[], next: unknown): void {
  const node = path.length === 0 ? doc.contents : doc.getIn(path, true);
  if (isPlainObject(next) && isMap(node)) {
    const keys = new Set(Object.keys(next));
    for (const pair of [...node.items]) {
      const key = isScalar(pair.key) ? pair.key.value : pair.key;
      if (typeof key === 'string' && !keys.has(key)) node.delete(pair.key);
    }
    for (const [key, child] of Object.entries(next)) {
      if (child === undefined) {
        doc.deleteIn([...path, key]);
        continue;
      }
      if (node.has(key)) reconcile(doc, [...path, key], child);
      else doc.setIn([...path, key], child);
    }
    return;
  }
  if (Array.isArray(next) && isSeq(node)) {
    while (node.items.length > next.length) node.items.pop();
    next.forEach((child, index) => {
      if (index < node.items.length) reconcile(doc, [...path, index], child);
      else node.add(doc.createNode(child));
    });
    return;
  }
  if (isScalar(node) && node.value === next) return;
  if (isScalar(node) && isPrimitive(next)) {
    // Keeps the scalar's comments and style; only the value changes.
    node.value = next;
    return;
  }
  doc.setIn(path, next);
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isPrimitive(value: unknown): boolean {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}
