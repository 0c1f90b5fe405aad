/**
 * How one action of the workspace stands against the server: present on which side, and for its
 * metadata and code whether they are the same, changed here, changed on the server since the base,
 * changed on both, or different with no base to tell (docs/cli.md, *status*).
 */
import { type Capabilities } from '../client';
import { codeHash, metadataHash } from './base';
import { metadataText, partDiffs, serverLabels, workspaceTexts } from './contentDiff';
import { listedAtBase, type Part, partStatus, type PartStatus, type ServerPart } from './decide';
import { type FileProblem } from './outcome';
import { type DeployClient, type DeployTarget } from './pipeline';
import { sharedKeyRefusal } from './plan';

export type Presence = 'both' | 'only-here' | 'only-on-server' | 'deleted-on-server';

export interface ActionStatus {
  readonly application: string;
  readonly key: string;
  readonly id: string | undefined;
  readonly presence: Presence;
  /** For an action on both sides; `unknown` where the server offers no read of the part. */
  readonly metadata?: PartStatus;
  readonly implementation?: PartStatus;
  /** action.yaml is not valid metadata, or its key is another folder's too: nothing of it can be compared or deployed. */
  readonly problems?: readonly FileProblem[];
  /** The action.yaml files of every folder declaring this key, when there are several (`DeployTarget.sharedBy`). */
  readonly sharedBy?: readonly string[];
  /** The key the server lists the action under, when the key was changed in its folder (`DeployTarget.renamedFrom`). */
  readonly renamedFrom?: string;
  /**
   * Asked for (`diff: true`): per part that differs, the unified diff from the server's text to the
   * workspace's (contentDiff.ts), what a deploy would send over it.
   */
  readonly diff?: { readonly [P in Part]?: readonly string[] };
}

export function inStep(status: ActionStatus): boolean {
  return status.presence === 'both' && status.problems === undefined && status.metadata === 'same' && status.implementation === 'same';
}

export async function actionStatus(
  client: Pick<DeployClient, 'getActionVersioned' | 'getImplementationVersioned'>,
  caps: Capabilities,
  target: DeployTarget,
  signal?: AbortSignal,
  options: { readonly diff?: boolean } = {},
): Promise<ActionStatus> {
  const { local, listed } = target;
  const base = target.base && listed && target.base.id === listed.id ? target.base : undefined;
  const head = {
    application: target.application,
    key: target.key,
    id: listed?.id,
    ...(target.renamedFrom !== undefined ? { renamedFrom: target.renamedFrom } : {}),
  };
  const problems = target.sharedBy
    ? { problems: sharedKeyRefusal(target.key, target.sharedBy).problems, sharedBy: target.sharedBy }
    : local && !local.metadata
      ? { problems: local.metadataProblems.map((p) => ({ ...p, file: local.metadataFile })) }
      : {};
  // Which folder the server's action is would be a guess: nothing is compared.
  if (target.sharedBy) return { ...head, presence: listed ? 'both' : 'only-here', ...problems };
  if (!listed) {
    const presence = local && target.base ? 'deleted-on-server' : 'only-here';
    const diff = options.diff && presence === 'only-here' ? creationDiff(target) : undefined;
    return { ...head, presence, ...problems, ...(diff ? { diff } : {}) };
  }
  if (!local) return { ...head, presence: 'only-on-server' };
  const o = signal ? { signal } : {};
  const localHash = { metadata: local.metadata && metadataHash(local.metadata), implementation: local.code === undefined ? undefined : codeHash(local.code) };
  // A part the list names under its base's tag is the base's, unread, unless its text is wanted for a diff.
  const known = (part: Part) => {
    const server = listedAtBase(base?.[part], listed.etags?.[part]);
    return server && (!options.diff || ('hash' in server && server.hash === localHash[part])) ? { part: server, text: undefined } : undefined;
  };
  const [metadata, code] = await Promise.all([
    known('metadata') ??
      (caps.getAction
        ? client.getActionVersioned(listed.id, o).then((r) => ({ part: { hash: metadataHash(r.action), etag: r.etag } as ServerPart, text: r.action }))
        : undefined),
    known('implementation') ??
      (caps.getImplementation
        ? client
            .getImplementationVersioned(listed.id, o)
            .then((r) => ({ part: (r.code === undefined ? { absent: true } : { hash: codeHash(r.code), etag: r.etag }) as ServerPart, text: r.code }))
        : undefined),
  ]);
  const status = {
    ...head,
    presence: 'both' as const,
    metadata: localHash.metadata !== undefined ? partStatus(localHash.metadata, base?.metadata, metadata?.part) : ('unknown' as const),
    implementation: partStatus(localHash.implementation, base?.implementation, code?.part),
    ...problems,
  };
  if (!options.diff) return status;
  // Only what was read and differs: a part the server offers no read of has no diff to show.
  const parts = (['metadata', 'implementation'] as const).filter(
    (p) => status[p] !== 'same' && status[p] !== 'unknown' && (p === 'metadata' ? metadata : code) !== undefined,
  );
  const server = { metadata: metadata?.text && metadataText(metadata.text), implementation: code?.text };
  const diffs = partDiffs(parts, server, workspaceTexts(local), serverLabels(local));
  return diffs.length > 0 ? { ...status, diff: Object.fromEntries(diffs.map((d) => [d.part, d.lines])) } : status;
}

/** A status's diff, for an action only here: the whole of its files, as a deploy would create it. */
export function creationDiff(target: DeployTarget): ActionStatus['diff'] {
  const { local } = target;
  if (!local) return undefined;
  const diffs = partDiffs(['metadata', 'implementation'], {}, workspaceTexts(local), serverLabels(local));
  return diffs.length > 0 ? Object.fromEntries(diffs.map((d) => [d.part, d.lines])) : undefined;
}
