/**
 * The source of every diagnostic the extension makes (code against action.yaml, input sets): how its
 * quick fixes find their own, and how TypeScript's errors are told apart from them.
 */
export const DIAGNOSTIC_SOURCE = 'Custom Actions';
