import { type ActionMetadata, type ParameterType, type PropertyType, type ResultType, type SimpleType } from '../schema/metadata';
import { quote, typeKey } from './literals';

export const GENERATED_HEADER = '// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.';

/**
 * The text of action.generated.ts: the types main.ts imports. Deterministic: the same metadata
 * always gives the same bytes, so regenerating never shows up as a change.
 */
export function generateTypes(metadata: ActionMetadata): string {
  const choiceNames = choiceTypeNames(metadata);
  const out: string[] = [GENERATED_HEADER, ''];
  for (const p of metadata.parameters) {
    const name = choiceNames.get(p.name);
    if (name === undefined || typeof p.type !== 'object' || p.type.type === 'collection') continue;
    const labels = p.type.choices.map((c) => `- ${quote(c.id)}: ${c.label}`);
    out.push(docComment([`The choices of ${p.name}, by id:`, ...labels], '')!, `export type ${name} = ${union(p.type.choices.map((c) => c.id))};`, '');
  }
  out.push('/** The parameters of the action, by name. */', 'export interface Inputs {');
  for (const p of metadata.parameters) {
    const doc = docComment([p.description, note(p.type)], '  ');
    if (doc) out.push(doc);
    out.push(`  ${typeKey(p.name)}: ${parameterType(p.type, choiceNames.get(p.name))};`);
  }
  out.push('}', '');
  const resultDoc = docComment([metadata.result.description, note(metadata.result.type)], '');
  if (resultDoc) out.push(resultDoc);
  out.push(`export type Result = ${resultType(metadata.result.type)};`, '');
  out.push(
    '/** The arguments of main, in the order of the parameters. */',
    `export type MainParameters = [${metadata.parameters.map((p) => `${p.name}: ${parameterType(p.type, choiceNames.get(p.name))}`).join(', ')}];`,
    '',
    '/** The type of main in main.ts. */',
    'export type Main = (...args: MainParameters) => Result | Promise<Result>;',
    '',
  );
  return out.join('\n');
}

/**
 * `<PascalName>Choice` for each choice parameter. Different parameter names can give the same
 * PascalCase name (`a_b` and `aB`); later ones get a number, in parameter order.
 */
export function choiceTypeNames(metadata: ActionMetadata): Map<string, string> {
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const p of metadata.parameters) {
    if (typeof p.type !== 'object' || p.type.type === 'collection') continue;
    const base = `${pascal(p.name)}Choice`;
    let name = base;
    for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
    taken.add(name);
    names.set(p.name, name);
  }
  return names;
}

function parameterType(type: ParameterType, choiceName: string | undefined): string {
  if (typeof type === 'string') return simple(type);
  switch (type.type) {
    case 'single-choice':
      return choiceName ?? union(type.choices.map((c) => c.id));
    case 'multiple-select':
      return `${choiceName ?? `(${union(type.choices.map((c) => c.id))})`}[]`;
    case 'collection':
      return `${simple(type.items)}[]`;
  }
}

function resultType(type: ResultType): string {
  if (typeof type === 'string') return simple(type);
  if (type.type === 'collection') return `${simple(type.items)}[]`;
  const lines = Object.entries(type.properties).flatMap(([name, p]) => {
    const doc = docComment([note(p.type)], '  ');
    return [...(doc ? [doc] : []), `  ${typeKey(name)}: ${propertyType(p.type)};`];
  });
  return `{\n${lines.join('\n')}\n}`;
}

function propertyType(type: PropertyType): string {
  return typeof type === 'string' ? simple(type) : `${simple(type.items)}[]`;
}

function simple(type: SimpleType): string {
  return type === 'number' ? 'number' : 'string';
}

/** What a plain `string` does not say: the format the platform gives or expects. */
function note(type: ParameterType | ResultType): string | undefined {
  const inCollection = typeof type === 'object' && type.type === 'collection';
  const base = typeof type === 'string' ? type : type.type === 'collection' ? type.items : undefined;
  const format = base === 'datetime' ? 'a date and time as an ISO 8601 string' : base === 'email' ? 'an e-mail address' : undefined;
  if (format === undefined) return undefined;
  return inCollection ? `Each item is ${format}.` : `${format.charAt(0).toUpperCase()}${format.slice(1)}.`;
}

export function docComment(parts: readonly (string | undefined)[], indent: string): string | undefined {
  const text = parts.filter((p): p is string => !!p && p.trim() !== '').map((p) => p.replace(/\*\//g, '*\\/'));
  if (text.length === 0) return undefined;
  const lines = text.join('\n').split(/\r?\n/);
  return lines.length === 1 ? `${indent}/** ${lines[0]} */` : [`${indent}/**`, ...lines.map((l) => `${indent} * ${l}`.trimEnd()), `${indent} */`].join('\n');
}

function union(ids: readonly string[]): string {
  return ids.length === 0 ? 'never' : ids.map(quote).join(' | ');
}

export function pascal(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  const joined = words.map((w) => w.charAt(0).toUpperCase() + w.slice(1)).join('');
  return /^[A-Za-z_$]/.test(joined) ? joined : `P${joined}`;
}
