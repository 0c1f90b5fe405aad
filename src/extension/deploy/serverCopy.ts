import type * as vscode from 'vscode';
import { type VersionedResource } from '../../core/client';
import { codeHash, metadataFields, metadataHash } from '../../core/deploy/base';
import { serializeActionYaml, updateActionYaml } from '../../core/workspace';
import { type Application } from '../project';
import { type Parts } from '../parts';
import { actionYamlOf, currentText, mainOf } from './locate';

/** What the server holds of one part of an action now, as the text of the local file it corresponds to. */
export interface ServerCopy {
  /** main.ts's text, or action.yaml's written over the local file so its layout and comments stay. */
  readonly text: string;
  readonly etag: string | undefined;
  readonly hash: string;
}

export function localFileOf(folder: vscode.Uri, part: VersionedResource): vscode.Uri {
  return part === 'implementation' ? mainOf(folder) : actionYamlOf(folder);
}

/**
 * The server's current code or metadata of action `id`, as file text. Undefined when the server holds
 * no code, or cannot return it (no GET of the code or the action).
 */
export async function readServerCopy(
  s: Pick<Parts, 'connections'>,
  app: Application,
  folder: vscode.Uri,
  id: string,
  part: VersionedResource,
): Promise<ServerCopy | undefined> {
  return s.connections.call(app, async (client) => {
    const capabilities = await client.capabilities();
    if (part === 'implementation') {
      if (!capabilities.getImplementation) return undefined;
      const { code, etag } = await client.getImplementationVersioned(id);
      return code === undefined ? undefined : { text: code, etag, hash: codeHash(code) };
    }
    if (!capabilities.getAction) return undefined;
    const { action, etag } = await client.getActionVersioned(id);
    return { text: await metadataText(folder, metadataFields(action)), etag, hash: metadataHash(action) };
  });
}

/**
 * The content of the kept version the local copy was derived from (the one tagged `etag`), as file
 * text with the hash of the content the server returned, when the server keeps versions and still has
 * it; else undefined. Nothing here trusts it: Merge compares the hash with the base's (trustedBase).
 */
export async function readBaseCopy(
  s: Pick<Parts, 'connections'>,
  app: Application,
  folder: vscode.Uri,
  id: string,
  part: VersionedResource,
  etag: string | undefined,
): Promise<{ text: string; hash: string } | undefined> {
  if (etag === undefined) return undefined;
  return s.connections.call(app, async (client) => {
    if (!(await client.capabilities()).versions) return undefined;
    const entry = (await client.listVersions(id)).find((v) => v.kind === part && v.etag === etag);
    if (!entry) return undefined;
    const content = await client.getVersion(id, part, entry.version);
    return content.kind === 'implementation'
      ? { text: content.code, hash: codeHash(content.code) }
      : { text: await metadataText(folder, content.metadata), hash: metadataHash(content.metadata) };
  });
}

/** Metadata as action.yaml text: written into the local file where there is one, so only values differ. */
export async function metadataText(folder: vscode.Uri, metadata: Record<string, unknown>): Promise<string> {
  const local = await currentText(actionYamlOf(folder));
  return local === undefined ? serializeActionYaml(metadata) : updateActionYaml(local, metadata);
}
