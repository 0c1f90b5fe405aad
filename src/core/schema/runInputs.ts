import { type Parameter, type ParameterType } from './metadata';
import { type PathSegment } from './validate';
import { isEmailAddress, isIsoDatetime, isNoValue } from './values';

/**
 * The one rule for a run's inputs, judged by every side: the extension (Run, the form, input sets,
 * the Testing view), the command line (`run`, `test`) and the sandbox (its run endpoint and the local
 * harness). The sandbox refuses exactly what a client refuses, so a run the editor lets through is
 * never a 400 (docs/api.md, *Running an action*). A value is judged as it will be sent: a client
 * that reads typed text (`parseSimple`) trims it first, but a value given as JSON is taken as is, so
 * `" ada@example.com "` is not an address here or there.
 */

export interface InputProblem {
  /** `['inputs', name]` or `['inputs', index]`, or `['inputs']` for the inputs as a whole. */
  readonly path: readonly PathSegment[];
  readonly message: string;
}

export type CheckedInputs = { readonly ok: true; readonly values: unknown[] } | { readonly ok: false; readonly problems: InputProblem[] };

/**
 * Run inputs against the declared parameters, in parameter order (an array) or by name (an object);
 * every parameter given, `null` for "no value". A member whose value is `undefined` is missing, as
 * JSON drops it on the way. Returns the values in parameter order.
 */
export function checkRunInputs(parameters: readonly Parameter[], inputs: unknown): CheckedInputs {
  const problems: InputProblem[] = [];
  const values: unknown[] = [];
  if (Array.isArray(inputs)) {
    if (inputs.length !== parameters.length)
      problems.push({ path: ['inputs'], message: `expected ${parameters.length} value(s), one per parameter in order, got ${inputs.length}` });
    parameters.forEach((p, i) => {
      if (i < inputs.length) values.push(judged(p, inputs[i], ['inputs', i], problems));
    });
  } else if (inputs !== null && typeof inputs === 'object') {
    const named = inputs as Record<string, unknown>;
    for (const p of parameters) {
      // Own members only: a parameter named `constructor` is not given by every object.
      if (!Object.hasOwn(named, p.name) || named[p.name] === undefined) problems.push({ path: ['inputs', p.name], message: 'missing' });
      else values.push(judged(p, named[p.name], ['inputs', p.name], problems));
    }
    const known = new Set(parameters.map((p) => p.name));
    for (const name of Object.keys(named))
      if (!known.has(name) && named[name] !== undefined) problems.push({ path: ['inputs', name], message: 'no such parameter' });
  } else {
    problems.push({ path: ['inputs'], message: 'must be an array (in parameter order) or an object (by parameter name)' });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

function judged(parameter: Parameter, value: unknown, path: PathSegment[], problems: InputProblem[]): unknown {
  const problem = valueProblem(parameter.type, value);
  if (problem !== undefined) problems.push({ path, message: problem });
  return isNoValue(value) ? null : value;
}

/** Why a value does not fit a type (a parameter's, or a result property's), or `undefined` when it does; `null` always fits. */
export function valueProblem(type: ParameterType, value: unknown): string | undefined {
  if (isNoValue(value)) return undefined;
  if (typeof type === 'string') {
    if (type === 'number') return typeof value === 'number' && Number.isFinite(value) ? undefined : 'must be a number';
    if (typeof value !== 'string') return `must be a string (${type})`;
    if (type === 'datetime' && !isIsoDatetime(value)) return 'must be an ISO 8601 date and time, such as 2024-05-01T14:30:00Z';
    if (type === 'email' && !isEmailAddress(value)) return 'must be an e-mail address, such as ada@example.com';
    return undefined;
  }
  switch (type.type) {
    case 'single-choice':
      return typeof value === 'string' && type.choices.some((c) => c.id === value) ? undefined : `must be one of ${type.choices.map((c) => c.id).join(', ')}`;
    case 'multiple-select': {
      if (!Array.isArray(value)) return 'must be a list of choice ids';
      const unknown = value.filter((v) => typeof v !== 'string' || !type.choices.some((c) => c.id === v));
      if (unknown.length > 0)
        return `has unknown choices ${unknown.map((v) => JSON.stringify(v) ?? String(v)).join(', ')} (allowed: ${type.choices.map((c) => c.id).join(', ')})`;
      return new Set(value).size === value.length ? undefined : 'names a choice twice';
    }
    case 'collection': {
      if (!Array.isArray(value)) return `must be a list of ${type.items}`;
      for (const [i, item] of value.entries()) {
        const problem = valueProblem(type.items, item);
        if (problem) return `item ${i + 1} ${problem}`;
      }
      return undefined;
    }
  }
}
