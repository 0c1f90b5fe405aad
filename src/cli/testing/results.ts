/** How one case ended, wherever it ran; what the summary, --json and the JUnit report are made of. */
export interface CaseResult {
  /** `application/key`. */
  readonly action: string;
  readonly application: string;
  readonly key: string;
  readonly name: string;
  /** The input set file, relative to the project. */
  readonly file: string;
  /** passed; failed: the verdict was no; error: the case could not run (bad file, no server action…). */
  readonly status: 'passed' | 'failed' | 'error';
  readonly message?: string;
  /** Expected and actual as JSON, when a diff explains the failure; or the error's stack. */
  readonly detail?: string;
  /** Milliseconds, when the case ran. */
  readonly duration?: number;
  /** The run's log lines, made safe to print. */
  readonly logs: readonly string[];
}

export interface Totals {
  readonly tests: number;
  readonly passed: number;
  readonly failed: number;
  readonly errors: number;
  /** Milliseconds, of the cases' runs. */
  readonly time: number;
}

export function totals(results: readonly CaseResult[]): Totals {
  return {
    tests: results.length,
    passed: results.filter((r) => r.status === 'passed').length,
    failed: results.filter((r) => r.status === 'failed').length,
    errors: results.filter((r) => r.status === 'error').length,
    time: results.reduce((sum, r) => sum + (r.duration ?? 0), 0),
  };
}
