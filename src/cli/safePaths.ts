import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';

/**
 * Why writing `file` could land outside `root`, or undefined when it cannot: every part of its path
 * that exists is checked, the file itself must not be a symbolic link (a write would follow it), and
 * the folders must resolve inside the project's folder (a link among them that leaves it is refused).
 */
export async function escapesRoot(root: string, file: string): Promise<string | undefined> {
  const realRoot = await realpath(root);
  const relative = path.relative(root, file);
  if (relative.startsWith('..') || path.isAbsolute(relative)) return `${file} is outside the project`;
  const fileStat = await lstat(file).catch(() => undefined);
  if (fileStat?.isSymbolicLink()) return `${path.relative(root, file)} is a symbolic link`;
  // The deepest folder that exists decides where the rest would be created.
  let dir = path.dirname(file);
  while (!(await lstat(dir).catch(() => undefined))) dir = path.dirname(dir);
  const realDir = await realpath(dir);
  const inside = path.relative(realRoot, realDir);
  if (inside.startsWith('..') || path.isAbsolute(inside))
    return `${path.relative(root, path.dirname(file)) || '.'} leads outside the project through a symbolic link`;
  return undefined;
}
