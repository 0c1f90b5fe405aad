/**
 * The analysis of main.ts, bundled on its own (dist/analysis.js) because it carries the TypeScript
 * compiler; the extension loads it on first need. mightDefineMain lives in quickCheck.ts, outside
 * this bundle's weight.
 */
export { findMain } from './findMain';
export { compareWithMetadata } from './compare';
export { checkMany, type CheckItem, type CheckResult } from './batch';
export { syntaxErrors, type SyntaxProblem } from './syntax';
export { configureLibFolder } from './program';
export { mightDefineMain } from './quickCheck';
export type * from './types';
export { inferFromMain, metadataFromSignature } from './infer';
export { applyEdits, signatureFromMetadata } from './rewrite';
