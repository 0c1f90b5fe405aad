/**
 * The write guard (writeGuard.ts) on a local file system, for the faces that run on Node: the
 * extension's `file:` workspaces and the command line. Imported from this file by those faces, not
 * through the folder's index, so the browser's bundle does not carry `node:fs`.
 */
import { randomBytes } from 'node:crypto';
import { lstat, mkdir, open, realpath, rename, unlink } from 'node:fs/promises';
import nodePath from 'node:path';
import { isInside, judgeWrite, type PathFact, pathsToCheck, type WriteCheck } from './writeGuard';

/** What the local file system says about `fsPath`, named `path` (with `/`) in the guard's terms. */
export async function localPathFact(fsPath: string, path: string): Promise<PathFact> {
  try {
    await lstat(fsPath);
  } catch (error) {
    if (isMissing(error)) return { path, state: 'absent' };
    throw error;
  }
  try {
    return { path, state: 'present', real: await realpath(fsPath) };
  } catch (error) {
    // There (lstat saw it) but not resolvable: a link to nothing, or a loop of links.
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ELOOP') return { path, state: 'dangling' };
    throw error;
  }
}

/** Whether writing `file` stays inside the folder `root` (both local paths): `judgeWrite` on this file system's facts. */
export async function checkLocalWrite(root: string, file: string, place?: string): Promise<WriteCheck> {
  const slashed = (p: string) => nodePath.resolve(p).split(nodePath.sep).join('/');
  const paths = pathsToCheck(slashed(root), slashed(file));
  if (!paths) return { ok: false, reason: `${file} is not inside ${root}` };
  const facts = await Promise.all(paths.map((p) => localPathFact(p.split('/').join(nodePath.sep), p)));
  return judgeWrite(slashed(root), await realpath(root), facts, process.platform === 'win32', place);
}

/** A write refused by the guard: names the file, relative to the folder it had to stay in, and why. */
export class OutsideFolderError extends Error {
  constructor(
    readonly file: string,
    readonly reason: string,
  ) {
    super(`${file} was not written: ${reason}, and a write would follow it. Nothing was written there.`);
    this.name = 'OutsideFolderError';
  }
}

/**
 * Writes `text` to `file` inside `root`, whole or not at all, following no link:
 * - the guard first (`checkLocalWrite`): the file and every folder above it, up to `root`, stay inside
 *   `root`'s real path;
 * - the folders are made, and the file's folder is checked again by its real path;
 * - the text goes into a temporary file of a random name in that real folder, created exclusively
 *   (`wx`: a link or a file planted at that name fails it, nothing is written through it), then renamed
 *   over the name, which replaces a link there rather than following it.
 * With `exclusive`, the file itself is created with `wx` and never replaces anything.
 */
export async function writeInsideFolder(
  root: string,
  file: string,
  text: string,
  options: { readonly exclusive?: boolean; readonly place?: string } = {},
): Promise<void> {
  const relative = nodePath.relative(root, file) || file;
  const check = await checkLocalWrite(root, file, options.place);
  if (!check.ok) throw new OutsideFolderError(relative, check.reason);
  const folder = nodePath.dirname(file);
  await mkdir(folder, { recursive: true });
  const realFolder = await realpath(folder);
  if (!isInside(await realpath(root), realFolder, process.platform === 'win32'))
    throw new OutsideFolderError(relative, `${nodePath.relative(root, folder)} leads outside through a link`);
  const target = nodePath.join(realFolder, nodePath.basename(file));
  if (options.exclusive) {
    await writeNew(target, text);
    return;
  }
  const temporary = nodePath.join(realFolder, `.${nodePath.basename(file)}.${randomBytes(8).toString('hex')}.tmp`);
  await writeNew(temporary, text);
  try {
    await rename(temporary, target);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
}

/** Creates `file` with `text`; fails if anything, a link included, is already there. */
async function writeNew(file: string, text: string): Promise<void> {
  const handle = await open(file, 'wx');
  try {
    await handle.writeFile(text);
  } finally {
    await handle.close();
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
