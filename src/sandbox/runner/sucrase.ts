import type * as Sucrase from 'sucrase';

let loaded: typeof Sucrase | undefined;

/**
 * Sucrase, required on the first compile and not at the top of a module: the command line starts
 * without it (its bundle takes it from dist/sucrase.js, built apart, as it takes re2js), and only
 * `test` and `run` on the local harness ever compile code in its process.
 */
export function sucrase(): typeof Sucrase {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('sucrase') as typeof Sucrase;
  return loaded;
}
