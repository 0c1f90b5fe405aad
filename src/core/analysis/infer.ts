import type ts from 'typescript';
import { limits } from '../schema/limits';
import { type ActionMetadata, type Choice, type Parameter, type ParameterType, type PropertyType, type Result, type ResultType } from '../schema/metadata';
import { generateTypes } from '../typegen/generateTypes';
import { locateMain, type LocatedMain, resultRange } from './findMain';
import { createActionProgram } from './program';
import { rangeOfNode } from './range';
import { awaitedReturnType, formOfTsType, parameterType } from './tsTypeForm';
import { formOfParameterType, formOfResultType, parameterAccepts, resultFits, type TypeForm } from './typeForms';
import { type AnalysisProblem, type InferOptions, type InferredMetadata } from './types';

interface SignatureForms {
  readonly file: ts.SourceFile;
  readonly main: LocatedMain;
  readonly parameters: readonly { readonly node: ts.ParameterDeclaration; readonly name: string; readonly form: TypeForm }[];
  readonly result?: TypeForm;
}

function signatureForms(source: string, generatedSource: string | undefined, fileName: string | undefined): SignatureForms | undefined {
  const { checker, main: file } = createActionProgram(source, generatedSource, fileName);
  const main = locateMain(file);
  if (!main) return undefined;
  const returned = awaitedReturnType(checker, main);
  return {
    file,
    main,
    parameters: main.fn.parameters.map((node) => ({ node, name: node.name.getText(file), form: formOfTsType(checker, parameterType(checker, node)) })),
    result: returned && formOfTsType(checker, returned),
  };
}

/**
 * Metadata parameters and result read off main's signature, through the aliases and interfaces
 * the file declares. Undefined when the file has no main. What no metadata type can express
 * becomes `text` and a problem.
 */
export function inferFromMain(source: string, options: InferOptions = {}): InferredMetadata | undefined {
  const forms = signatureForms(source, options.generatedSource, options.fileName);
  if (!forms) return undefined;
  const { file, main } = forms;
  const problems: AnalysisProblem[] = [];
  const parameters = forms.parameters.map(({ node, name, form }, index): Parameter => {
    const problem = (message: string): void => void problems.push({ message, target: 'parameter', index, range: rangeOfNode(file, node) });
    if (node.dotDotDotToken) problem(`${name}: a rest parameter has no metadata form; declare one parameter per value.`);
    const validName = limits.parameterNamePattern.test(name) ? name : `parameter${index + 1}`;
    if (validName !== name) problem(`${name}: a parameter of the metadata needs a plain name; it is called ${validName} here.`);
    const type = parameterTypeOf(form);
    if (type === undefined) problem(`${name}: ${reasonOf(form)}; it is taken as text.`);
    return { name: validName, type: type ?? 'text' };
  });

  const resultAt = resultRange(file, main);
  const resultProblem = (message: string): void => void problems.push({ message, target: 'result', range: resultAt });
  const result = resultTypeOf(forms.result ?? { kind: 'any' }, resultProblem);
  return { parameters, result: { type: result }, problems };
}

/**
 * The metadata with its parameters and result following main's signature, keeping what a signature
 * cannot say: descriptions, choice labels, datetime and email where main says string, the key, name
 * and the rest. Undefined when the file has no main.
 */
export function metadataFromSignature(source: string, metadata: ActionMetadata, options: InferOptions = {}): ActionMetadata | undefined {
  const forms = signatureForms(source, options.generatedSource ?? generateTypes(metadata), options.fileName);
  if (!forms) return undefined;
  const names = forms.parameters.map((p) => p.name);
  const parameters = forms.parameters.map(({ name, form }, index): Parameter => {
    // A parameter keeps its metadata by name; a renamed one keeps what was at its position.
    const atPosition = metadata.parameters[index];
    const base = metadata.parameters.find((p) => p.name === name) ?? (atPosition && !names.includes(atPosition.name) ? atPosition : undefined);
    const validName = limits.parameterNamePattern.test(name) ? name : (base?.name ?? `parameter${index + 1}`);
    return { ...base, name: validName, type: mergedParameterType(form, base?.type) };
  });
  return { ...metadata, parameters, result: mergedResult(forms.result, metadata.result) };
}

function mergedParameterType(form: TypeForm, base: ParameterType | undefined): ParameterType {
  if (base !== undefined && parameterAccepts(form, formOfParameterType(base))) return base;
  const type = parameterTypeOf(form, base);
  return type ?? base ?? 'text';
}

function mergedResult(form: TypeForm | undefined, base: Result): Result {
  if (!form || resultFits(form, formOfResultType(base.type))) return base;
  if (form.kind === 'object' && typeof base.type === 'object' && base.type.type === 'object') {
    const baseProperties = base.type.properties;
    const properties: Record<string, { type: PropertyType }> = {};
    for (const { name, form: propertyForm } of form.properties) {
      const kept = baseProperties[name];
      properties[name] =
        kept && resultFits(propertyForm, formOfResultType(kept.type)) ? kept : { ...kept, type: propertyTypeOf(propertyForm) ?? kept?.type ?? 'text' };
    }
    return { ...base, type: { ...base.type, properties } };
  }
  const type = resultTypeOf(form, () => undefined);
  return { ...base, type: form.kind === 'unsupported' || form.kind === 'any' ? base.type : type };
}

function parameterTypeOf(form: TypeForm, base?: ParameterType): ParameterType | undefined {
  switch (form.kind) {
    case 'string':
      return 'text';
    case 'number':
      return 'number';
    case 'choice':
      return { type: 'single-choice', choices: choicesOf(form.ids, base) };
    case 'multiple':
      return { type: 'multiple-select', choices: choicesOf(form.ids, base) };
    case 'collection':
      return { type: 'collection', items: form.items === 'number' ? 'number' : 'text' };
    default:
      return undefined;
  }
}

function resultTypeOf(form: TypeForm, problem: (message: string) => void): ResultType {
  if (form.kind === 'object') {
    const properties: Record<string, { type: PropertyType }> = {};
    for (const p of form.properties) {
      const type = propertyTypeOf(p.form);
      if (type === undefined) problem(`Property ${p.name}: ${reasonOf(p.form)}; it is taken as text.`);
      properties[p.name] = { type: type ?? 'text' };
    }
    return { type: 'object', properties };
  }
  const type = propertyTypeOf(form);
  if (type === undefined) problem(`The result: ${reasonOf(form)}; it is taken as text.`);
  return type ?? 'text';
}

/** Result and property types: literal unions are text, arrays of them collections of text. */
function propertyTypeOf(form: TypeForm): PropertyType | undefined {
  switch (form.kind) {
    case 'string':
    case 'choice':
      return 'text';
    case 'number':
      return 'number';
    case 'collection':
      return { type: 'collection', items: form.items === 'number' ? 'number' : 'text' };
    case 'multiple':
      return { type: 'collection', items: 'text' };
    default:
      return undefined;
  }
}

function reasonOf(form: TypeForm): string {
  if (form.kind === 'unsupported') return `${form.text} has no metadata type (${form.reason})`;
  if (form.kind === 'any') return 'its type is unknown (any, unknown or unresolved)';
  if (form.kind === 'object') return 'an object has no metadata type here';
  return 'its type has no metadata form here';
}

/** Choices for ids, with the labels the metadata already gives them, else labels made from the ids. */
function choicesOf(ids: readonly string[], base: ParameterType | undefined): Choice[] {
  const known = typeof base === 'object' && (base.type === 'single-choice' || base.type === 'multiple-select') ? base.choices : [];
  return ids.map((id) => known.find((c) => c.id === id) ?? { id, label: labelOf(id) });
}

/** `in_progress` → `In progress`, `highPriority` → `High priority`. */
export function labelOf(id: string): string {
  const words = id
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_-]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w : w.toLowerCase()));
  const text = words.join(' ');
  return text ? text.charAt(0).toUpperCase() + text.slice(1) : id;
}
