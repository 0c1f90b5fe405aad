import * as vscode from 'vscode';
import { type VersionedResource } from '../../core/client';
import { ACTION_FILE } from '../../core/workspace';
import { pickAction } from '../commands/pick';
import { pullAction } from '../pull';
import { PULLED_SCHEME } from '../heldTexts';
import { type Services } from '../services';
import { deployHistory, openHistoryVersion } from './historyView';

/** Safe deploy's commands (docs/deploy.md, *Changes on the server*). */
export const DEPLOY_COMMANDS = {
  'customActions.compareWithServer': compareWithServer,
  'customActions.pullFromDiff': pullFromDiff,
  'customActions.deployHistory': deployHistory,
  'customActions.openHistoryVersion': openHistoryVersion,
} satisfies Record<string, (s: Services, ...args: never[]) => unknown>;

/**
 * Compare with Server: the action's code and metadata as the server holds them now ↔ the local files,
 * in VS Code's diff editor. From action.yaml only its metadata, from main.ts only its code.
 */
export async function compareWithServer(s: Services, arg?: unknown): Promise<readonly VersionedResource[]> {
  const action = await pickAction(s, arg, (a) => a.local !== undefined && a.remote !== undefined);
  if (!action?.local || !action.remote) return [];
  const file = arg instanceof vscode.Uri ? arg : undefined;
  const parts: VersionedResource[] = file ? [file.path.endsWith(`/${ACTION_FILE}`) ? 'metadata' : 'implementation'] : ['metadata', 'implementation'];
  const shown: VersionedResource[] = [];
  for (const part of parts) {
    if (await s.deploy.deployer.conflicts.compare(action.app, action.local.folder, action.remote.id, part, action.key)) shown.push(part);
  }
  return shown;
}

/**
 * Pull, from a diff of Compare with Server: the action of the file compared, pulled as Pull Action
 * does (it asks before it replaces a local file that differs, and records the new base).
 */
export async function pullFromDiff(s: Services, arg?: unknown): Promise<void> {
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
