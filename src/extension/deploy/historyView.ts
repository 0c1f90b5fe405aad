import * as vscode from 'vscode';
import { type VersionedResource, type VersionEntry } from '../../core/client';
import { versionRows } from '../../core/deploy/versionRows';
import { formatWhen } from '../../core/events';
import { serverText } from '../../core/text';
import { ACTION_FILE, MAIN_FILE } from '../../core/workspace';
import { isNode, pickAction } from '../commands/commands';
import { type ActionEntry } from '../model';
import { serverOf } from '../project';
import { type DeployFeature } from './index';
import { type Parts } from '../parts';
import { type HistoryItem, type VersionNode } from '../tree/nodes';

export { type HistoryItem } from '../tree/nodes';
import { replaceDocumentText } from '../files';
import { localFileOf, metadataText } from './serverCopy';
import { type PushResult } from './partRecord';

export const REDEPLOY = 'Redeploy This Version';
export const RESTORE = 'Restore to Editor';

/** What listing an action's versions reads: the local history through deploy's door, and the server's kept versions. */
type ListParts = Pick<Parts, 'connections' | 'log' | 'project'> & { readonly deploy: DeployFeature };
/** What opening a version uses: the diff's left side, and deploy's door for Redeploy. */
type OpenParts = Pick<Parts, 'serverVersions'> & { readonly deploy: DeployFeature };

interface Located {
  readonly action: ActionEntry & { readonly local: NonNullable<ActionEntry['local']>; readonly remote: NonNullable<ActionEntry['remote']> };
  readonly parts: readonly VersionedResource[];
}

/**
 * Deploy History…: the versions of an action's code and metadata, newest first (pushed from this
 * machine, and the server's kept versions where it keeps them); the one picked opens in a diff with
 * the current file, and can be redeployed or restored into the editor.
 */
export async function deployHistory(
  s: ListParts & OpenParts & Pick<Parts, 'model'>,
  arg?: unknown,
): Promise<{ item: HistoryItem; choice: string | undefined } | undefined> {
  const located = await locate(s, arg);
  if (!located) return undefined;
  const items = await historyItems(s, located);
  if (items.length === 0) {
    void vscode.window.showInformationMessage(`No deploy of ${located.action.key} is known yet: every push from now on is kept.`);
    return undefined;
  }
  const item = await vscode.window.showQuickPick(items, {
    placeHolder: `Deploy history of ${located.action.key}: pick a version to compare with your file`,
    matchOnDescription: true,
  });
  if (!item) return undefined;
  return openHistoryItem(s, located, item);
}

/** The History row of an action in the tree: both parts' versions, newest first (none for an action not both here and there). */
export function treeHistory(s: ListParts, action: ActionEntry): Promise<HistoryItem[]> {
  return action.local && action.remote
    ? historyItems(s, { action: { ...action, local: action.local, remote: action.remote }, parts: ['implementation', 'metadata'] })
    : Promise.resolve([]);
}

/** A version row clicked in the tree: its diff with the file, then Redeploy or Restore. */
export async function openHistoryVersion(s: OpenParts, node?: unknown): Promise<{ item: HistoryItem; choice: string | undefined } | undefined> {
  if (!isVersionNode(node)) return undefined;
  const action = node.parent.parent;
  if (!action.local || !action.remote) return undefined;
  return openHistoryItem(s, { action: { ...action, local: action.local, remote: action.remote }, parts: [node.item.part] }, node.item);
}

function isVersionNode(node: unknown): node is VersionNode {
  return isNode(node) && node.kind === 'version';
}

async function locate(s: Pick<Parts, 'model' | 'project'>, arg: unknown): Promise<Located | undefined> {
  const action = await pickAction(s, arg, (a) => a.local !== undefined && a.remote !== undefined);
  if (!action?.local || !action.remote) return undefined;
  const file = arg instanceof vscode.Uri ? arg : undefined;
  const parts: VersionedResource[] = file ? [file.path.endsWith(`/${ACTION_FILE}`) ? 'metadata' : 'implementation'] : ['implementation', 'metadata'];
  return { action: { ...action, local: action.local, remote: action.remote }, parts };
}

/**
 * The versions of the parts, newest first: the local history's (of this server and application only)
 * and, where the server keeps them, its own. A push from here is one row: the server's version it
 * made (the same tag) adds its number and writer to the local entry's row instead of a row of its own.
 */
export async function historyItems(s: ListParts, { action, parts }: Located): Promise<HistoryItem[]> {
  const { app } = action;
  const id = action.remote.id;
  const server = serverOf(s.project.currentOf(app));
  const entries = server === undefined ? [] : (await s.deploy.actionHistory({ server, appId: app.id }, id)).filter((e) => parts.includes(e.part));
  const versions = await s.connections
    .call(app, async (client) => {
      if (!(await client.capabilities()).versions) return [];
      return (await client.listVersions(id)).filter((v) => parts.includes(v.kind));
    })
    .catch((error: unknown) => {
      s.log.warn(`The server's versions of ${action.key} could not be read: ${String(error)}`);
      return [];
    });
  // One row per version, newest first, by the rule the command line's history shares (core versionRows).
  return versionRows(entries, versions, parts).map((row): HistoryItem => {
    const { entry: e, version: v } = row;
    if (e) {
      const kept = v ? ` · ${serverVersion(v)}` : '';
      return {
        source: 'local',
        part: e.part,
        time: e.time,
        label: `$(history) ${when(e.time)}`,
        description: `${nameOf(e.part)} · pushed from this machine to ${serverText(e.target, 120)}${kept}`,
        row: { label: nameOf(e.part), description: `${when(e.time)} · pushed from here${kept}` },
        detail: `${size(e.content)}${e.checked ? '' : ' · not checked for changes by others'}`,
        content: () => Promise.resolve(e.content),
      };
    }
    const version = v!;
    return {
      source: 'server',
      part: version.kind,
      time: version.createdAt,
      label: `$(cloud) ${version.createdAt ? when(version.createdAt) : `version ${serverText(String(version.version), 20)}`}`,
      description: `${nameOf(version.kind)} · ${serverVersion(version)}`,
      row: { label: nameOf(version.kind), description: `${version.createdAt ? `${when(version.createdAt)} · ` : ''}${serverVersion(version)}` },
      detail: version.size === undefined ? undefined : `${serverText(String(version.size), 20)} bytes`,
      content: async () => {
        const content = await s.connections.call(app, (client) => client.getVersion(id, version.kind, version.version));
        return content.kind === 'implementation' ? content.code : JSON.stringify(content.metadata);
      },
    };
  });
}

/** "server version N by W": the server's number and writer, as text. */
function serverVersion(v: VersionEntry): string {
  return `server version ${serverText(String(v.version), 20)}${v.client ? ` by ${serverText(v.client, 80)}` : ''}`;
}

/** The version ↔ the current file in the diff editor, then Redeploy This Version or Restore to Editor. */
export async function openHistoryItem(s: OpenParts, { action }: Located, item: HistoryItem): Promise<{ item: HistoryItem; choice: string | undefined }> {
  const folder = action.local.folder;
  const file = localFileOf(folder, item.part);
  const content = await item.content();
  const text = await asFileText(folder, item.part, content);
  const left = s.serverVersions.hold(file.path, text);
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    file,
    `${nameOf(item.part)} of ${action.key}: ${item.time ? when(item.time) : 'kept version'} ↔ Local`,
    {
      preview: false,
    },
  );
  const choice = await vscode.window.showInformationMessage(
    `The ${nameOf(item.part)} of ${action.key} as deployed ${item.time ? when(item.time) : ''} is on the left. Redeploy it to the server, or restore it into your editor without pushing?`,
    REDEPLOY,
    RESTORE,
  );
  if (choice === REDEPLOY) await redeploy(s, action, item.part, content);
  if (choice === RESTORE) await restore(file, text);
  return { item, choice };
}

/** Redeploy This Version: through the same queue and conflict check as a save. */
export async function redeploy(
  s: { readonly deploy: DeployFeature },
  action: Located['action'],
  part: VersionedResource,
  content: string,
): Promise<PushResult> {
  return s.deploy.redeploy(action.app, action.local.folder, action.remote.id, action.key, part, content);
}

/** Restore to Editor: the version's text in place of the file's, as an undoable edit; nothing is saved or pushed. */
export async function restore(file: vscode.Uri, text: string): Promise<boolean> {
  const done = await replaceDocumentText(file, text);
  await vscode.window.showTextDocument(file, { preview: false });
  return done;
}

async function asFileText(folder: vscode.Uri, part: VersionedResource, content: string): Promise<string> {
  if (part === 'implementation') return content;
  try {
    return await metadataText(folder, JSON.parse(content) as Record<string, unknown>);
  } catch {
    // Not JSON (a server's odd version): shown as it is.
    return content;
  }
}

function nameOf(part: VersionedResource): string {
  return part === 'implementation' ? MAIN_FILE : ACTION_FILE;
}

/** A time from here or from the server: one that is not a date is shown as the server's text it is. */
function when(iso: string): string {
  const ms = new Date(iso).getTime();
  return Number.isNaN(ms) ? serverText(iso, 40) : formatWhen(ms, false);
}

function size(text: string): string {
  const bytes = new TextEncoder().encode(text).length;
  return bytes < 1024 ? `${bytes} bytes` : `${(bytes / 1024).toFixed(1)} KB`;
}
