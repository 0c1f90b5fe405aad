import { Script } from 'node:vm';
import { sucrase } from './sucrase';

export const CODE_FILENAME = 'main.ts';

export interface CompileError {
  message: string;
  line?: number;
  column?: number;
}

/**
 * TypeScript to a CommonJS function body. Sucrase only strips types and rewrites imports, keeping every
 * statement on its line, so stack traces and errors point at lines of main.ts.
 */
export function compile(code: string): { ok: true; js: string } | { ok: false; error: CompileError } {
  let js: string;
  try {
    js = sucrase().transform(code, { transforms: ['typescript', 'imports'], production: true, filePath: CODE_FILENAME }).code;
  } catch (error) {
    const loc = (error as { loc?: { line?: number; column?: number } }).loc;
    const message = (error instanceof Error ? error.message : String(error)).replace(/\s*\(\d+:\d+\)$/, '');
    return { ok: false, error: { message, line: loc?.line, column: loc?.column === undefined ? undefined : loc.column + 1 } };
  }
  // Sucrase is lenient; V8 has the last word on what parses.
  try {
    new Script(wrapModule(js), { filename: CODE_FILENAME });
  } catch (error) {
    const stack = error instanceof Error ? (error.stack ?? '') : '';
    const line = new RegExp(`${CODE_FILENAME.replace('.', '\\.')}:(\\d+)`).exec(stack)?.[1];
    return { ok: false, error: { message: error instanceof Error ? error.message : String(error), line: line ? Number(line) : undefined } };
  }
  return { ok: true, js };
}

/** The module as a function expression, opened on the first line so line numbers stay those of main.ts. */
export function wrapModule(js: string): string {
  return `(function (exports, require, module) {${js}\n})`;
}
