/**
 * What a pull writes into an action's folder, and whether it may: the rules of the extension's Pull
 * (docs/workspace.md, *Pull*) as pure functions, for the command line now and the extension as it
 * adopts them.
 */
import { type ActionMetadata } from '../schema/metadata';
import { formatProblem, validateMetadata } from '../schema/validate';
import { generateTypes } from '../typegen';
import { ACTION_FILE, GENERATED_FILE, MAIN_FILE } from '../workspace/files';
import { checkServerKey } from '../workspace/actionFolder';
import { parseActionYaml, serializeActionYaml, updateActionYaml } from '../workspace/actionYaml';
import { newActionTemplate } from '../workspace/template';
import { type BaseVersion, codeHash, type DeployBase, metadataFields, metadataHash, NO_CODE } from './base';
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
  const metadata: BaseVersion = { etag, hash: metadataHash(resource) };
  if (implementation === undefined) return { metadata };
  return { metadata, implementation: implementation.code === undefined ? NO_CODE : { etag: implementation.etag, hash: codeHash(implementation.code) } };
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
