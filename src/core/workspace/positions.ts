import { type Document, type LineCounter, isMap, isNode, isScalar, type Node } from 'yaml';
import { type PathSegment } from '../schema/validate';

export interface Position {
  /** 0-based, like VS Code's. */
  readonly line: number;
  readonly character: number;
  readonly offset: number;
}

export interface Range {
  readonly start: Position;
  readonly end: Position;
}

export interface PositionedProblem {
  readonly path: readonly PathSegment[];
  readonly message: string;
  readonly range: Range;
  readonly severity: 'error' | 'warning';
}

export function rangeOf(lines: LineCounter, start: number, end: number): Range {
  return { start: position(lines, start), end: position(lines, Math.max(start, end)) };
}

function position(lines: LineCounter, offset: number): Position {
  const { line, col } = lines.linePos(offset);
  return { line: line - 1, character: col - 1, offset };
}

/**
 * The source range that a schema problem at `path` is about: the deepest node of the path that
 * exists in the document (a missing field points at its parent), or the whole document.
 */
export function rangeOfPath(doc: Document, lines: LineCounter, path: readonly PathSegment[], text: string, onKey = false): Range {
  const parent = onKey && path.length > 0 ? doc.getIn(path.slice(0, -1), true) : undefined;
  if (isMap(parent)) {
    const pair = parent.items.find((p) => (isScalar(p.key) ? p.key.value : p.key) === path[path.length - 1]);
    if (isNode(pair?.key) && pair.key.range) return rangeOf(lines, pair.key.range[0], pair.key.range[1]);
  }
  for (let depth = path.length; depth >= 0; depth--) {
    const node = doc.getIn(path.slice(0, depth), true);
    if (isNode(node) && (node as Node).range) {
      const [start, valueEnd] = (node as Node).range!;
      // For a missing field, underline just the first line of the parent instead of all of it.
      if (depth < path.length) return rangeOf(lines, start, Math.min(valueEnd, lineEnd(text, start)));
      return rangeOf(lines, start, valueEnd);
    }
  }
  return rangeOf(lines, 0, lineEnd(text, 0));
}

function lineEnd(text: string, start: number): number {
  const newline = text.indexOf('\n', start);
  return newline < 0 ? text.length : newline;
}
