/**
 * A unified diff of two texts, as `git diff` prints one (`---`/`+++`, `@@` hunks with three lines of
 * context), for a plan that shows what it would change before it asks (promote). Texts too long for
 * the quadratic comparison are said to differ, with their line counts, instead.
 */
import { commonSubsequence } from '../workspace/lcs';

const CONTEXT = 3;
/** Past this many lines on a side, the comparison (lines × lines) costs more than a plan should. */
const MAX_LINES = 4000;

export function unifiedDiff(before: string, after: string, labels: { readonly before: string; readonly after: string }): string[] {
  if (before === after) return [];
  const a = splitLines(before);
  const b = splitLines(after);
  const head = [`--- ${labels.before}`, `+++ ${labels.after}`];
  if (a.length > MAX_LINES || b.length > MAX_LINES) return [...head, `@@ differs: ${a.length} lines before, ${b.length} after (too long to compare here) @@`];
  // Each line of both texts as kept (' '), removed ('-') or added ('+'), in order.
  const ops: { kind: ' ' | '-' | '+'; text: string; ai: number; bi: number }[] = [];
  let i = 0;
  let j = 0;
  for (const [mi, mj] of [...commonSubsequence(a, b), [a.length, b.length] as [number, number]]) {
    while (i < mi) ops.push({ kind: '-', text: a[i]!, ai: i++, bi: j });
    while (j < mj) ops.push({ kind: '+', text: b[j]!, ai: i, bi: j++ });
    if (mi < a.length) ops.push({ kind: ' ', text: a[i]!, ai: i++, bi: j++ });
  }
  const lines = [...head];
  for (let k = 0; k < ops.length; ) {
    if (ops[k]!.kind === ' ') {
      k++;
      continue;
    }
    // A hunk: from CONTEXT lines before this change to CONTEXT lines after the last change within reach.
    const start = Math.max(0, k - CONTEXT);
    let end = k;
    for (let m = k; m < ops.length && m <= end + 2 * CONTEXT; m++) if (ops[m]!.kind !== ' ') end = m;
    const stop = Math.min(ops.length, end + CONTEXT + 1);
    const hunk = ops.slice(start, stop);
    const aCount = hunk.filter((o) => o.kind !== '+').length;
    const bCount = hunk.filter((o) => o.kind !== '-').length;
    const aStart = hunk[0]!.ai + (aCount > 0 ? 1 : 0);
    const bStart = hunk[0]!.bi + (bCount > 0 ? 1 : 0);
    lines.push(`@@ -${aStart},${aCount} +${bStart},${bCount} @@`, ...hunk.map((o) => `${o.kind}${o.text}`));
    k = stop;
  }
  return lines;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  if (lines.at(-1) === '') lines.pop();
  return lines;
}
