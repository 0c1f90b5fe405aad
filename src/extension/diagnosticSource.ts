/**
 * The source of every diagnostic the extension makes (code against action.yaml, input sets): how its
 * quick fixes find their own, and how TypeScript's errors are told apart from them.
 */
export const DIAGNOSTIC_SOURCE = 'Custom Actions';

/** The diagnostics of ours a quick fix settles (code against action.yaml); a missing main.ts has none. */
export function fixableDiagnostics<D extends { readonly source?: string; readonly code?: unknown }>(diagnostics: readonly D[]): D[] {
  return diagnostics.filter((d) => d.source === DIAGNOSTIC_SOURCE && d.code !== 'missing-main');
}
