import { isEmailAddress, isIsoDatetime, isNoValue, type Parameter, type ParameterType, type SimpleType } from '../schema';
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

/** Checks a value (from a saved input set, or built by the form) against a parameter's type; `null` is no value. */
export function checkValue(type: ParameterType, value: unknown): string | undefined {
  if (isNoValue(value)) return undefined;
  if (typeof type === 'string') {
    if (type === 'number') return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    if (typeof value !== 'string') return `must be a string (${type})`;
    const parsed = parseSimple(type, value);
    return parsed.ok ? undefined : `must be ${parsed.message[0]?.toLowerCase()}${parsed.message.slice(1)}`;
  }
  switch (type.type) {
    case 'single-choice':
      return typeof value === 'string' && type.choices.some((c) => c.id === value) ? undefined : `must be one of ${type.choices.map((c) => c.id).join(', ')}`;
    case 'multiple-select': {
      if (!Array.isArray(value)) return 'must be a list of choice ids';
      const unknown = value.filter((v) => typeof v !== 'string' || !type.choices.some((c) => c.id === v));
      if (unknown.length > 0)
        return `has unknown choices ${unknown.map((v) => JSON.stringify(v)).join(', ')} (allowed: ${type.choices.map((c) => c.id).join(', ')})`;
      return new Set(value).size === value.length ? undefined : 'names a choice twice';
    }
    case 'collection': {
      if (!Array.isArray(value)) return `must be a list of ${type.items}`;
      for (const [i, item] of value.entries()) {
        const problem = checkValue(type.items, item);
        if (problem) return `item ${i + 1} ${problem}`;
      }
      return undefined;
    }
  }
}

/** Characters of an input set file that are read: the inputs of one run, with room to spare. A cloned repository's larger file is refused unread. */
export const INPUT_SET_MAX_CHARS = 1_000_000;

/** An input set against the declared parameters: every parameter present and fitting, nothing extra. */
export function checkInputs(parameters: readonly Parameter[], inputs: unknown): string[] {
  if (typeof inputs !== 'object' || inputs === null || Array.isArray(inputs)) return ['the inputs must be a JSON object with one member per parameter'];
  const values = inputs as Record<string, unknown>;
  const problems: string[] = [];
  for (const p of parameters) {
    if (!(p.name in values)) problems.push(`${p.name}: missing`);
    else {
      const problem = checkValue(p.type, values[p.name]);
      if (problem) problems.push(`${p.name}: ${problem}`);
    }
  }
  const known = new Set(parameters.map((p) => p.name));
  for (const name of Object.keys(values)) if (!known.has(name)) problems.push(`${name}: no such parameter`);
  return problems;
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
