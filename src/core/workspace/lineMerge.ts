import { commonSubsequence } from './lcs';

/**
 * A three-way merge of lines. The yaml library re-prints a whole document in its own style (flow
 * spacing, folded scalars, comment spacing), so an edit is made on the library's print and carried
 * over to the author's text: `base` is the print of the unchanged document, `ours` the author's
 * text and `theirs` the print after the edit. Only where both touched the same base lines does
 * `theirs` replace the author's lines. Undefined when the texts are too large to compare.
 */
export function mergeLines(base: string, ours: string, theirs: string): string | undefined {
  const b = splitLines(base);
  const o = splitLines(ours);
  const t = splitLines(theirs);
  if (b.length * Math.max(o.length, t.length) > 4_000_000) return undefined;
  const hunks = [...changes(b, o, 'ours'), ...changes(b, t, 'theirs')].sort((x, y) => x.start - y.start || x.end - y.end);
  const out: string[] = [];
  let at = 0;
  for (let i = 0; i < hunks.length; ) {
    const group = [hunks[i]!];
    let end = hunks[i]!.end;
    for (i++; i < hunks.length && overlaps(group, end, hunks[i]!); i++) {
      group.push(hunks[i]!);
      end = Math.max(end, hunks[i]!.end);
    }
    const start = group[0]!.start;
    out.push(...b.slice(at, start));
    const sides = new Set(group.map((h) => h.side));
    if (sides.size === 1) out.push(...group.flatMap((h, k) => [...h.lines, ...b.slice(h.end, group[k + 1]?.start ?? h.end)]));
    else
      out.push(
        ...sideOver(
          b,
          start,
          end,
          group.filter((h) => h.side === 'theirs'),
        ),
      );
    at = end;
  }
  out.push(...b.slice(at));
  return out.join('');
}

interface Hunk {
  readonly side: 'ours' | 'theirs';
  /** The base lines [start, end) that this side replaced by `lines` (start === end: an insertion). */
  readonly start: number;
  readonly end: number;
  readonly lines: readonly string[];
}

function changes(base: readonly string[], other: readonly string[], side: Hunk['side']): Hunk[] {
  const hunks: Hunk[] = [];
  let ib = 0;
  let io = 0;
  for (const [jb, jo] of [...commonSubsequence(base, other), [base.length, other.length] as const]) {
    if (jb > ib || jo > io) hunks.push({ side, start: ib, end: jb, lines: other.slice(io, jo) });
    ib = jb + 1;
    io = jo + 1;
  }
  return hunks;
}

function overlaps(group: readonly Hunk[], end: number, next: Hunk): boolean {
  if (next.start < end) return true;
  // Two insertions at the same place cannot both be placed first; an insertion before a replaced line can.
  return next.start === next.end && group.some((h) => h.start === h.end && h.start === next.start);
}

/** The base lines [start, end) with one side's hunks applied. */
function sideOver(base: readonly string[], start: number, end: number, hunks: readonly Hunk[]): string[] {
  const out: string[] = [];
  let at = start;
  for (const h of hunks) {
    out.push(...base.slice(at, h.start), ...h.lines);
    at = h.end;
  }
  out.push(...base.slice(at, end));
  return out;
}

/** Lines with their line breaks, so the author's line endings and final newline survive. */
function splitLines(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}
