import { type ActionMetadata, type Parameter, type ParameterType, type PropertyType, type ResultType, type SimpleType } from '../schema/metadata';

export const GENERATED_HEADER = '// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.';

/**
 * The text of action.generated.ts: the types main.ts imports. Deterministic: the same metadata
 * always gives the same bytes, so regenerating never shows up as a change.
 */
export function generateTypes(metadata: ActionMetadata): string {
  const out: string[] = [GENERATED_HEADER, ''];
  for (const p of metadata.parameters) {
    if (typeof p.type === 'object' && (p.type.type === 'single-choice' || p.type.type === 'multiple-select')) {
      out.push(`/** The choices of ${p.name}. */`, `export type ${pascal(p.name)}Choice = ${union(p.type.choices.map((c) => c.id))};`, '');
    }
  }
  out.push('/** The parameters of the action, by name. */', 'export interface Inputs {');
  for (const p of metadata.parameters) {
    const doc = docComment([p.description, simpleNote(p.type)], '  ');
    if (doc) out.push(doc);
    out.push(`  ${propertyName(p.name)}: ${parameterType(p)};`);
  }
  out.push('}', '');
  const resultDoc = docComment([metadata.result.description], '');
  if (resultDoc) out.push(resultDoc);
  out.push(`export type Result = ${resultType(metadata.result.type)};`, '');
  out.push(
    '/** The arguments of main, in the order of the parameters. */',
    `export type MainParameters = [${metadata.parameters.map((p) => `${p.name}: ${parameterType(p)}`).join(', ')}];`,
    '',
    'export type Main = (...args: MainParameters) => Result | Promise<Result>;',
    '',
  );
  return out.join('\n');
}

function parameterType(p: Parameter): string {
  return typeText(p.type, p.name);
}

function typeText(type: ParameterType, name: string): string {
  if (typeof type === 'string') return simple(type);
  switch (type.type) {
    case 'single-choice':
      return `${pascal(name)}Choice`;
    case 'multiple-select':
      return `${pascal(name)}Choice[]`;
    case 'collection':
      return `${simple(type.items)}[]`;
  }
}

function resultType(type: ResultType): string {
  if (typeof type === 'string') return simple(type);
  if (type.type === 'collection') return `${simple(type.items)}[]`;
  const lines = Object.entries(type.properties).map(([name, p]) => `  ${propertyName(name)}: ${propertyType(p.type)};`);
  return `{\n${lines.join('\n')}\n}`;
}

function propertyType(type: PropertyType): string {
  return typeof type === 'string' ? simple(type) : `${simple(type.items)}[]`;
}

function simple(type: SimpleType): string {
  return type === 'number' ? 'number' : 'string';
}

function simpleNote(type: ParameterType): string | undefined {
  const base = typeof type === 'string' ? type : type.type === 'collection' ? type.items : undefined;
  if (base === 'datetime') return 'A date and time as an ISO 8601 string.';
  if (base === 'email') return 'An e-mail address.';
  return undefined;
}

function docComment(parts: readonly (string | undefined)[], indent: string): string | undefined {
  const text = parts.filter((p): p is string => !!p && p.trim() !== '').map((p) => p.replace(/\*\//g, '*\\/'));
  if (text.length === 0) return undefined;
  const lines = text.join('\n').split('\n');
  return lines.length === 1 ? `${indent}/** ${lines[0]} */` : [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`].join('\n');
}

function union(ids: readonly string[]): string {
  return ids.length === 0 ? 'never' : ids.map((id) => JSON.stringify(id)).join(' | ');
}

function propertyName(name: string): string {
  return /^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name);
}

export function pascal(name: string): string {
  const words = name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').split(/[^A-Za-z0-9]+/).filter(Boolean);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z_$]/.test(joined) ? joined : `P${joined}`;
}
