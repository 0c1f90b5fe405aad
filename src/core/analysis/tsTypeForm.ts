import ts from 'typescript';
import { type LocatedMain } from './findMain';
import { type TypeForm } from './typeForms';

/**
 * A resolved TypeScript type in the spec's forms. Aliases, interfaces, `Inputs['x']` and the like
 * are already gone here: the checker hands over the structural type.
 */
export function formOfTsType(checker: ts.TypeChecker, type: ts.Type, depth = 0): TypeForm {
  if (type.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return { kind: 'any' };
  if (type.flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined | ts.TypeFlags.Null)) return unsupported(checker.typeToString(type), 'main must return a value');
  // Optional parameters and properties carry `| undefined`; the metadata has no notion of it.
  const t = checker.getNonNullableType(type);
  const text = checker.typeToString(t);
  if (t.flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return { kind: 'string' };
  if (t.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral)) return { kind: 'number' };
  if (t.isStringLiteral()) return { kind: 'choice', ids: [t.value] };
  if (t.flags & (ts.TypeFlags.Boolean | ts.TypeFlags.BooleanLiteral))
    return unsupported(text, 'the metadata has no boolean type; a single-choice of "true" and "false" or a number can stand in');
  if (t.flags & ts.TypeFlags.Never) return unsupported(text, 'never has no values');
  if (t.isUnion()) return formOfUnion(checker, t, text);
  if (checker.isArrayType(t)) return formOfArray(checker, t, text);
  if (checker.isTupleType(t)) return unsupported(text, 'a tuple has no metadata form; use an array');
  if (t.flags & ts.TypeFlags.Object) return formOfObject(checker, t, text, depth);
  return unsupported(text, 'no metadata type has this form');
}

function formOfUnion(checker: ts.TypeChecker, union: ts.UnionType, text: string): TypeForm {
  const members = union.types;
  if (members.every((m) => m.isStringLiteral())) return { kind: 'choice', ids: members.map((m) => (m as ts.StringLiteralType).value) };
  if (members.every((m) => m.flags & (ts.TypeFlags.Number | ts.TypeFlags.NumberLiteral))) return { kind: 'number' };
  if (members.every((m) => m.flags & ts.TypeFlags.BooleanLiteral))
    return unsupported(text, 'the metadata has no boolean type; a single-choice of "true" and "false" or a number can stand in');
  const forms = members.map((m) => formOfTsType(checker, m));
  if (forms.some((f) => f.kind === 'any')) return { kind: 'any' };
  return unsupported(text, 'a union of different kinds of values has no metadata form');
}

function formOfArray(checker: ts.TypeChecker, array: ts.Type, text: string): TypeForm {
  const element = checker.getTypeArguments(array as ts.TypeReference)[0];
  // `[]` returned without a contextual type is never[]: it fits any array.
  if (element && element.flags & ts.TypeFlags.Never) return { kind: 'any' };
  const form = element ? formOfTsType(checker, element) : ({ kind: 'any' } as const);
  if (form.kind === 'string' || form.kind === 'number') return { kind: 'collection', items: form.kind };
  if (form.kind === 'choice') return { kind: 'multiple', ids: form.ids };
  if (form.kind === 'any') return { kind: 'collection', items: 'string' };
  return unsupported(text, 'collections hold text or numbers, and multiple-selects hold choice ids');
}

function formOfObject(checker: ts.TypeChecker, object: ts.Type, text: string, depth: number): TypeForm {
  if (object.getCallSignatures().length > 0) return unsupported(text, 'a function has no metadata form');
  if (object.getSymbol()?.getName() === 'Date') return unsupported(text, 'datetimes travel as ISO 8601 strings; declare it as string');
  if (depth > 0) return unsupported(text, 'object properties hold text, numbers or collections, not nested objects');
  if (checker.getIndexInfosOfType(object).length > 0) return unsupported(text, 'an object result needs named properties, not an index signature');
  const properties = checker.getPropertiesOfType(object).map((symbol) => ({
    name: symbol.getName(),
    form: formOfTsType(checker, checker.getTypeOfSymbol(symbol), depth + 1),
  }));
  if (properties.length === 0) return unsupported(text, 'an object result needs at least one property');
  return { kind: 'object', properties };
}

function unsupported(text: string, reason: string): TypeForm {
  return { kind: 'unsupported', text, reason };
}

/**
 * The value main's promise resolves to, or the type itself when main is synchronous. The declared
 * return type wins, then the annotation of `const main: Main`, then what the body returns.
 */
export function awaitedReturnType(checker: ts.TypeChecker, main: LocatedMain): ts.Type | undefined {
  const declared = !main.fn.type && main.declaredType ? checker.getTypeFromTypeNode(main.declaredType).getCallSignatures()[0] : undefined;
  const signature = declared ?? checker.getSignatureFromDeclaration(main.fn);
  if (!signature) return undefined;
  const type = checker.getReturnTypeOfSignature(signature);
  return checker.getAwaitedType(type) ?? type;
}

/** The type a parameter has inside main, declared or contextual (`const main: Main = (a) => …`). */
export function parameterType(checker: ts.TypeChecker, parameter: ts.ParameterDeclaration): ts.Type {
  return checker.getTypeAtLocation(parameter.name);
}
