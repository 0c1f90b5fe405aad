/**
 * A three-way merge of lines (base ↔ server ↔ local), written the way git writes a conflict with
 * `merge.conflictStyle=diff3`, which VS Code's merge-conflict support and merge editor read: a region
 * both sides changed differently becomes `<<<<<<<` local `|||||||` base `=======` server `>>>>>>>`.
 */

export interface MergeLabels {
  readonly local: string;
  readonly base: string;
  readonly server: string;
}

export interface MergeResult {
  readonly text: string;
  /** How many regions both sides changed differently; 0 means the text is the merge. */
  readonly conflicts: number;
}

/** Above this many cells the line-by-line comparison is not made: the differing middle is one conflict. */
const MAX_CELLS = 4_000_000;

export function mergeTexts(base: string, server: string, local: string, labels: MergeLabels): MergeResult {
  const b = lines(base);
  const s = lines(server);
  const l = lines(local);
  const toServer = matches(b, s);
  const toLocal = matches(b, l);
  const out: string[] = [];
  let conflicts = 0;
  let i = 0;
  let si = 0;
  let li = 0;
  for (;;) {
    // Lines all three agree on, in place.
    while (i < b.length && toServer[i] === si && toLocal[i] === li) {
      out.push(b[i] as string);
      i++;
      si++;
      li++;
    }
    // The next base line both sides kept closes the region that differs.
    let j = i;
    while (j < b.length && (toServer[j] === -1 || toLocal[j] === -1)) j++;
    const sEnd = j < b.length ? (toServer[j] as number) : s.length;
    const lEnd = j < b.length ? (toLocal[j] as number) : l.length;
    const baseChunk = b.slice(i, j);
    const serverChunk = s.slice(si, sEnd);
    const localChunk = l.slice(li, lEnd);
    if (same(serverChunk, baseChunk)) out.push(...localChunk);
    else if (same(localChunk, baseChunk) || same(localChunk, serverChunk)) out.push(...serverChunk);
    else {
      conflicts++;
      out.push(
        `<<<<<<< ${labels.local}\n`,
        ...ended(localChunk),
        `||||||| ${labels.base}\n`,
        ...ended(baseChunk),
        '=======\n',
        ...ended(serverChunk),
        `>>>>>>> ${labels.server}\n`,
      );
    }
    if (j >= b.length) break;
    i = j;
    si = sEnd;
    li = lEnd;
  }
  return { text: out.join(''), conflicts };
}

/**
 * The text to merge against as the common base: the one the server returned for the base, only when
 * its hash is the hash recorded here when the local copy was derived from it. A server cannot make up
 * a base (one that makes the user's change look like the base, so the merge silently drops it): any
 * other text, or none, gives the empty base, with which every difference shows as a conflict.
 */
export function trustedBase(recordedHash: string | undefined, fetched: { readonly text: string; readonly hash: string } | undefined): string {
  return fetched !== undefined && recordedHash !== undefined && recordedHash !== '' && fetched.hash === recordedHash ? fetched.text : '';
}

/** Whether `text` still holds a conflict region as mergeTexts (or git) writes it. */
export function hasConflictMarkers(text: string): boolean {
  return /^<<<<<<<( |\r?$)/m.test(text) && /^=======\r?$/m.test(text) && /^>>>>>>>( |\r?$)/m.test(text);
}

/** Lines with their line endings, so the merge gives back the exact text where nothing conflicts. */
function lines(text: string): string[] {
  return text === '' ? [] : text.split(/(?<=\n)/);
}

/** A chunk between markers ends with a line break, or the marker after it would join its last line. */
function ended(chunk: readonly string[]): string[] {
  const last = chunk[chunk.length - 1];
  return last === undefined || last.endsWith('\n') ? [...chunk] : [...chunk.slice(0, -1), `${last}\n`];
}

function same(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, k) => line === b[k]);
}

/** For each line of `a`, the index of its partner in `b` in a longest common subsequence, or -1. */
function matches(a: readonly string[], b: readonly string[]): number[] {
  const result = new Array<number>(a.length).fill(-1);
  let start = 0;
  while (start < a.length && start < b.length && a[start] === b[start]) {
    result[start] = start;
    start++;
  }
  let endA = a.length;
  let endB = b.length;
  while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
    endA--;
    endB--;
    result[endA] = endB;
  }
  const n = endA - start;
  const m = endB - start;
  if (n === 0 || m === 0 || (n + 1) * (m + 1) > MAX_CELLS) return result;
  // lengths[x * (m + 1) + y]: the longest common subsequence of a[start + x..endA) and b[start + y..endB).
  const lengths = new Uint32Array((n + 1) * (m + 1));
  for (let x = n - 1; x >= 0; x--)
    for (let y = m - 1; y >= 0; y--)
      lengths[x * (m + 1) + y] =
        a[start + x] === b[start + y]
          ? (lengths[(x + 1) * (m + 1) + y + 1] as number) + 1
          : Math.max(lengths[(x + 1) * (m + 1) + y] as number, lengths[x * (m + 1) + y + 1] as number);
  let x = 0;
  let y = 0;
  while (x < n && y < m) {
    if (a[start + x] === b[start + y]) {
      result[start + x] = start + y;
      x++;
      y++;
    } else if ((lengths[(x + 1) * (m + 1) + y] as number) >= (lengths[x * (m + 1) + y + 1] as number)) x++;
    else y++;
  }
  return result;
}
