/** `1 application`, `2 applications`, `0 applications`: a number with its noun, in the right number. */
export function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}
