/**
 * What a pull writes into an action's folder, and whether it may (docs/workspace.md, *Pull*): the one
 * planner of a pull (`planPull`, and `pullFolder` for where it writes), which the command line's pull
 * and the extension's Pull both carry out and render.
 */
import { type ActionMetadata } from '../schema/metadata';
import { formatProblem, validateMetadata } from '../schema/validate';
import { generateTypes } from '../typegen';
import { ACTION_FILE, GENERATED_FILE, MAIN_FILE } from '../workspace/files';
import { actionFolderForServerKey, checkServerKey, directChildPath } from '../workspace/actionFolder';
import { parseActionYaml } from '../workspace/actionYaml';
import { sharedKeyPullReason } from '../workspace/layout';
import { serializeActionYaml, updateActionYaml } from '../workspace/actionYamlEdit';
import { newActionTemplate } from '../workspace/template';
import { baseAfter, type BaseVersion, codeHash, type DeployBase, metadataFields, metadataHash, NO_CODE } from './base';
import { type Part } from './decide';

export interface PulledFile {
  readonly name: string;
  readonly text: string;
  /** action.generated.ts: always the server's, never a local change to keep. */
  readonly generated: boolean;
}

/**
 * The server's resource as metadata: valid, and about the action the list named. The reason of a
 * refusal holds server text: show it through serverText.
 */
export function serverMetadata(resource: object, listedKey: string): { ok: true; metadata: ActionMetadata } | { ok: false; reason: string } {
  const checked = validateMetadata(metadataFields(resource));
  if (!checked.ok) return { ok: false, reason: `the server's metadata is not valid here: ${checked.problems.map(formatProblem).join('; ')}` };
  if (checked.value.key !== listedKey || !checkServerKey(checked.value.key).ok)
    return { ok: false, reason: `the server lists the action as "${listedKey}" but its metadata names the key "${checked.value.key}"` };
  return { ok: true, metadata: checked.value };
}

/**
 * What a pulled copy is derived from: the metadata as read (with its tag), and the code as read, or
 * `NO_CODE` when the server has none; no code side when the server offers no read of code (read and
 * found missing is not the same as never read).
 */
export function pulledBase(
  resource: object,
  etag: string | undefined,
  implementation: { readonly code: string | undefined; readonly etag: string | undefined } | undefined,
): DeployBase & { readonly metadata: BaseVersion } {
  const metadata: BaseVersion = baseAfter({ kind: 'pulled', server: { etag, hash: metadataHash(resource) } })!;
  if (implementation === undefined) return { metadata };
  return {
    metadata,
    implementation:
      implementation.code === undefined ? NO_CODE : baseAfter({ kind: 'pulled', server: { etag: implementation.etag, hash: codeHash(implementation.code) } })!,
  };
}

/**
 * What the folder will hold: action.yaml with the server's value (written into the local file when
 * there is one, so its comments and layout stay where values agree), the generated types, and main.ts
 * with the server's code, or the template when the server has none and there is no main.ts.
 */
export function pulledFiles(metadata: ActionMetadata, code: string | undefined, localYaml: string | undefined, localMain: string | undefined): PulledFile[] {
  return [
    { name: ACTION_FILE, text: localYaml === undefined ? serializeActionYaml(metadata) : updateActionYaml(localYaml, metadata), generated: false },
    { name: GENERATED_FILE, text: generateTypes(metadata), generated: true },
    { name: MAIN_FILE, text: code ?? localMain ?? newActionTemplate(metadata), generated: false },
  ];
}

/** The file of an action's folder that holds each part. */
export const PART_FILE: Readonly<Record<Part, string>> = { metadata: ACTION_FILE, implementation: MAIN_FILE };

/**
 * The parts whose local file holds a change a pull would lose: it differs from what the server has,
 * and from the base (the version this copy was derived from), or there is no base to tell. An
 * action.yaml that is not valid metadata counts as changed: its text is someone's work.
 */
export function localChanges(
  local: { readonly yaml: string | undefined; readonly main: string | undefined },
  server: { readonly metadata: ActionMetadata; readonly code: string | undefined },
  base: { readonly metadata?: BaseVersion; readonly implementation?: BaseVersion } | undefined,
): Part[] {
  const changed: Part[] = [];
  if (local.yaml !== undefined) {
    const parsed = parseActionYaml(local.yaml).metadata;
    const hash = parsed ? metadataHash(parsed) : undefined;
    if (hash !== metadataHash(server.metadata) && (hash === undefined || hash !== base?.metadata?.hash)) changed.push('metadata');
  }
  if (local.main !== undefined && server.code !== undefined) {
    const hash = codeHash(local.main);
    if (hash !== codeHash(server.code) && hash !== base?.implementation?.hash) changed.push('implementation');
  }
  return changed;
}

/**
 * The folder a pull writes into ('/'-separated paths): the action's local folder when it has one,
 * else the folder its server key names; either way a direct child of the application's folder after
 * normalisation, and a server key that is not a valid key names nothing. `sharedBy`: the action.yaml
 * files of the folders that declare the key (any case, `sharedKeys`) when there are several; a pull then
 * writes nowhere.
 */
export function pullFolder(
  applicationFolder: string,
  serverKey: unknown,
  localFolder: string | undefined,
  sharedBy: readonly string[] = [],
): { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string } {
  const key = checkServerKey(serverKey);
  if (!key.ok) return key;
  if (sharedBy.length > 1) return { ok: false, reason: sharedKeyPullReason(key.key, sharedBy) };
  if (localFolder === undefined) return actionFolderForServerKey(applicationFolder, key.key);
  const name = localFolder.split('/').pop() ?? '';
  return directChildPath(applicationFolder, name) === localFolder
    ? { ok: true, path: localFolder }
    : { ok: false, reason: "its folder is not directly inside the application's folder" };
}

/**
 * What becomes of one file: `same`, it holds the server's text already (not written); `write`, new,
 * or nobody's work is lost (it is at its base); `replace`, it holds a local change the pull loses.
 */
export type PullFileStep = 'same' | 'write' | 'replace';

export interface PlannedPullFile extends PulledFile {
  readonly step: PullFileStep;
}

/** What a pull would read from the server and find in the folder, for one action. */
export interface PullInput {
  /** The key the server's list names the action by. */
  readonly listedKey: string;
  /** The server's action as read, with its version tag. */
  readonly resource: object;
  readonly etag: string | undefined;
  /** The server's code as read (code undefined: it has none); undefined when the server offers no read of code. */
  readonly implementation: { readonly code: string | undefined; readonly etag: string | undefined } | undefined;
  /** What the folder holds now, by file name (undefined: absent). */
  readonly onDisk: { readonly [name: string]: string | undefined };
  /** The base the local copy was derived from (the lock's, for this action id), if any. */
  readonly base: DeployBase | undefined;
}

/**
 * A pull of one action, planned: `refused` (the server's metadata is not valid here, or names another
 * key; `reason` holds server text), `unchanged` (the folder holds the server's version already),
 * `write` (files to write, no local work lost) or `conflict` (local changes the pull would lose,
 * `changed`: the command line refuses them without --force, the editor asks). Every kind but
 * `refused` carries the files and the base a carried-out pull records.
 */
export type PullPlan =
  | { readonly kind: 'refused'; readonly reason: string }
  | {
      readonly kind: 'unchanged' | 'write' | 'conflict';
      readonly metadata: ActionMetadata;
      readonly files: readonly PlannedPullFile[];
      readonly changed: readonly Part[];
      readonly base: DeployBase & { readonly metadata: BaseVersion };
    };

export function planPull(input: PullInput): PullPlan {
  const checked = serverMetadata(input.resource, input.listedKey);
  if (!checked.ok) return { kind: 'refused', reason: checked.reason };
  const yaml = input.onDisk[ACTION_FILE];
  const main = input.onDisk[MAIN_FILE];
  const code = input.implementation?.code;
  const changed = localChanges({ yaml, main }, { metadata: checked.metadata, code }, input.base);
  const files = pulledFiles(checked.metadata, code, yaml, main).map((f): PlannedPullFile => {
    const now = input.onDisk[f.name];
    const step: PullFileStep = now === f.text ? 'same' : changed.some((part) => PART_FILE[part] === f.name) ? 'replace' : 'write';
    return { ...f, step };
  });
  const kind = changed.length > 0 ? 'conflict' : files.every((f) => f.step === 'same') ? 'unchanged' : 'write';
  return { kind, metadata: checked.metadata, files, changed, base: pulledBase(input.resource, input.etag, input.implementation) };
}
