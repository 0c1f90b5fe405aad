/**
 * The folders the launcher (main.ts) keeps the program's code cache out of, known before the
 * arguments are parsed: the current folder, every folder `--project` (`-C`) might name, and the
 * project at or above each. It may name more than the command will work in (a value that only looks
 * like one), never fewer: an extra folder costs the cache a place at most, a missing one would let a
 * repository hand this process bytecode (codeCache.ts).
 */
import path from 'node:path';
import { findProjectRoot } from './projectRoot';

export function launchFolders(argv: readonly string[], cwd: string): string[] {
  const starts = [cwd];
  argv.forEach((arg, i) => {
    const next = argv[i + 1];
    const long = /^--project(?:=(.*))?$/s.exec(arg);
    if (long) {
      if (long[1] !== undefined) starts.push(long[1]);
      else if (next !== undefined) starts.push(next);
      return;
    }
    // Short options combine (`-yC dir`, `-Cdir`): any C among them may be the option, taking the rest or the next word.
    if (/^-[^-]/.test(arg))
      for (let at = arg.indexOf('C'); at > 0; at = arg.indexOf('C', at + 1)) {
        const rest = arg.slice(at + 1);
        starts.push(rest !== '' ? rest : (next ?? ''));
      }
  });
  const folders = starts.filter((s) => s !== '').map((s) => path.resolve(cwd, s));
  return [...new Set([...folders, ...folders.map(findProjectRoot).filter((f): f is string => f !== undefined)])];
}
