import { readFile } from 'node:fs/promises';
import * as vscode from 'vscode';

/**
 * The text of a file on disk. Files of the `file` scheme are read straight from the file system the
 * extension host runs on: going through `workspace.fs` crosses to the workbench and back, which costs
 * milliseconds per read in a remote or browser-served window and sits on the path of every save.
 * Other schemes (virtual workspaces) go through `workspace.fs`. Throws when the file cannot be read.
 */
export async function readText(uri: vscode.Uri): Promise<string> {
  if (uri.scheme === 'file') return readFile(uri.fsPath, 'utf8');
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
