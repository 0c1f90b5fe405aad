import * as vscode from 'vscode';
import { inputSetFileName } from '../../core/events';
import { type Parameter } from '../../core/schema';
import { parseInputSetFile } from '../../core/testing';
import { serverText } from '../../core/text';
import { ACTION_FILE, INPUTS_FOLDER, inputSetName } from '../../core/workspace';
import { readText, writeInsideWorkspace } from '../files';
import { mayReplaceFile } from '../replaceFile';

/** A named set of inputs, saved as inputs/<name>.json next to the action's action.yaml. */
export interface InputSet {
  readonly name: string;
  readonly uri: vscode.Uri;
  readonly inputs: unknown;
  /** Empty when the set fits the parameters. */
  readonly problems: readonly string[];
}

/**
 * The one message for a set that does not fit its action's parameters. The problems quote member
 * names and values of the file, which may have come from a server's event or a cloned repository:
 * the whole text goes through serverText, so a name shaped like a link is shown, not followed.
 */
export function doesNotFit(set: Pick<InputSet, 'name' | 'problems'>, key: string | undefined): string {
  const of = key === undefined ? '' : ` of ${key}`;
  return serverText(`The input set ${set.name} does not fit the parameters${of}: ${set.problems.join('; ')}`, 800);
}

export function inputsFolder(actionFolder: vscode.Uri): vscode.Uri {
  return vscode.Uri.joinPath(actionFolder, INPUTS_FOLDER);
}

/**
 * A set as the editor has it (unsaved edits included, as Local runs and the Testing view read it), in
 * either form: the inputs themselves, or a test case whose `inputs` they are. What the case expects
 * does not stop a run or a debug of its inputs; the Testing view reports those problems.
 */
export async function readInputSet(uri: vscode.Uri, parameters: readonly Parameter[] | undefined): Promise<InputSet> {
  const name = inputSetName(decodeURIComponent(uri.path.slice(uri.path.lastIndexOf('/') + 1)));
  let text: string;
  try {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
    text = open ? open.getText() : await readText(uri);
  } catch (error) {
    return { name, uri, inputs: undefined, problems: [`could not be read (${error instanceof Error ? error.message : String(error)})`] };
  }
  const file = parseInputSetFile(text, parameters);
  const judged = (p: (typeof file.problems)[number]) => file.form === 'case' && (p.path[0] === 'expect' || p.path[0] === 'description');
  const problems = file.problems.filter((p) => !judged(p)).map((p) => p.message);
  return { name, uri, inputs: file.inputs, problems };
}

export async function listInputSets(actionFolder: vscode.Uri, parameters: readonly Parameter[] | undefined): Promise<InputSet[]> {
  let entries: [string, vscode.FileType][];
  try {
    entries = await vscode.workspace.fs.readDirectory(inputsFolder(actionFolder));
  } catch {
    return [];
  }
  const files = entries
    .filter(([name, type]) => type === vscode.FileType.File && name.endsWith('.json'))
    .map(([name]) => name)
    .sort();
  return Promise.all(files.map((name) => readInputSet(vscode.Uri.joinPath(inputsFolder(actionFolder), name), parameters)));
}

/**
 * Asks for a name and writes `content` as a set (the inputs, or a test case); returns where, or
 * undefined when cancelled. `name` is the suggested name, or with `ask: false` the name itself.
 */
export async function saveInputSet(
  actionFolder: vscode.Uri,
  content: unknown,
  options: { title?: string; name?: string; ask?: boolean } = {},
): Promise<vscode.Uri | undefined> {
  const name =
    options.ask === false && options.name !== undefined
      ? options.name
      : await vscode.window.showInputBox({
          title: options.title ?? 'Save the inputs as a set',
          prompt: `Saved in ${INPUTS_FOLDER}/ next to ${ACTION_FILE}, to run again in one click`,
          placeHolder: 'typical-order',
          value: options.name,
          ignoreFocusOut: true,
          validateInput: (v) => (inputSetFileName(v) ? undefined : 'Letters, digits, spaces, _ . - (at most 64), starting with a letter or digit'),
        });
  const file = name === undefined ? undefined : inputSetFileName(name);
  if (!file) return undefined;
  const uri = vscode.Uri.joinPath(inputsFolder(actionFolder), file);
  const text = JSON.stringify(content, null, 2) + '\n';
  if (!(await mayReplaceFile(uri, text, options.title ?? 'Save Inputs as Set'))) return undefined;
  await writeInsideWorkspace(uri, text);
  return uri;
}
