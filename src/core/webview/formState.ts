import { parseActionYaml } from '../workspace/actionYaml';
import { type FormProblem } from './formProtocol';

export type DocumentState =
  | { kind: 'value'; value: Record<string, unknown>; problems: FormProblem[] }
  | { kind: 'unreadable'; message: string; line?: number; column?: number };

/**
 * What the form shows for a text of action.yaml. Text that is not YAML, or YAML that is not a mapping,
 * is unreadable: the form says so instead of guessing, since any edit would replace the whole file.
 * An empty file is an empty mapping, so a new action.yaml can be filled in through the form.
 */
export function documentState(text: string): DocumentState {
  const parsed = parseActionYaml(text);
  if (parsed.value === undefined && parsed.problems.length > 0) {
    const first = parsed.problems[0]!;
    return { kind: 'unreadable', message: first.message, line: first.range.start.line + 1, column: first.range.start.character + 1 };
  }
  const value = parsed.value ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) {
    return {
      kind: 'unreadable',
      message: 'action.yaml must hold a mapping of fields (key, name, description, …), not a single value or a list.',
      line: 1,
      column: 1,
    };
  }
  const problems = parsed.value === null || parsed.value === undefined ? emptyProblems(parsed.problems) : parsed.problems;
  return { kind: 'value', value: value as Record<string, unknown>, problems: problems.map((p) => ({ path: [...p.path], message: p.message })) };
}

/** An empty file is reported as one problem on the whole value; the form wants one per missing field. */
function emptyProblems(problems: readonly { path: readonly (string | number)[]; message: string }[]) {
  const fromEmpty = parseActionYaml('{}').problems;
  return fromEmpty.length > 0 ? fromEmpty : problems;
}

export interface TextReplacement {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

/**
 * The one replacement that turns `before` into `after`, trimmed to what differs, so an edit from the
 * form moves no cursor and no decoration in a text editor open on the same file. Undefined if equal.
 */
export function minimalReplacement(before: string, after: string): TextReplacement | undefined {
  if (before === after) return undefined;
  let start = 0;
  const shorter = Math.min(before.length, after.length);
  while (start < shorter && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  let endBefore = before.length;
  let endAfter = after.length;
  while (endBefore > start && endAfter > start && before.charCodeAt(endBefore - 1) === after.charCodeAt(endAfter - 1)) {
    endBefore--;
    endAfter--;
  }
  // Never split a CRLF pair or a surrogate pair: VS Code would see half a line break or half a character.
  while (start > 0 && (isLowSurrogate(before.charCodeAt(start)) || (before[start] === '\n' && before[start - 1] === '\r'))) start--;
  while (endBefore < before.length && (isLowSurrogate(before.charCodeAt(endBefore)) || (before[endBefore] === '\n' && before[endBefore - 1] === '\r'))) {
    endBefore++;
    endAfter++;
  }
  return { start, end: endBefore, text: after.slice(start, endAfter) };
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}
