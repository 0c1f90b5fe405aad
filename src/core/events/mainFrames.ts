/** `main.ts:12:5` as stack frames print it (a path before it, or none; not `notmain.ts`). */
const FRAME = /(?<![\w.-])(?:[\w.\-/\\:]*[/\\])?main\.ts:(\d{1,7})(?::(\d{1,7}))?/g;

/** One place a stack names in main.ts: where it is in the text, and the line and column it names (1-based). */
export interface MainFrame {
  readonly index: number;
  readonly length: number;
  readonly line: number;
  readonly column: number;
}

/**
 * The frames of a stack (or any text from a server) that point into main.ts, in order: the first is
 * where the error was thrown. Only a line and a column are taken from the text; lines below 1 are not frames.
 */
export function mainFrames(text: string): MainFrame[] {
  const frames: MainFrame[] = [];
  for (const match of text.matchAll(FRAME)) {
    const line = Number(match[1]);
    const column = match[2] === undefined ? 1 : Number(match[2]);
    if (line < 1 || column < 1) continue;
    frames.push({ index: match.index, length: match[0].length, line, column });
  }
  return frames;
}

/**
 * Where an error was thrown in main.ts: the first frame of `stack` in the file at `mainPath` (a local
 * run names its own file), else in any main.ts (a server's event names its own paths).
 */
export function mainFrameOf(stack: string | undefined, mainPath?: string): { line: number; column: number } | undefined {
  if (!stack) return undefined;
  const frames = mainFrames(stack);
  // The path may hold characters a frame's prefix does not take (a space): compare what ends at main.ts.
  const endsAt = (f: MainFrame) => stack.indexOf('main.ts:', f.index) + 'main.ts'.length;
  const frame = mainPath ? frames.find((f) => stack.slice(endsAt(f) - mainPath.length, endsAt(f)) === mainPath) : frames[0];
  return frame && { line: frame.line, column: frame.column };
}
