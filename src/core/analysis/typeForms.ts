/**
 * One vocabulary for both sides of a comparison: a TypeScript type and a metadata type each become
 * a TypeForm, and forms are compared and described in the spec's words.
 */
import { type ParameterType, type PropertyType, type ResultType } from '../schema/metadata';

export type TypeForm =
  | { readonly kind: 'string' }
  | { readonly kind: 'number' }
  /** A string-literal union: one of these ids. */
  | { readonly kind: 'choice'; readonly ids: readonly string[] }
  /** An array of a string-literal union. */
  | { readonly kind: 'multiple'; readonly ids: readonly string[] }
  | { readonly kind: 'collection'; readonly items: 'string' | 'number' }
  | { readonly kind: 'object'; readonly properties: readonly { readonly name: string; readonly form: TypeForm }[] }
  /** any or unknown: accepts and is accepted by everything. */
  | { readonly kind: 'any' }
  | { readonly kind: 'unsupported'; readonly text: string; readonly reason: string };

export function formOfParameterType(type: ParameterType): TypeForm {
  if (typeof type === 'string') return type === 'number' ? { kind: 'number' } : { kind: 'string' };
  switch (type.type) {
    case 'single-choice':
      return { kind: 'choice', ids: type.choices.map((c) => c.id) };
    case 'multiple-select':
      return { kind: 'multiple', ids: type.choices.map((c) => c.id) };
    case 'collection':
      return { kind: 'collection', items: type.items === 'number' ? 'number' : 'string' };
  }
}

export function formOfResultType(type: ResultType): TypeForm {
  if (typeof type === 'string' || type.type === 'collection') return formOfParameterType(type);
  return { kind: 'object', properties: Object.entries(type.properties).map(([name, p]) => ({ name, form: formOfPropertyType(p.type) })) };
}

function formOfPropertyType(type: PropertyType): TypeForm {
  return formOfParameterType(type);
}

/**
 * Can main's parameter, declared as `actual`, take every value the metadata says it gets? A wider
 * declaration is fine (`string` for a single-choice: the platform passes one of the ids).
 */
export function parameterAccepts(actual: TypeForm, expected: TypeForm): boolean {
  if (actual.kind === 'any' || expected.kind === 'any') return true;
  if (actual.kind === 'string' && expected.kind === 'choice') return true;
  if (actual.kind === 'collection' && actual.items === 'string' && expected.kind === 'multiple') return true;
  return sameForm(actual, expected);
}

/** Does every value main returns, of form `actual`, fit the declared result? Literal unions are text. */
export function resultFits(actual: TypeForm, expected: TypeForm): boolean {
  if (actual.kind === 'any' || expected.kind === 'any') return true;
  if (actual.kind === 'choice' && expected.kind === 'string') return true;
  if (actual.kind === 'multiple' && expected.kind === 'collection' && expected.items === 'string') return true;
  if (actual.kind === 'object' && expected.kind === 'object') {
    if (actual.properties.length !== expected.properties.length) return false;
    return expected.properties.every((e) => {
      const a = actual.properties.find((p) => p.name === e.name);
      return a !== undefined && resultFits(a.form, e.form);
    });
  }
  return sameForm(actual, expected);
}

function sameForm(a: TypeForm, b: TypeForm): boolean {
  switch (a.kind) {
    case 'string':
    case 'number':
      return b.kind === a.kind;
    case 'choice':
    case 'multiple':
      return b.kind === a.kind && sameSet(a.ids, b.ids);
    case 'collection':
      return b.kind === 'collection' && b.items === a.items;
    case 'object':
      return b.kind === 'object' && resultFits(a, b);
    case 'any':
      return true;
    case 'unsupported':
      return false;
  }
}

function sameSet(a: readonly string[], b: readonly string[]): boolean {
  const left = new Set(a);
  const right = new Set(b);
  return left.size === right.size && [...left].every((id) => right.has(id));
}

/** The form in the spec's words: `text`, `single-choice (low, high)`, `collection of number`, `object { a: text }`. */
export function describeForm(form: TypeForm): string {
  switch (form.kind) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'choice':
      return `single-choice (${form.ids.join(', ')})`;
    case 'multiple':
      return `multiple-select (${form.ids.join(', ')})`;
    case 'collection':
      return `collection of ${form.items === 'number' ? 'number' : 'text'}`;
    case 'object':
      return `object { ${form.properties.map((p) => `${p.name}: ${describeForm(p.form)}`).join(', ')} }`;
    case 'any':
      return 'any';
    case 'unsupported':
      return form.text;
  }
}

/** What differs between two sets of choice ids, for a message. */
export function choiceDifference(actual: readonly string[], expected: readonly string[]): string {
  const missing = expected.filter((id) => !actual.includes(id));
  const extra = actual.filter((id) => !expected.includes(id));
  const parts = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `not in the metadata: ${extra.join(', ')}` : ''];
  return parts.filter(Boolean).join('; ');
}

/** What differs between two object forms, for a message. */
export function propertyDifference(actual: TypeForm, expected: TypeForm): string {
  if (actual.kind !== 'object' || expected.kind !== 'object') return '';
  const missing = expected.properties.filter((e) => !actual.properties.some((a) => a.name === e.name)).map((p) => p.name);
  const extra = actual.properties.filter((a) => !expected.properties.some((e) => e.name === a.name)).map((p) => p.name);
  const differing = expected.properties.flatMap((e) => {
    const a = actual.properties.find((p) => p.name === e.name);
    return a && !resultFits(a.form, e.form) ? [`${e.name} is ${describeForm(a.form)}, expected ${describeForm(e.form)}`] : [];
  });
  const parts = [missing.length > 0 ? `missing ${missing.join(', ')}` : '', extra.length > 0 ? `not in the metadata: ${extra.join(', ')}` : '', ...differing];
  return parts.filter(Boolean).join('; ');
}
