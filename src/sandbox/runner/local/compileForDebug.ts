import { pathToFileURL } from 'node:url';
import { compile, type CompileError, wrapModule } from '../compile';
import { sucrase } from '../sucrase';

/** What the debugger is given: the module as run.ts takes it, named apart from main.ts, mapped back to it. */
export interface DebugScript {
  /** The vm Script's filename: a name of its own, so the debugger shows main.ts and not a second file of that name. */
  readonly filename: string;
  /** wrapModule's function expression, with the source map inline. */
  readonly js: string;
}

/** The suffix of the compiled script's name; stacks name main.ts again through `toMainStack`. */
const COMPILED_SUFFIX = '.local.js';

/**
 * The same type-stripping as the sandbox (compile.ts: the same lines, the same checks) plus a source
 * map whose source is the real main.ts with the text being debugged, unsaved edits included. The
 * debugger maps breakpoints set in main.ts through it. Only the first line's columns move (the
 * wrapper opens there); lines never do.
 */
export function compileForDebug(code: string, mainPath: string): { ok: true; script: DebugScript } | { ok: false; error: CompileError } {
  const checked = compile(code);
  if (!checked.ok) return checked;
  const filename = mainPath + COMPILED_SUFFIX;
  const { code: js, sourceMap } = sucrase().transform(code, {
    transforms: ['typescript', 'imports'],
    production: true,
    filePath: mainPath,
    sourceMapOptions: { compiledFilename: filename },
  });
  const map = { ...sourceMap, sources: [pathToFileURL(mainPath).href], sourcesContent: [code] };
  const inline = `\n//# sourceMappingURL=data:application/json;charset=utf-8;base64,${Buffer.from(JSON.stringify(map)).toString('base64')}`;
  return { ok: true, script: { filename, js: wrapModule(js) + inline } };
}

/** A stack of the compiled script with main.ts's own path: its lines are main.ts's lines. */
export function toMainStack(stack: string | undefined, script: DebugScript, mainPath: string): string | undefined {
  return stack?.split(`${script.filename}:`).join(`${mainPath}:`);
}
