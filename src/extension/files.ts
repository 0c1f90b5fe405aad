import * as vscode from 'vscode';
import { judgeWrite, type PathFact, pathsToCheck } from '../core/workspace';
import { localFiles } from './localFiles';

/**
 * The text of a file on disk. Files of the `file` scheme are read straight from the file system the
 * extension host runs on: going through `workspace.fs` crosses to the workbench and back, which costs
 * milliseconds per read in a remote or browser-served window and sits on the path of every save.
 * Other schemes (virtual workspaces), and every file in a browser (no file system of its own), go
 * through `workspace.fs`. Throws when the file cannot be read.
 */
export async function readText(uri: vscode.Uri): Promise<string> {
  if (uri.scheme === 'file' && localFiles) return localFiles.readText(uri.fsPath);
  return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
}

/** Whether anything (file or folder) is at `uri`. */
export async function exists(uri: vscode.Uri): Promise<boolean> {
  try {
    await vscode.workspace.fs.stat(uri);
    return true;
  } catch {
    return false;
  }
}

/** A write refused because it would leave the workspace folder through a link; says which file and why. */
export class OutsideWorkspaceError extends Error {
  constructor(
    readonly uri: vscode.Uri,
    reason: string,
    done: 'written' | 'deleted' = 'written',
  ) {
    super(
      `${vscode.workspace.asRelativePath(uri)} was not ${done}: ${reason}, and a ${done === 'written' ? 'write' : 'delete'} would follow it. Nothing was changed.`,
    );
    this.name = 'OutsideWorkspaceError';
  }
}

/**
 * Throws an `OutsideWorkspaceError` unless a write (or a delete) at `uri` stays inside the workspace
 * folder that holds it: the real path of `uri`, when it exists, and of every folder above it up to
 * the workspace folder must be inside the workspace folder's real path (src/core/workspace/writeGuard.ts).
 * A `uri` in no workspace folder is refused too: the extension writes nowhere else through this.
 * Every write of the extension to the workspace calls it first, through the functions below.
 */
export async function assertInsideWorkspace(uri: vscode.Uri, done: 'written' | 'deleted' = 'written'): Promise<void> {
  const folder = vscode.workspace.getWorkspaceFolder(uri);
  const paths = folder && pathsToCheck(folder.uri.path, uri.path);
  if (!folder || !paths) throw new OutsideWorkspaceError(uri, 'it is not inside a folder of the workspace', done);
  const local = uri.scheme === 'file' ? localFiles : undefined;
  const check = local
    ? judgeWrite(
        folder.uri.path,
        await local.realpath(folder.uri.fsPath),
        await Promise.all(paths.map((p) => local.fact(uri.with({ path: p })))),
        local.isWindows,
      )
    : judgeWrite(folder.uri.path, folder.uri.path, await Promise.all(paths.map((p) => remoteFact(uri.with({ path: p })))));
  if (!check.ok) throw new OutsideWorkspaceError(uri, check.reason, done);
}

/** Writes `content` at `uri` once `assertInsideWorkspace` allows it. */
export async function writeInsideWorkspace(uri: vscode.Uri, content: string | Uint8Array): Promise<void> {
  await assertInsideWorkspace(uri);
  await vscode.workspace.fs.writeFile(uri, typeof content === 'string' ? new TextEncoder().encode(content) : content);
}

/**
 * Replaces the whole text of the document at `uri` as one undoable edit, once `assertInsideWorkspace`
 * allows it: the edit is saved later by VS Code itself, so the link check has to come before it.
 * Resolves to whether the workbench applied the edit.
 */
export async function replaceDocumentText(uri: vscode.Uri, text: string): Promise<boolean> {
  await assertInsideWorkspace(uri);
  const document = await vscode.workspace.openTextDocument(uri);
  const edit = new vscode.WorkspaceEdit();
  edit.replace(uri, document.validateRange(new vscode.Range(0, 0, Number.MAX_SAFE_INTEGER, 0)), text);
  return vscode.workspace.applyEdit(edit);
}

/** Creates the folder `uri` (and those above it) once `assertInsideWorkspace` allows it. */
export async function createFolderInsideWorkspace(uri: vscode.Uri): Promise<void> {
  await assertInsideWorkspace(uri);
  await vscode.workspace.fs.createDirectory(uri);
}

/** On a file system the extension host cannot read directly, a link cannot be resolved: none is written through. */
async function remoteFact(uri: vscode.Uri): Promise<PathFact> {
  try {
    const stat = await vscode.workspace.fs.stat(uri);
    return (stat.type & vscode.FileType.SymbolicLink) !== 0 ? { path: uri.path, state: 'link' } : { path: uri.path, state: 'present', real: uri.path };
  } catch {
    return { path: uri.path, state: 'absent' };
  }
}

/**
 * Shows a file in an editor without the extension opening its document: `window.showTextDocument`
 * given a URI opens it for the extension first, and VS Code then holds it open three minutes past its
 * editor, through a Delete of its folder that the trash took (handlers/removeFolder.ts, handlers/staleProblems.ts).
 */
export async function showFile(uri: vscode.Uri, options?: vscode.TextDocumentShowOptions): Promise<void> {
  await vscode.commands.executeCommand('vscode.open', uri, options);
}
