/**
 * The form's edits as pure functions on the document's plain value. Each returns a new value and
 * leaves everything it was not asked to change as it was, so fields the form does not know survive.
 */
import { SIMPLE_TYPES } from '../schema/limits';
import { type SimpleType } from '../schema/metadata';
import { type PathSegment } from '../schema/validate';

export type Path = readonly PathSegment[];

export const PARAMETER_KINDS = [...SIMPLE_TYPES, 'single-choice', 'multiple-select', 'collection'] as const;
export type ParameterKind = (typeof PARAMETER_KINDS)[number];
export const RESULT_KINDS = [...SIMPLE_TYPES, 'collection', 'object'] as const;
export type ResultKind = (typeof RESULT_KINDS)[number];
export const PROPERTY_KINDS = [...SIMPLE_TYPES, 'collection'] as const;
export type PropertyKind = (typeof PROPERTY_KINDS)[number];

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function getIn(value: unknown, path: Path): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof segment === 'number' ? !Array.isArray(current) : !isRecord(current)) return undefined;
    current = (current as Record<PathSegment, unknown>)[segment];
  }
  return current;
}

/**
 * `value` with `next` at `path`; `undefined` removes a field. Missing or wrongly shaped containers on
 * the way are created (a mapping for a name, a list for an index), replacing what was there.
 */
export function setIn(value: unknown, path: Path, next: unknown): unknown {
  if (path.length === 0) return next;
  const [head, ...rest] = path as [PathSegment, ...PathSegment[]];
  if (typeof head === 'number') {
    const list = Array.isArray(value) ? [...(value as unknown[])] : [];
    if (rest.length === 0 && next === undefined) list.splice(head, 1);
    else list[head] = setIn(list[head], rest, next);
    return list;
  }
  const record: Record<string, unknown> = isRecord(value) ? { ...value } : {};
  const child = rest.length === 0 ? next : setIn(record[head], rest, next);
  if (child === undefined) delete record[head];
  else record[head] = child;
  return record;
}

export function listAt(value: unknown, path: Path): unknown[] {
  const list = getIn(value, path);
  return Array.isArray(list) ? list : [];
}

/** Moves one item of a list; indices out of range leave the list as it was. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  if (from < 0 || from >= copy.length || to < 0 || to >= copy.length || from === to) return copy;
  const [item] = copy.splice(from, 1);
  copy.splice(to, 0, item as T);
  return copy;
}

export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return '';
}

function isSimple(value: unknown): value is SimpleType {
  return typeof value === 'string' && (SIMPLE_TYPES as readonly string[]).includes(value);
}

/** The kind a parameter's `type` has, or undefined when the form does not recognize it. */
export function parameterKind(type: unknown): ParameterKind | undefined {
  if (isSimple(type)) return type;
  if (isRecord(type) && (type.type === 'single-choice' || type.type === 'multiple-select' || type.type === 'collection')) return type.type;
  return undefined;
}

export function resultKind(type: unknown): ResultKind | undefined {
  if (isSimple(type)) return type;
  if (isRecord(type) && (type.type === 'collection' || type.type === 'object')) return type.type;
  return undefined;
}

export function propertyKind(type: unknown): PropertyKind | undefined {
  if (isSimple(type)) return type;
  if (isRecord(type) && type.type === 'collection') return 'collection';
  return undefined;
}

/**
 * A type of the new kind. Switching between the two choice kinds keeps the choices, and a type object
 * keeps its other fields; a new collection starts with the item type the spec shows for its place.
 * New choices and properties start with one entry: the schema needs one, and an empty list would be
 * written as `[]`, which YAML then grows in flow style.
 */
export function withKind(type: unknown, kind: ParameterKind | ResultKind, collectionItems: SimpleType = 'text'): unknown {
  if (isSimple(kind)) return kind;
  const previous = isRecord(type) ? type : {};
  const { type: _type, choices, items, properties, ...others } = previous;
  switch (kind) {
    case 'single-choice':
    case 'multiple-select':
      return { type: kind, choices: Array.isArray(choices) ? choices : [{ id: 'option1', label: 'Option 1' }], ...others };
    case 'collection':
      return { type: kind, items: isSimple(items) ? items : collectionItems, ...others };
    case 'object':
      return { type: kind, properties: isRecord(properties) ? properties : { property1: { type: 'text' } }, ...others };
  }
}

/** Why a property name cannot be used, or undefined; the spec forbids whitespace in them. */
export function propertyNameProblem(name: string, others: readonly string[]): string | undefined {
  if (name.length === 0) return 'A property needs a name.';
  if (/\s/.test(name)) return 'A property name must not contain whitespace (camelCase is the suggested style).';
  if (others.includes(name)) return `Another property is already named "${name}".`;
  return undefined;
}

/** The same record with one key renamed in place, so the YAML keeps its order. */
export function renameKey(record: Record<string, unknown>, from: string, to: string): Record<string, unknown> {
  if (from === to || !(from in record) || to in record) return record;
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key === from ? to : key, value]));
}

/** The record with its entries in a new order (properties are reordered like list items). */
export function moveEntry(record: Record<string, unknown>, from: number, to: number): Record<string, unknown> {
  return Object.fromEntries(moveItem(Object.entries(record), from, to));
}

export function uniqueName(prefix: string, taken: readonly string[]): string {
  for (let n = 1; ; n++) {
    const name = `${prefix}${n}`;
    if (!taken.includes(name)) return name;
  }
}
