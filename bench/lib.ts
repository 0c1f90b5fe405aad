/**
 * What every benchmark shares: one JSON line per figure, so `bench/run.mjs` (and anyone else) can
 * parse the output without knowing the bench.
 */
import { appendFileSync } from 'node:fs';

export interface Figure {
  readonly bench: string;
  readonly metric: string;
  readonly value: number;
  /** Absent for figures reported for context only. */
  readonly target?: number;
  readonly unit: string;
  /** How the value compares with the target; `<=` unless told. */
  readonly cmp?: '<=' | '>=';
  readonly note?: string;
}

/** Where the lines go: a file the runner tails (the extension host's stdout reaches no terminal), or stdout. */
const output = process.env.CUSTOM_ACTIONS_BENCH_OUTPUT;

export function emit(figure: Figure): void {
  const { cmp = '<=', ...rest } = figure;
  const value = round(figure.value);
  const ok = figure.target === undefined ? undefined : cmp === '<=' ? value <= figure.target : value >= figure.target;
  const line = JSON.stringify({ ...rest, value, ...(ok === undefined ? {} : { ok }) });
  if (output) appendFileSync(output, line + '\n');
  else process.stdout.write(line + '\n');
}

export function note(text: string): void {
  if (output) appendFileSync(output, `# ${text}\n`);
  else process.stderr.write(`# ${text}\n`);
}

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * A 95 % confidence interval of the median of `values`, free of any assumption about their
 * distribution: the order statistics a binomial(n, ½) count puts on either side of it.
 */
export function medianInterval(values: readonly number[]): [number, number] {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return [Number.NaN, Number.NaN];
  const half = (1.96 * Math.sqrt(n)) / 2;
  const lowRank = Math.max(1, Math.floor(n / 2 - half));
  const highRank = Math.min(n, Math.ceil(n / 2 + half + 1));
  return [sorted[lowRank - 1]!, sorted[highRank - 1]!];
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

export function round(value: number): number {
  return Math.abs(value) >= 100 ? Math.round(value) : Math.round(value * 100) / 100;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Runs `task` over `items` with at most `width` at once. */
export async function inParallel<T, R>(items: readonly T[], width: number, task: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}

/** Runs a plain-Node bench: exit 0 when it measured (whatever the figures), 1 when it could not. */
export function runBench(name: string, measure: () => Promise<void>): void {
  measure().then(
    () => process.exit(0),
    (error: unknown) => {
      process.stderr.write(`${name} bench could not measure: ${error instanceof Error ? error.stack : String(error)}\n`);
      process.exit(1);
    },
  );
}
