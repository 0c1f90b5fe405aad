import * as vscode from 'vscode';
import { ACTION_FILE, GENERATED_FILE, MAIN_FILE, parseActionYaml, type ParsedAction } from '../../core/workspace';
import { type ActionFile } from '../model';
import { readText } from '../files';

export { type ActionFile } from '../model';

/*
 * Which application and action folder a file belongs to is the model's question (`model.fileAt`):
 * these are the questions about an action file once it is known.
 */

/** Code that may hold main: TypeScript of an action folder, but not the types generated from action.yaml. */
export function isCodeFile(file: ActionFile): boolean {
  return file.name.endsWith('.ts') && file.name !== GENERATED_FILE && !file.name.endsWith('.d.ts');
}

export function isMetadataFile(file: ActionFile): boolean {
  return file.name === ACTION_FILE;
}

export function actionYamlOf(folder: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(folder, ACTION_FILE);
}

export function mainOf(folder: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(folder, MAIN_FILE);
}

export function sameUri(a: vscode.Uri, b: vscode.Uri): boolean {
  const trim = (p: string) => p.replace(/\/+$/, '');
  return a.scheme === b.scheme && a.authority === b.authority && trim(a.path) === trim(b.path);
}

export function openDocument(uri: vscode.Uri): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => sameUri(d.uri, uri));
}

/** The text of a file as the editor has it when open (saved or not), else as it is on disk. */
export async function currentText(uri: vscode.Uri): Promise<string | undefined> {
  const open = openDocument(uri);
  if (open) return open.getText();
  return savedText(uri);
}

/** The text on disk: what the workspace holds, whatever an editor shows. */
export async function savedText(uri: vscode.Uri): Promise<string | undefined> {
  try {
    return await readText(uri);
  } catch {
    return undefined;
  }
}

/** action.yaml of a folder, read whole and parsed; undefined when the file is missing. */
export async function readActionYaml(folder: vscode.Uri, source: 'current' | 'saved'): Promise<(ParsedAction & { text: string }) | undefined> {
  const uri = actionYamlOf(folder);
  const text = source === 'current' ? await currentText(uri) : await savedText(uri);
  return text === undefined ? undefined : { ...parseActionYaml(text), text };
}
