import * as vscode from 'vscode';
import { type ActionMetadata } from '../core/schema';
import { ACTION_FILE, folderAction } from '../core/workspace';
import { type Application } from './project';
import { readText } from './files';
import { localFiles } from './localFiles';

/** An action folder of the workspace: a sub-folder of the application's folder holding action.yaml. */
export interface LocalAction {
  readonly folder: vscode.Uri;
  readonly file: vscode.Uri;
  /** From action.yaml when it says, else the folder's name (`folderAction`). */
  readonly key: string;
  readonly name: string | undefined;
  /** Present only when action.yaml is valid: only then may it be pushed. */
  readonly metadata: ActionMetadata | undefined;
  readonly problemCount: number;
}

/** The names of the application folder's sub-folders (where actions may be), sorted, one per line. */
export async function actionFolderNames(app: Application): Promise<string> {
  try {
    // On the path of every save: read straight where the extension host has the file system (files.ts).
    const names =
      app.folderUri.scheme === 'file' && localFiles
        ? await localFiles.subfolders(app.folderUri.fsPath)
        : (await vscode.workspace.fs.readDirectory(app.folderUri)).filter(([, type]) => type === vscode.FileType.Directory).map(([name]) => name);
    return names.sort().join('\n');
  } catch {
    return '';
  }
}

export async function scanLocalActions(app: Application): Promise<LocalAction[]> {
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(app.folderUri);
  } catch {
    return [];
  }
  const folders = entries.filter(([, type]) => type === vscode.FileType.Directory).map(([name]) => name);
  const found = await Promise.all(folders.map((name) => readLocalAction(vscode.Uri.joinPath(app.folderUri, name))));
  return found.filter((a): a is LocalAction => a !== undefined).sort((a, b) => a.key.localeCompare(b.key));
}

export async function readLocalAction(folder: vscode.Uri): Promise<LocalAction | undefined> {
  const file = vscode.Uri.joinPath(folder, ACTION_FILE);
  let text: string;
  try {
    text = await readText(file);
  } catch {
    return undefined;
  }
  return localActionFromText(folder, text);
}

export function localActionFromText(folder: vscode.Uri, text: string): LocalAction {
  const file = vscode.Uri.joinPath(folder, ACTION_FILE);
  const action = folderAction(folder.path.split('/').pop() ?? '', text);
  return { folder, file, key: action.key, name: action.name, metadata: action.metadata, problemCount: action.problems.length };
}
