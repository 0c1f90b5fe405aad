import * as vscode from 'vscode';
import { type InputSetFile, parseInputSetFile } from '../../core/testing';
import { inputSetName } from '../../core/workspace/files';
import { readText } from '../files';
import { type LocalAction } from '../localActions';

/** An input set as a test case: the file (as the editor has it) read against its action's parameters. */
export interface TestCase {
  readonly uri: vscode.Uri;
  readonly name: string;
  readonly file: InputSetFile;
  /** Where `expect` stands in the file, for the message of a failed expectation; the first line without one. */
  readonly expectAt: vscode.Range;
}

export function caseName(uri: vscode.Uri): string {
  return inputSetName(decodeURIComponent(uri.path.slice(uri.path.lastIndexOf('/') + 1)));
}

/** The text the user sees: the open editor's, unsaved edits included, else the file's. */
export async function currentText(uri: vscode.Uri): Promise<string> {
  const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  return open ? open.getText() : readText(uri);
}

export async function readCase(uri: vscode.Uri, action: LocalAction | undefined): Promise<TestCase> {
  const text = await currentText(uri);
  const file = parseInputSetFile(text, action?.metadata?.parameters);
  const line = Math.max(0, text.slice(0, Math.max(0, text.search(/"expect"\s*:/))).split('\n').length - 1);
  return { uri, name: caseName(uri), file, expectAt: new vscode.Range(line, 0, line, 0) };
}
