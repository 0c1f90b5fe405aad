import ts from 'typescript';
import { rangeOf, rangeOfNode } from './range';
import { type MainExport, type MainInfo, type MainKind, type MainParameter, type Range } from './types';

export type MainFunction = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;

/** main as the compiler sees it, for the modules that go on to resolve types or rewrite it. */
export interface LocatedMain {
  readonly fn: MainFunction;
  readonly kind: MainKind;
  readonly exported: MainExport;
  readonly name?: ts.Identifier;
  /** The statement that declares main. */
  readonly declaration: ts.Node;
  /** `Main` in `const main: Main = …`. */
  readonly declaredType?: ts.TypeNode;
}

/** Where a problem with main's result stands: its return type, else its name, else its start. */
export function resultRange(file: ts.SourceFile, main: LocatedMain): Range {
  if (main.fn.type) return rangeOfNode(file, main.fn.type);
  if (main.name) return rangeOfNode(file, main.name);
  return rangeOf(file, main.fn.getStart(file), main.fn.getStart(file));
}

export function parseSource(source: string, fileName = 'main.ts'): ts.SourceFile {
  return ts.createSourceFile(fileName, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
}

/** Does the file define a top-level main, and how: see docs/analysis.md for the forms recognised. */
export function findMain(source: string, fileName?: string): MainInfo | undefined {
  const file = parseSource(source, fileName);
  const located = locateMain(file);
  return located && describeMain(file, located);
}

interface Candidate {
  readonly fn: MainFunction;
  readonly kind: MainKind;
  readonly name?: ts.Identifier;
  readonly declaration: ts.Node;
  readonly declaredType?: ts.TypeNode;
  /** How the declaration itself exports (`export function`, `export default function`). */
  readonly modifierExport: MainExport;
}

export function locateMain(file: ts.SourceFile): LocatedMain | undefined {
  const byLocalName = new Map<string, Candidate>();
  let anonymousDefault: Candidate | undefined;
  // Local names exported through `export { … }` or `export default name`, with what they are exported as.
  const exportedAs = new Map<string, MainExport>();
  const noteExport = (local: string, as: string): void => {
    if (as === 'main') exportedAs.set(local, 'named');
    else if (as === 'default' && exportedAs.get(local) !== 'named') exportedAs.set(local, 'default');
  };

  for (const statement of file.statements) {
    if (ts.isFunctionDeclaration(statement)) {
      const modifierExport = exportOfModifiers(statement);
      const candidate: Candidate = { fn: statement, kind: 'function', name: statement.name, declaration: statement, modifierExport };
      if (statement.name) {
        const previous = byLocalName.get(statement.name.text);
        // Of overloads, the implementation's parameters are the ones the body sees; keep it over a bodiless signature.
        if (!previous || (!previous.fn.body && statement.body)) byLocalName.set(statement.name.text, candidate);
      } else if (modifierExport === 'default') {
        anonymousDefault = candidate;
      }
    } else if (ts.isVariableStatement(statement)) {
      const modifierExport = exportOfModifiers(statement);
      for (const declaration of statement.declarationList.declarations) {
        const fn = declaration.initializer && functionOf(declaration.initializer);
        if (!fn || !ts.isIdentifier(declaration.name)) continue;
        byLocalName.set(declaration.name.text, {
          fn,
          kind: ts.isArrowFunction(fn) ? 'arrow' : 'function-expression',
          name: declaration.name,
          declaration: statement,
          declaredType: declaration.type,
          modifierExport,
        });
      }
    } else if (ts.isExportDeclaration(statement) && !statement.moduleSpecifier && statement.exportClause && ts.isNamedExports(statement.exportClause)) {
      for (const element of statement.exportClause.elements) noteExport((element.propertyName ?? element.name).text, element.name.text);
    } else if (ts.isExportAssignment(statement) && !statement.isExportEquals) {
      const expression = unwrap(statement.expression);
      if (ts.isIdentifier(expression)) noteExport(expression.text, 'default');
      const fn = functionOf(expression);
      if (fn) {
        anonymousDefault = {
          fn,
          kind: ts.isArrowFunction(fn) ? 'arrow' : 'function-expression',
          name: fn.name,
          declaration: statement,
          modifierExport: 'default',
        };
      }
    }
  }

  const exportOf = (local: string, candidate: Candidate): MainExport => {
    const viaList = exportedAs.get(local);
    if (candidate.modifierExport === 'named' || viaList === 'named') return 'named';
    return candidate.modifierExport === 'default' || viaList === 'default' ? 'default' : 'none';
  };
  const located = (candidate: Candidate, exported: MainExport): LocatedMain => ({
    fn: candidate.fn,
    kind: candidate.kind,
    exported,
    name: candidate.name,
    declaration: candidate.declaration,
    declaredType: candidate.declaredType,
  });

  const main = byLocalName.get('main');
  if (main && exportOf('main', main) === 'named') return located(main, 'named');
  // `export { run as main }`: the function the platform calls is `run`.
  for (const [local, as] of exportedAs) {
    const candidate = byLocalName.get(local);
    if (as === 'named' && candidate) return located(candidate, 'named');
  }
  if (main && exportOf('main', main) === 'default') return located(main, 'default');
  if (anonymousDefault) return located(anonymousDefault, 'default');
  for (const [local, as] of exportedAs) {
    const candidate = byLocalName.get(local);
    if (as === 'default' && candidate) return located(candidate, 'default');
  }
  return main && located(main, 'none');
}

export function describeMain(file: ts.SourceFile, main: LocatedMain): MainInfo {
  const { fn } = main;
  const list = parameterList(file, fn);
  return {
    kind: main.kind,
    exported: main.exported,
    name: main.name?.text,
    async: isAsync(fn),
    range: rangeOfNode(file, main.declaration),
    nameRange: main.name ? rangeOfNode(file, main.name) : rangeOf(file, fn.getStart(file), fn.getStart(file)),
    parameters: fn.parameters.map((p) => describeParameter(file, p)),
    parameterListRange: list && rangeOf(file, list.open.getEnd(), list.close.getStart(file)),
    returnTypeText: fn.type?.getText(file),
    returnTypeRange: fn.type && rangeOfNode(file, fn.type),
    declaredTypeText: main.declaredType?.getText(file),
  };
}

function describeParameter(file: ts.SourceFile, p: ts.ParameterDeclaration): MainParameter {
  return {
    name: p.name.getText(file),
    nameRange: rangeOfNode(file, p.name),
    typeText: p.type?.getText(file),
    typeRange: p.type && rangeOfNode(file, p.type),
    optional: !!p.questionToken,
    rest: !!p.dotDotDotToken,
    defaultText: p.initializer?.getText(file),
    range: rangeOfNode(file, p),
  };
}

export function isAsync(fn: MainFunction): boolean {
  return !!fn.modifiers?.some((m) => m.kind === ts.SyntaxKind.AsyncKeyword);
}

/** The parentheses around the parameters; an arrow function with one bare parameter has none. */
export function parameterList(file: ts.SourceFile, fn: MainFunction): { open: ts.Node; close: ts.Node } | undefined {
  const children = fn.getChildren(file);
  const open = children.find((c) => c.kind === ts.SyntaxKind.OpenParenToken);
  const close = children.find((c) => c.kind === ts.SyntaxKind.CloseParenToken);
  return open && close ? { open, close } : undefined;
}

function exportOfModifiers(node: ts.FunctionDeclaration | ts.VariableStatement): MainExport {
  const modifiers = ts.getModifiers(node) ?? [];
  if (!modifiers.some((m) => m.kind === ts.SyntaxKind.ExportKeyword)) return 'none';
  return modifiers.some((m) => m.kind === ts.SyntaxKind.DefaultKeyword) ? 'default' : 'named';
}

function functionOf(expression: ts.Expression): ts.ArrowFunction | ts.FunctionExpression | undefined {
  const inner = unwrap(expression);
  return ts.isArrowFunction(inner) || ts.isFunctionExpression(inner) ? inner : undefined;
}

/** `(…)`, `… as Main`, `… satisfies Main` and `…!` leave the function itself unchanged. */
function unwrap(expression: ts.Expression): ts.Expression {
  let current = expression;
  while (ts.isParenthesizedExpression(current) || ts.isAsExpression(current) || ts.isSatisfiesExpression(current) || ts.isNonNullExpression(current)) {
    current = current.expression;
  }
  return current;
}
