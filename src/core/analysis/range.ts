import type ts from 'typescript';
import { type Range } from './types';

export function rangeOf(file: ts.SourceFile, start: number, end: number): Range {
  return { start: positionOf(file, start), end: positionOf(file, Math.max(start, end)) };
}

/** The node without its leading trivia (comments and whitespace belong to the node in the compiler's view). */
export function rangeOfNode(file: ts.SourceFile, node: ts.Node): Range {
  return rangeOf(file, node.getStart(file), node.getEnd());
}

function positionOf(file: ts.SourceFile, offset: number): Range['start'] {
  const { line, character } = file.getLineAndCharacterOfPosition(offset);
  return { line, character, offset };
}
