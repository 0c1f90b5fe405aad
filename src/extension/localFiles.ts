import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import type * as vscode from 'vscode';
import { type PathFact } from '../core/workspace';

/**
 * The file system the extension host runs on, for `file:` URIs: read straight, without the round
 * trip through the workbench that `workspace.fs` costs (files.ts). A browser has none:
 * localFiles.browser.ts stands in for this module there, and every file goes through `workspace.fs`.
 */
export interface LocalFiles {
  readText(fsPath: string): Promise<string>;
  /** The names of the folders directly in a folder. */
  subfolders(fsPath: string): Promise<string[]>;
  realpath(fsPath: string): Promise<string>;
  /** What is at `uri`: absent, a link to nothing (dangling), or present with its real path. */
  fact(uri: vscode.Uri): Promise<PathFact>;
  readonly isWindows: boolean;
}

export const localFiles: LocalFiles | undefined = {
  readText: (fsPath) => readFile(fsPath, 'utf8'),
  subfolders: async (fsPath) => (await readdir(fsPath, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name),
  realpath: (fsPath) => realpath(fsPath),
  fact: localFact,
  isWindows: process.platform === 'win32',
};

async function localFact(uri: vscode.Uri): Promise<PathFact> {
  const path = uri.path;
  try {
    await lstat(uri.fsPath);
  } catch (error) {
    if (isMissing(error)) return { path, state: 'absent' };
    throw error;
  }
  try {
    return { path, state: 'present', real: await realpath(uri.fsPath) };
  } catch (error) {
    // There (lstat saw it) but not resolvable: a link to nothing, or a loop of links.
    if (isMissing(error) || (error as NodeJS.ErrnoException).code === 'ELOOP') return { path, state: 'dangling' };
    throw error;
  }
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
