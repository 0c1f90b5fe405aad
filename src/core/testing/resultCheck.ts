import { type PropertyType, type ResultType } from '../schema';
import { checkValue } from '../events/inputs';

export interface ResultProblem {
  /** Where in the result: `result`, `result.total`, `result.items[2]`. */
  readonly path: string;
  readonly message: string;
}

/**
 * Whether a value `main` returned fits the declared result type. `null` stands for "no value" at
 * any place, as `undefined` reaches the server as `null`. An object result must have each declared
 * property (possibly `null`) and no other. Problems name the field, so a failed test says where.
 */
export function checkResult(type: ResultType, value: unknown): ResultProblem[] {
  if (value === null) return [];
  if (typeof type === 'object' && type.type === 'object') {
    if (typeof value !== 'object' || Array.isArray(value))
      return [{ path: 'result', message: `must be an object with ${Object.keys(type.properties).join(', ')}` }];
    const record = value as Record<string, unknown>;
    const problems: ResultProblem[] = [];
    for (const [name, property] of Object.entries(type.properties)) {
      const path = `result.${name}`;
      if (!(name in record)) problems.push({ path, message: 'missing' });
      else problems.push(...checkProperty(path, property.type, record[name]));
    }
    for (const name of Object.keys(record))
      if (!(name in type.properties)) problems.push({ path: `result.${name}`, message: 'is not declared in the result type' });
    return problems;
  }
  return checkProperty('result', type, value);
}

function checkProperty(path: string, type: PropertyType, value: unknown): ResultProblem[] {
  if (value === null) return [];
  if (typeof type === 'object' && Array.isArray(value)) {
    // Each item on its own, so the problem names the item.
    return value.flatMap((item, i) => (item === null ? [] : checkProperty(`${path}[${i}]`, type.items, item)));
  }
  const problem = checkValue(type, value);
  return problem ? [{ path, message: problem }] : [];
}
