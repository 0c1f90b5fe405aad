import ts from 'typescript';
import { rangeOf } from './range';
import { type Range } from './types';

export interface SyntaxProblem {
  readonly message: string;
  readonly range: Range;
}

const PATH = '/action/main.ts';

/**
 * What the parser refuses in exactly this text. The editor's TypeScript diagnostics may still be
 * those of an older text (they arrive after each change), so a push checks the text it sends here too.
 * A program of this one file, without lib or imports: parsing is all it does, in a millisecond or two.
 */
export function syntaxErrors(source: string): SyntaxProblem[] {
  const file = ts.createSourceFile(PATH, source, ts.ScriptTarget.ES2022, true, ts.ScriptKind.TS);
  const host: ts.CompilerHost = {
    getSourceFile: (path) => (path === PATH ? file : undefined),
    getDefaultLibFileName: () => '/lib/lib.d.ts',
    writeFile: () => undefined,
    getCurrentDirectory: () => '/action',
    getCanonicalFileName: (path) => path,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists: (path) => path === PATH,
    readFile: () => undefined,
  };
  const program = ts.createProgram({ rootNames: [PATH], options: { noLib: true, noResolve: true, types: [] }, host });
  return program.getSyntacticDiagnostics(file).map((d) => {
    const start = d.start ?? 0;
    return { message: ts.flattenDiagnosticMessageText(d.messageText, '\n'), range: rangeOf(file, start, start + (d.length ?? 0)) };
  });
}
