/**
 * How one action of the workspace stands against the server: present on which side, and for its
 * metadata and code whether they are the same, changed here, changed on the server since the base,
 * changed on both, or different with no base to tell (docs/cli.md, *status*).
 */
import { type Capabilities } from '../client';
import { codeHash, metadataHash } from './base';
import { partStatus, type PartStatus, type ServerPart } from './decide';
import { type FileProblem } from './outcome';
import { type DeployClient, type DeployTarget } from './pipeline';

export type Presence = 'both' | 'only-here' | 'only-on-server' | 'deleted-on-server';

export interface ActionStatus {
  readonly application: string;
  readonly key: string;
  readonly id: string | undefined;
  readonly presence: Presence;
  /** For an action on both sides; `unknown` where the server offers no read of the part. */
  readonly metadata?: PartStatus;
  readonly implementation?: PartStatus;
  /** action.yaml is not valid metadata: nothing of it can be compared or deployed. */
  readonly problems?: readonly FileProblem[];
}

export function inStep(status: ActionStatus): boolean {
  return status.presence === 'both' && status.problems === undefined && status.metadata === 'same' && status.implementation === 'same';
}

export async function actionStatus(
  client: Pick<DeployClient, 'getActionVersioned' | 'getImplementationVersioned'>,
  caps: Capabilities,
  target: DeployTarget,
  signal?: AbortSignal,
): Promise<ActionStatus> {
  const { local, listed } = target;
  const base = target.base && listed && target.base.id === listed.id ? target.base : undefined;
  const head = { application: target.application, key: target.key, id: listed?.id };
  const problems = local && !local.metadata ? { problems: local.metadataProblems.map((p) => ({ ...p, file: local.metadataFile })) } : {};
  if (!listed) return { ...head, presence: local && target.base ? 'deleted-on-server' : 'only-here', ...problems };
  if (!local) return { ...head, presence: 'only-on-server' };
  const o = signal ? { signal } : {};
  const [metadata, code] = await Promise.all([
    caps.getAction ? client.getActionVersioned(listed.id, o).then((r): ServerPart => ({ hash: metadataHash(r.action), etag: r.etag })) : undefined,
    caps.getImplementation
      ? client
          .getImplementationVersioned(listed.id, o)
          .then((r): ServerPart => (r.code === undefined ? { absent: true } : { hash: codeHash(r.code), etag: r.etag }))
      : undefined,
  ]);
  return {
    ...head,
    presence: 'both',
    metadata: local.metadata ? partStatus(metadataHash(local.metadata), base?.metadata, metadata) : 'unknown',
    implementation: partStatus(local.code === undefined ? undefined : codeHash(local.code), base?.implementation, code),
    ...problems,
  };
}
