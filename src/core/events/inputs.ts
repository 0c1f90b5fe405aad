import {
  checkRunInputs,
  formatPath,
  type InputProblem,
  isEmailAddress,
  isIsoDatetime,
  type Parameter,
  type ParameterType,
  type SimpleType,
  valueProblem,
} from '../schema';
import { inputSetName } from '../workspace/files';

export type Parsed = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly message: string };

/** What one typed-in text means for a simple type, or why it does not fit. */
export function parseSimple(type: SimpleType, text: string): Parsed {
  const trimmed = text.trim();
  switch (type) {
    case 'text':
      return { ok: true, value: text };
    case 'number': {
      const n = Number(trimmed);
      return trimmed && Number.isFinite(n) ? { ok: true, value: n } : { ok: false, message: 'A number, such as 42 or -3.5' };
    }
    case 'datetime':
      return isIsoDatetime(trimmed) ? { ok: true, value: trimmed } : { ok: false, message: 'An ISO 8601 date and time, such as 2024-05-01T14:30:00Z' };
    case 'email':
      return isEmailAddress(trimmed) ? { ok: true, value: trimmed } : { ok: false, message: 'An e-mail address, such as ada@example.com' };
  }
}

/** Checks a value (from a saved input set, or built by the form) against a parameter's type; `null` is no value. The one rule of `checkRunInputs`. */
export const checkValue = valueProblem;

/** Characters of an input set file that are read: the inputs of one run, with room to spare. A cloned repository's larger file is refused unread. */
export const INPUT_SET_MAX_CHARS = 1_000_000;

/**
 * An input set against the declared parameters: a JSON object (the input set's form) whose members
 * pass the run's one rule (`checkRunInputs`, as the sandbox judges them), each problem as
 * `<name>: <what>`.
 */
export function checkInputs(parameters: readonly Parameter[], inputs: unknown): string[] {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) return ['the inputs must be a JSON object with one member per parameter'];
  const checked = checkRunInputs(parameters, inputs);
  return checked.ok ? [] : checked.problems.map(describeInputProblem);
}

/** Run inputs (by name, or in parameter order) by the run's one rule, each problem as the client says it: what Run and `custom-actions run` check before sending. */
export function runInputProblems(parameters: readonly Parameter[], inputs: unknown): string[] {
  const checked = checkRunInputs(parameters, inputs);
  return checked.ok ? [] : checked.problems.map(describeInputProblem);
}

/** A problem of `checkRunInputs` as the client says it: `<name>: <what>` (`[i]: <what>` in parameter order). */
export function describeInputProblem(problem: InputProblem): string {
  const where = problem.path.slice(1);
  return where.length === 0 ? `the inputs ${problem.message}` : `${formatPath(where)}: ${problem.message}`;
}

/** Splits a list typed on one line: commas or semicolons, spaces around ignored, empty items dropped. */
export function splitList(text: string): string[] {
  return text
    .split(/[,;\n]/)
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A short description of a type, for prompts. */
export function describeType(type: ParameterType): string {
  if (typeof type === 'string') return type;
  if (type.type === 'collection') return `list of ${type.items}`;
  return type.type;
}

/** Input set names become file names under inputs/. */
export function inputSetFileName(name: string): string | undefined {
  const base = inputSetName(name.trim());
  return /^[A-Za-z0-9][A-Za-z0-9 _.-]{0,63}$/.test(base) ? `${base}.json` : undefined;
}

/**
 * The members of recorded inputs (an event's, from a server) that name a declared parameter, and the
 * names of those that do not. Save as Input Set and Pin as Test keep only the first: a member the
 * action does not declare is text of the server's choosing that would otherwise live on in a file of
 * the workspace and in every message about it.
 */
export function declaredInputs(parameters: readonly Parameter[], inputs: Record<string, unknown>): { kept: Record<string, unknown>; dropped: string[] } {
  const known = new Set(parameters.map((p) => p.name));
  const names = Object.keys(inputs);
  return {
    // fromEntries defines own members: a kept name can never reach a prototype.
    kept: Object.fromEntries(names.filter((name) => known.has(name)).map((name) => [name, inputs[name]])),
    dropped: names.filter((name) => !known.has(name)),
  };
}
