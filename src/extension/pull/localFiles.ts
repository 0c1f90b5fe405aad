import * as vscode from 'vscode';
import { type PlannedPullFile } from '../../core/deploy/pull';
import { serverText } from '../../core/text';
import { readText } from '../files';
import { linkAt } from './target';
import { type HeldTexts } from '../heldTexts';

/** A file of a pull's plan (src/core/deploy/pull.ts), with where it goes. */
export interface PlannedFile extends PlannedPullFile {
  readonly uri: vscode.Uri;
}

/** What is in the workspace where a pull would write. */
export interface LocalFiles {
  /** Files open in an editor with unsaved changes: never written under the user's hands. */
  readonly unsaved: readonly PlannedFile[];
  /** Why a write could land elsewhere (a symbolic link on the way). */
  readonly links: readonly string[];
  /** The text on disk of each planned file when it was looked at (undefined: absent). */
  readonly onDisk: ReadonlyMap<string, string | undefined>;
}

export async function readLocalFiles(folder: vscode.Uri, files: readonly PlannedFile[]): Promise<LocalFiles> {
  const links = (await Promise.all([folder, ...files.map((f) => f.uri)].map(linkAt))).filter((l): l is string => l !== undefined);
  const onDisk = new Map<string, string | undefined>();
  await Promise.all(files.map(async (f) => onDisk.set(f.uri.toString(), await readText(f.uri).catch(() => undefined))));
  const open = new Map(vscode.workspace.textDocuments.map((d) => [d.uri.toString(), d]));
  const unsaved = files.filter((f) => open.get(f.uri.toString())?.isDirty === true);
  return { unsaved, links, onDisk };
}

/** Whether the files are still as they were when the user was asked (they may have saved meanwhile). */
export async function unchangedSince(before: LocalFiles, folder: vscode.Uri, files: readonly PlannedFile[]): Promise<boolean> {
  const now = await readLocalFiles(folder, files);
  if (now.unsaved.length > 0 || now.links.length > 0) return false;
  return files.every((f) => now.onDisk.get(f.uri.toString()) === before.onDisk.get(f.uri.toString()));
}

const REPLACE = 'Replace';
const COMPARE = 'Compare';

/**
 * Asks before a pull replaces local files that hold changes of their own (`differing`): a modal
 * naming them, with Compare, which opens a diff of each (local on the left, the server's on the
 * right) and asks again without a modal, so the diffs can be read.
 */
export async function confirmReplace(key: string, differing: readonly PlannedFile[], versions: HeldTexts): Promise<boolean> {
  const names = differing.map((f) => f.name).join(', ');
  const choice = await vscode.window.showWarningMessage(
    `Pull "${serverText(key, 80)}" from the server? It replaces local files that differ from the server's: ${names}.`,
    { modal: true, detail: 'What is replaced cannot be undone from here. Compare shows each difference first.' },
    REPLACE,
    COMPARE,
  );
  if (choice !== COMPARE) return choice === REPLACE;
  for (const file of differing) {
    const server = versions.hold(file.uri.path, file.text);
    await vscode.commands.executeCommand('vscode.diff', file.uri, server, `${file.name}: local ↔ server (${serverText(key, 80)})`, { preview: false });
  }
  // Closing the question keeps the local files, as Keep Local does; the pull is the way back to it.
  const after = await vscode.window.showWarningMessage(
    `Replace the local ${names} of "${serverText(key, 80)}" with the server's? Closing this keeps them; pulling again asks again.`,
    REPLACE,
    'Keep Local',
  );
  return after === REPLACE;
}
