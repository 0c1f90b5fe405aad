import {
  type ActionMetadata,
  formatPath,
  isEmailAddress,
  isIsoDatetime,
  isNoValue,
  type Parameter,
  type ParameterType,
  type PathSegment,
  type SimpleType,
} from '../../core/schema';

export type InputProblem = { path: string; message: string };

/**
 * Checks run inputs against the declared parameters and returns them in parameter order. Every
 * parameter must be given; `null` stands for "no value" and is passed on as null.
 */
export function checkInputs(metadata: ActionMetadata, inputs: unknown): { ok: true; values: unknown[] } | { ok: false; problems: InputProblem[] } {
  const problems: InputProblem[] = [];
  const params = metadata.parameters;
  const values: unknown[] = [];
  if (Array.isArray(inputs)) {
    if (inputs.length !== params.length) {
      problems.push({ path: 'inputs', message: `expected ${params.length} value(s), one per parameter in order, got ${inputs.length}` });
    }
    params.forEach((p, i) => {
      if (i < inputs.length) values.push(checkValue(p, inputs[i], ['inputs', i], problems));
    });
  } else if (inputs !== null && typeof inputs === 'object') {
    const named = inputs as Record<string, unknown>;
    for (const name of Object.keys(named)) {
      if (!params.some((p) => p.name === name)) problems.push({ path: formatPath(['inputs', name]), message: 'no parameter has this name' });
    }
    for (const p of params) {
      if (!Object.hasOwn(named, p.name)) problems.push({ path: formatPath(['inputs', p.name]), message: 'required' });
      else values.push(checkValue(p, named[p.name], ['inputs', p.name], problems));
    }
  } else {
    problems.push({ path: 'inputs', message: 'must be an array (in parameter order) or an object (by parameter name)' });
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, values };
}

function checkValue(param: Parameter, value: unknown, path: PathSegment[], problems: InputProblem[]): unknown {
  if (isNoValue(value)) return null;
  const problem = describeMismatch(param.type, value);
  if (problem) problems.push({ path: formatPath(path), message: problem.message });
  return value;
}

function describeMismatch(type: ParameterType, value: unknown): { message: string } | undefined {
  if (typeof type === 'string') return simpleMismatch(type, value);
  if (type.type === 'single-choice') {
    const ids = type.choices.map((c) => c.id);
    return typeof value === 'string' && ids.includes(value) ? undefined : { message: `must be one of ${ids.map((id) => JSON.stringify(id)).join(', ')}` };
  }
  if (type.type === 'multiple-select') {
    const ids = type.choices.map((c) => c.id);
    if (!Array.isArray(value)) return { message: 'must be an array of choice ids' };
    const wrong = value.find((v) => typeof v !== 'string' || !ids.includes(v));
    if (wrong !== undefined) return { message: `${JSON.stringify(wrong)} is not one of ${ids.map((id) => JSON.stringify(id)).join(', ')}` };
    if (new Set(value).size !== value.length) return { message: 'must not repeat a choice' };
    return undefined;
  }
  if (!Array.isArray(value)) return { message: `must be an array of ${type.items}` };
  for (const [i, item] of value.entries()) {
    const inner = simpleMismatch(type.items, item);
    if (inner) return { message: `item [${i}] ${inner.message}` };
  }
  return undefined;
}

function simpleMismatch(type: SimpleType, value: unknown): { message: string } | undefined {
  switch (type) {
    case 'text':
      return typeof value === 'string' ? undefined : { message: 'must be a string' };
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? undefined : { message: 'must be a number' };
    case 'datetime':
      return typeof value === 'string' && isIsoDatetime(value) ? undefined : { message: 'must be an ISO 8601 date-time string, such as 2024-05-01T12:00:00Z' };
    case 'email':
      return typeof value === 'string' && isEmailAddress(value) ? undefined : { message: 'must be an e-mail address' };
  }
}
