import * as vscode from 'vscode';
import { type VersionedResource } from '../../core/client';
import { ACTION_FILE } from '../../core/workspace';
import { isNode, pickAction } from '../commands/commands';
import { type ActionEntry } from '../model';
import { COMPARE, MERGE, type MergeOutcome, OVERWRITE } from './conflicts';
import { PUSH_NOW, TAKE_INTO_EDITOR } from './deployer';
import { localFileOf } from './serverCopy';
import { pullAction } from '../pull';
import { PULLED_SCHEME } from '../heldTexts';
import { type Parts } from '../parts';
import { CodeChecks } from '../../core/deploy/checks';
import { loadAnalysis } from './analysisLoader';
import { type DeployFeature } from './index';
import { deployHistory, openHistoryVersion } from './historyView';

/** Safe deploy's commands (docs/deploy.md, *Changes on the server*). */
export const DEPLOY_COMMANDS = {
  'customActions.compareWithServer': compareWithServer,
  'customActions.pullFromDiff': pullFromDiff,
  'customActions.deployHistory': deployHistory,
  'customActions.openHistoryVersion': openHistoryVersion,
  'customActions.mergeWithServer': mergeWithServer,
  'customActions.overwriteServer': overwriteServer,
  'customActions.resolveConflict': resolveConflict,
  'customActions.heldSaveChoices': heldSaveChoices,
  'customActions.refusedSaveChoices': refusedSaveChoices,
} satisfies Record<string, (s: never, ...args: never[]) => unknown>;

/**
 * The code checks a deploy makes, for what another command sends as a deploy would (the editor's
 * Promote): the same analysis the saves use, loaded on the first check.
 */
export function deployCodeChecks(s: Pick<Parts, 'context'>): CodeChecks {
  return new CodeChecks(() => loadAnalysis(s.context.extensionUri), []);
}

/** What a command on an action's parts takes: the action picked, and deploy's door. */
type Picked = Pick<Parts, 'model' | 'project'> & { readonly deploy: DeployFeature };

/**
 * Compare with Server: the action's code and metadata as the server holds them now ↔ the local files,
 * in VS Code's diff editor. From action.yaml only its metadata, from main.ts only its code.
 */
export async function compareWithServer(s: Picked, arg?: unknown): Promise<readonly VersionedResource[]> {
  const action = await pickAction(s, arg, (a) => a.local !== undefined && a.remote !== undefined);
  if (!action?.local || !action.remote) return [];
  const file = arg instanceof vscode.Uri ? arg : undefined;
  const parts: VersionedResource[] = file ? [file.path.endsWith(`/${ACTION_FILE}`) ? 'metadata' : 'implementation'] : ['metadata', 'implementation'];
  const shown: VersionedResource[] = [];
  for (const part of parts) {
    if (await s.deploy.compare(action.app, action.local.folder, action.remote.id, part, action.key)) shown.push(part);
  }
  return shown;
}

/**
 * The action and the parts a Merge or an Overwrite is about: a file (the diff editor's title hands its
 * local side) names its part; an action of the tree, the parts with a held push standing, else both.
 */
async function partsOf(s: Picked, arg: unknown): Promise<{ action: ActionEntry; folder: vscode.Uri; id: string; parts: VersionedResource[] } | undefined> {
  const file = arg instanceof vscode.Uri ? (arg.scheme === PULLED_SCHEME ? localSideOf(arg) : arg) : isNode(arg) ? undefined : activeLocalFile();
  const action = await pickAction(s, file ?? arg, (a) => a.local !== undefined && a.remote !== undefined);
  if (!action?.local || !action.remote) return undefined;
  const folder = action.local.folder;
  if (file) return { action, folder, id: action.remote.id, parts: [file.path.endsWith(`/${ACTION_FILE}`) ? 'metadata' : 'implementation'] };
  const standing = s.deploy.standingParts(folder);
  return { action, folder, id: action.remote.id, parts: standing.length > 0 ? standing : ['implementation', 'metadata'] };
}

/** The local file of the active editor or diff, when it is one. */
function activeLocalFile(): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  if (input instanceof vscode.TabInputTextDiff) return input.modified;
  if (input instanceof vscode.TabInputText) return input.uri;
  return undefined;
}

/** Merge with Server: from the diff's title, the status bar or the tree; a part already in step says so once. */
export async function mergeWithServer(s: Picked, arg?: unknown): Promise<MergeOutcome[]> {
  const target = await partsOf(s, arg);
  if (!target) return [];
  const outcomes: MergeOutcome[] = [];
  for (const part of target.parts)
    outcomes.push(await s.deploy.merge({ app: target.action.app, folder: target.folder, id: target.id, part, label: target.action.key }));
  return outcomes;
}

/** Overwrite Server Version: over the version the held push was told about (a push checked as any save, when none stands). */
export async function overwriteServer(s: Picked, arg?: unknown): Promise<void> {
  const target = await partsOf(s, arg);
  if (!target) return;
  for (const part of target.parts) await s.deploy.overwrite(target.folder, part);
}

/** The status bar item of a held push, clicked: Compare, Merge or Overwrite, in a quick pick. */
export async function resolveConflict(s: Picked, folder?: unknown, kind?: unknown): Promise<string | undefined> {
  if (typeof folder !== 'string' || (kind !== 'code' && kind !== 'metadata')) return undefined;
  const part: VersionedResource = kind === 'code' ? 'implementation' : 'metadata';
  const conflict = s.deploy.standingConflict(vscode.Uri.parse(folder), part);
  if (!conflict) {
    void vscode.window.showInformationMessage('No push is held any more: a later push went through.');
    return undefined;
  }
  const file = localFileOf(conflict.folder, part);
  const picked = await vscode.window.showQuickPick(
    [
      { label: COMPARE, detail: "The server's version beside yours, in the diff editor" },
      { label: MERGE, detail: 'Both changes into your editor (not pushed until you save by hand)' },
      { label: OVERWRITE, detail: 'Your file replaces the version the server holds now' },
    ],
    { placeHolder: `${conflict.label} changed on the server: what now?` },
  );
  if (picked?.label === COMPARE) await s.deploy.compare(conflict.app, conflict.folder, conflict.id, part, conflict.label);
  if (picked?.label === MERGE) await mergeWithServer(s, file);
  if (picked?.label === OVERWRITE) await overwriteServer(s, file);
  return picked?.label;
}

/** The status bar item of a file held from auto-save, clicked: its choices, in a quick pick. */
export async function heldSaveChoices(s: { readonly deploy: DeployFeature }, folder?: unknown, kind?: unknown): Promise<string | undefined> {
  if (typeof folder !== 'string' || (kind !== 'code' && kind !== 'metadata')) return undefined;
  const file = localFileOf(vscode.Uri.parse(folder), kind === 'code' ? 'implementation' : 'metadata');
  const choices = s.deploy.heldChoices(file);
  if (choices.length === 0) return undefined;
  const details: Record<string, string> = {
    [TAKE_INTO_EDITOR]: 'The version the server runs now replaces the editor text (undoable)',
    [COMPARE]: "The server's version beside yours, in the diff editor",
    [PUSH_NOW]: 'Push the file as it is now, as a save by hand does',
  };
  const picked = await vscode.window.showQuickPick(
    choices.map((label) => ({ label, detail: details[label] })),
    { placeHolder: `${basename(file)} is not pushed by auto-save: what now?` },
  );
  if (picked) await s.deploy.heldChoice(file, picked.label);
  return picked?.label;
}

/** The status bar item of a save by hand refused on errors, clicked: its notification's choices, in a quick pick. */
export async function refusedSaveChoices(s: { readonly deploy: DeployFeature }, file?: unknown): Promise<string | undefined> {
  if (typeof file !== 'string') return undefined;
  const uri = vscode.Uri.parse(file);
  const picked = await vscode.window.showQuickPick(
    [
      { label: 'Show Problems', detail: 'The errors that kept it from being pushed' },
      { label: 'Push Anyway', detail: 'Push the file as it is now, errors and all' },
    ],
    { placeHolder: `${basename(uri)} was not pushed: it has errors` },
  );
  if (picked?.label === 'Push Anyway') await s.deploy.pushAnyway(uri);
  if (picked?.label === 'Show Problems') await vscode.commands.executeCommand('workbench.actions.view.problems');
  return picked?.label;
}

function basename(uri: vscode.Uri): string {
  return uri.path.slice(uri.path.lastIndexOf('/') + 1);
}

/**
 * Pull, from a diff of Compare with Server: the action of the file compared, pulled as Pull Action
 * does (it asks before it replaces a local file that differs, and records the new base).
 */
export async function pullFromDiff(s: Parameters<typeof pullAction>[0], arg?: unknown): Promise<void> {
  const local = localSideOf(arg);
  await pullAction(s, local);
}

/** The local file of a comparison: the argument when it is one, the diff's right side when it is the server's text. */
function localSideOf(arg: unknown): vscode.Uri | undefined {
  const input = vscode.window.tabGroups.activeTabGroup.activeTab?.input;
  const modified = input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
  if (arg instanceof vscode.Uri) return arg.scheme === PULLED_SCHEME ? modified : arg;
  return modified;
}
