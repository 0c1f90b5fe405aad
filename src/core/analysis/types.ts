/**
 * The shapes the analysis hands back. Type-only, so the extension can name them without loading
 * the compiler (the analysis itself lives in its own lazily loaded bundle).
 */
import { type Parameter, type Result } from '../schema/metadata';
import { type Position, type Range } from '../workspace/positions';

// One shape for source positions in the whole core: the workspace's, which the YAML problems use too.
export type { Position, Range };

/** How main is written: `function main`, `const main = (…) =>` or `const main = function (…)`. */
export type MainKind = 'function' | 'arrow' | 'function-expression';

/** How main leaves the module: as `main`, as the default export, or not at all (a plain top-level `function main`). */
export type MainExport = 'named' | 'default' | 'none';

export interface MainParameter {
  /** The parameter's name, or the text of its destructuring pattern. */
  readonly name: string;
  readonly nameRange: Range;
  /** The written type annotation; undefined when the type comes from elsewhere (`const main: Main = (a) => …`). */
  readonly typeText?: string;
  readonly typeRange?: Range;
  readonly optional: boolean;
  readonly rest: boolean;
  /** The text of the default value, if any. */
  readonly defaultText?: string;
  /** The whole parameter, from its name (or `...`) to its type or default value. */
  readonly range: Range;
}

export interface MainInfo {
  readonly kind: MainKind;
  readonly exported: MainExport;
  /** `main`, or undefined for an anonymous default export. */
  readonly name?: string;
  readonly async: boolean;
  /** The whole declaration (the function, or the `const` statement). */
  readonly range: Range;
  /** The name `main`, or the start of an anonymous default export: where to point at main as a whole. */
  readonly nameRange: Range;
  readonly parameters: readonly MainParameter[];
  /** Between the parentheses; undefined for an arrow function with one unparenthesized parameter. */
  readonly parameterListRange?: Range;
  readonly returnTypeText?: string;
  readonly returnTypeRange?: Range;
  /** The annotation of `const main: Main = …`, if any. */
  readonly declaredTypeText?: string;
}

export type MismatchKind = 'missing-main' | 'count' | 'order' | 'name' | 'type' | 'result';

export interface Mismatch {
  readonly kind: MismatchKind;
  readonly message: string;
  /** The 0-based parameter position the mismatch is about (absent for missing-main and result). */
  readonly index?: number;
  /** What the metadata says, in the words of the spec (`text`, `single-choice (low, high)`, …). */
  readonly expected?: string;
  /** What main says, in the same words. */
  readonly actual?: string;
  readonly range: Range;
}

export interface AnalysisProblem {
  readonly message: string;
  readonly target: 'parameter' | 'result' | 'main';
  readonly index?: number;
  readonly range: Range;
}

export interface InferredMetadata {
  readonly parameters: Parameter[];
  readonly result: Result;
  /** What the signature says that no metadata type can express; the result above uses `text` in its place. */
  readonly problems: AnalysisProblem[];
}

/** Replace [start, end) of the original text with newText; edits never overlap and come sorted by start. */
export interface TextEdit {
  readonly start: number;
  readonly end: number;
  readonly newText: string;
}

export interface CompareOptions {
  /**
   * The text of action.generated.ts. Without it the types are generated from the metadata being
   * compared, which is what the generated file holds when it is up to date.
   */
  readonly generatedSource?: string;
  readonly fileName?: string;
}

export interface InferOptions {
  /** The text of action.generated.ts, so `Inputs['x']` and `Result` resolve. */
  readonly generatedSource?: string;
  readonly fileName?: string;
}
