import ts from 'typescript';
import { type ActionMetadata } from '../schema/metadata';
import { isAsync, locateMain, type LocatedMain, parameterList, parseSource } from './findMain';
import { type TextEdit } from './types';

const GENERATED_MODULE = /^\.\/action\.generated(?:\.js|\.ts)?$/;

/**
 * Edits that make main's parameter list and return type follow the metadata, in the generated
 * names (`x: Inputs['x']`, `Result`, `Promise<Result>` when main is async or returned a promise),
 * and import those names when the file does not yet. The body and all other code stay as they are;
 * a parameter that keeps its name keeps its default value. No edits when the file has no main or
 * already matches.
 */
export function signatureFromMetadata(source: string, metadata: ActionMetadata, fileName?: string): TextEdit[] {
  const file = parseSource(source, fileName);
  const main = locateMain(file);
  if (!main) return [];
  const edits: TextEdit[] = [];
  const push = (start: number, end: number, newText: string): void => {
    if (source.slice(start, end) !== newText) edits.push({ start, end, newText });
  };

  const existing = new Map(main.fn.parameters.map((p) => [p.name.getText(file), p]));
  const parameters = metadata.parameters.map((p) => {
    const initializer = existing.get(p.name)?.initializer;
    return `${p.name}: Inputs['${p.name}']${initializer ? ` = ${initializer.getText(file)}` : ''}`;
  });
  const returnType = returnsPromise(file, main) ? 'Promise<Result>' : 'Result';

  const list = parameterList(file, main.fn);
  if (list) {
    push(list.open.getEnd(), list.close.getStart(file), layout(source, file, list, parameters));
    if (main.fn.type) push(main.fn.type.getStart(file), main.fn.type.getEnd(), returnType);
    else push(list.close.getEnd(), list.close.getEnd(), `: ${returnType}`);
  } else {
    // `async x => …`: the single bare parameter gains the parentheses a type annotation needs.
    const only = main.fn.parameters[0];
    if (only) push(only.getStart(file), only.getEnd(), `(${parameters.join(', ')}): ${returnType}`);
  }

  const importEdit = importGeneratedNames(file, metadata.parameters.length > 0 ? ['Inputs', 'Result'] : ['Result']);
  return [...(importEdit ? [importEdit] : []), ...edits].sort((a, b) => a.start - b.start);
}

/** The text with the edits applied; edits must not overlap. */
export function applyEdits(source: string, edits: readonly TextEdit[]): string {
  let text = source;
  for (const edit of [...edits].sort((a, b) => b.start - a.start)) text = text.slice(0, edit.start) + edit.newText + text.slice(edit.end);
  return text;
}

function returnsPromise(file: ts.SourceFile, main: LocatedMain): boolean {
  return isAsync(main.fn) || /^Promise\s*</.test(main.fn.type?.getText(file) ?? '');
}

/** One line when the list was on one line; one parameter a line, at the old indentation, when it was spread out. */
function layout(source: string, file: ts.SourceFile, list: { open: ts.Node; close: ts.Node }, parameters: readonly string[]): string {
  const inside = source.slice(list.open.getEnd(), list.close.getStart(file));
  if (!inside.includes('\n') || parameters.length === 0) return parameters.join(', ');
  const firstLine = inside.split('\n').find((line, i) => i > 0 && line.trim() !== '') ?? '';
  const indent = /^\s*/.exec(firstLine)?.[0] ?? '  ';
  const closeLine = source.slice(source.lastIndexOf('\n', list.close.getStart(file)) + 1, list.close.getStart(file));
  const closeIndent = /^\s*/.exec(closeLine)?.[0] ?? '';
  const trailingComma = /,\s*$/.test(inside) ? ',' : '';
  return `\n${parameters.map((p) => indent + p).join(',\n')}${trailingComma}\n${closeIndent}`;
}

/** Adds the missing names to the import from the generated file, or adds that import after the last one. */
function importGeneratedNames(file: ts.SourceFile, names: readonly string[]): TextEdit | undefined {
  const imports = file.statements.filter(ts.isImportDeclaration);
  for (const declaration of imports) {
    const specifier = declaration.moduleSpecifier;
    if (!ts.isStringLiteral(specifier) || !GENERATED_MODULE.test(specifier.text)) continue;
    const clause = declaration.importClause;
    const bindings = clause?.namedBindings;
    if (!clause || !bindings || !ts.isNamedImports(bindings)) continue;
    const present = new Set(bindings.elements.map((e) => e.name.text));
    const missing = names.filter((n) => !present.has(n));
    if (missing.length === 0) return undefined;
    const added = missing.map((n) => (clause.isTypeOnly ? n : `type ${n}`));
    const last = bindings.elements[bindings.elements.length - 1];
    if (!last) return { start: bindings.getStart(file), end: bindings.getEnd(), newText: `{ ${added.join(', ')} }` };
    return { start: last.getEnd(), end: last.getEnd(), newText: `, ${added.join(', ')}` };
  }
  const line = `import type { ${names.join(', ')} } from './action.generated';\n`;
  const after = imports[imports.length - 1];
  if (!after) return { start: 0, end: 0, newText: `${line}\n` };
  return { start: after.getEnd(), end: after.getEnd(), newText: `\n${line.trimEnd()}` };
}
