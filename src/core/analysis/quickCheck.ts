/**
 * A text-only guess, cheap enough for activation and every keystroke: could this file define main?
 * False means it certainly does not; true means the full analysis (which loads the compiler) is worth running.
 */
const MAY_DEFINE_MAIN = /\bfunction\s*\*?\s*main\b|\b(?:const|let|var)\s+main\b|\bas\s+main\b|\bexport\s+default\b/;

export function mightDefineMain(source: string): boolean {
  return MAY_DEFINE_MAIN.test(source);
}
