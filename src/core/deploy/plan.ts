/**
 * The plan of a deploy, before anything is sent: per action, what goes (create, metadata, code, a
 * delete), to which server's action, against which base, and whether its code is checked first. The
 * command line's `deploy` carries it out (./pipeline.ts), `--dry-run` prints it with what the server
 * says, and a save in the editor is the plan of one action's part (./savePush.ts). The checks and the
 * compiler's load follow the plan: only actions that send code are checked, and a plan that sends none
 * never loads the compiler.
 */
import { type Range } from '../analysis/types';
import { type ListedAction } from '../client';
import { type ActionMetadata } from '../schema/metadata';
import { type BaseVersion, codeHash, metadataHash } from './base';
import { type Part } from './decide';
import { type LockedAction, type LockEntry } from './lock';
import { renamedActions } from './renamed';
import { sharedKeyMessage, sharedKeys } from '../workspace/layout';
import { conflictMarkerProblems } from './markers';
import { type FileProblem, type Outcome } from './outcome';

/** One action folder of the workspace, as read. */
export interface WorkspaceAction {
  readonly key: string;
  /** action.yaml, relative to the project's folder ('/'-separated), for problems. */
  readonly metadataFile: string;
  readonly codeFile: string;
  /** Present only when action.yaml is valid metadata. */
  readonly metadata: ActionMetadata | undefined;
  /** action.yaml's problems, positioned. */
  readonly metadataProblems: readonly Omit<FileProblem, 'file'>[];
  /** main.ts, undefined when the folder has none. */
  readonly code: string | undefined;
}

/** One action to deploy: in the workspace, on the server (by key), or both, with its base. */
export interface DeployTarget {
  readonly application: string;
  readonly key: string;
  readonly local: WorkspaceAction | undefined;
  readonly listed: ListedAction | undefined;
  readonly base: LockedAction | undefined;
  /**
   * The action.yaml files of every folder declaring this key (any case), this one first, when there are
   * several (`sharedKeys`): none of them is deployed.
   */
  readonly sharedBy?: readonly string[];
  /** The key the server lists the action under, when the key was changed in its folder (`renamedActions`). */
  readonly renamedFrom?: string;
}

/** One part of an action in a plan: its content's hash, the base it goes against, and whether it differs from it. */
export interface PartPlan {
  readonly part: Part;
  readonly hash: string;
  readonly base: BaseVersion | undefined;
  /** The part's tag in the server's list (`ListedEtags`), when the list says: a part listed under its base's tag is unchanged unread. */
  readonly listedEtag?: string | null;
  /**
   * It differs from the base (or there is none): it is sent, conditionally. A part equal to its base is
   * only confirmed: the server is asked whether it still holds the base, and held if not.
   */
  readonly sends: boolean;
}

export type PlanKind =
  /** action.yaml is invalid, or the code holds conflict markers: nothing of it goes. */
  | 'refuse'
  /** Only here: created with its metadata, its code as the first write. */
  | 'create'
  /** On both sides, something differs from the base: sent against it. */
  | 'update'
  /** On both sides, nothing differs from the base: the server is asked whether it still holds it. */
  | 'confirm'
  /** The base names it and the server no longer lists it: held (deploy --force creates it anew). */
  | 'held-deleted'
  /** Only on the server, and this repository deployed or pulled it: deleted (deploy --delete). */
  | 'delete'
  /** Only on the server, left alone. */
  | 'only-on-server';

export interface ActionPlan {
  readonly target: DeployTarget;
  readonly kind: PlanKind;
  /** The server's id of the action, when it lists it. */
  readonly id: string | undefined;
  /** Why it is refused, for `refuse`. */
  readonly refused?: Extract<Outcome, { kind: 'refused' }>;
  readonly metadata?: PartPlan;
  readonly implementation?: PartPlan;
  /** Its code is checked against its metadata before anything of it is sent. */
  readonly check: boolean;
}

export interface PlanOptions {
  readonly force: boolean;
  readonly delete: boolean;
}

/** The plan of one action. */
export function planAction(target: DeployTarget, options: PlanOptions): ActionPlan {
  const { local, listed } = target;
  // A base of another id names an action that is gone: one with the same key was made since.
  const base = target.base && (listed === undefined || target.base.id === listed.id) ? target.base : undefined;
  const head = { target, id: listed?.id, check: false };
  if (!local) return { ...head, kind: options.delete && base ? 'delete' : 'only-on-server' };
  if (target.sharedBy) return { ...head, kind: 'refuse', refused: sharedKeyRefusal(target.key, target.sharedBy) };
  if (!local.metadata)
    return {
      ...head,
      kind: 'refuse',
      refused: {
        kind: 'refused',
        step: 'metadata',
        why: 'invalid-metadata',
        problems: local.metadataProblems.map((p) => ({ ...p, file: local.metadataFile })),
      },
    };
  if (local.code !== undefined) {
    const markers = conflictMarkerProblems(local.code, local.codeFile);
    if (markers.length > 0)
      return { ...head, kind: 'refuse', refused: { kind: 'refused', step: 'implementation', why: 'conflict-markers', problems: markers } };
  }
  const metadata = partPlan('metadata', metadataHash(local.metadata), listed ? base?.metadata : undefined, listed?.etags?.metadata);
  const implementation =
    local.code === undefined
      ? undefined
      : partPlan('implementation', codeHash(local.code), listed ? base?.implementation : undefined, listed?.etags?.implementation);
  const parts = { metadata, ...(implementation ? { implementation } : {}) };
  if (!listed) {
    if (target.base && !options.force) return { ...head, kind: 'held-deleted', ...parts };
    return { ...head, kind: 'create', ...parts, check: implementation !== undefined };
  }
  const sends = metadata.sends || implementation?.sends === true;
  return { ...head, kind: sends ? 'update' : 'confirm', ...parts, check: sends && implementation !== undefined };
}

/** The refusal of an action whose key other folders declare too: a problem at each of their action.yaml files, naming the others. */
export function sharedKeyRefusal(key: string, files: readonly string[]): Extract<Outcome, { kind: 'refused' }> {
  const problems = files.map((file) => ({
    file,
    range: FILE_START,
    message: sharedKeyMessage(
      key,
      files.filter((other) => other !== file),
    ),
  }));
  return { kind: 'refused', step: 'action', why: 'shared-key', problems };
}

/** Where a problem of a whole file is shown: its start. */
export const FILE_START: Range = { start: { line: 0, character: 0, offset: 0 }, end: { line: 0, character: 0, offset: 0 } };

function partPlan(part: Part, hash: string, base: BaseVersion | undefined, listedEtag?: string | null): PartPlan {
  return { part, hash, base, ...(listedEtag !== undefined ? { listedEtag } : {}), sends: base === undefined || base.absent === true || base.hash !== hash };
}

/** The plans of many targets, in their order. */
export function planDeploy(targets: readonly DeployTarget[], options: PlanOptions): ActionPlan[] {
  return targets.map((t) => planAction(t, options));
}

/** The workspace actions whose code a plan checks before sending, in the plan's order: what to check first. */
export function toCheck(plans: readonly ActionPlan[]): WorkspaceAction[] {
  return plans.flatMap((p) => (p.check && p.target.local ? [p.target.local] : []));
}

/**
 * The targets of an application: its workspace actions and the server's list, matched by key, or by
 * the lock's folder where the key was changed in it (`renamedActions`), in key order.
 */
export function deployTargets(
  application: string,
  local: readonly WorkspaceAction[],
  listed: readonly ListedAction[],
  baseOf: (key: string) => LockedAction | undefined,
  locked: readonly LockEntry[] = [],
): DeployTarget[] {
  // The first of each key, as a search from the start would find it; by map, so 5,000 actions cost no more than 5,000 lookups.
  const firstByKey = <T extends { readonly key: string }>(items: readonly T[]) => {
    const byKey = new Map<string, T>();
    for (const item of items) if (!byKey.has(item.key)) byKey.set(item.key, item);
    return byKey;
  };
  const locals = firstByKey(local);
  const shared = sharedKeys(local);
  const renamed = renamedActions(
    local.map((l) => ({ key: l.key, folderName: folderOfAction(l), local: l })),
    listed,
    locked,
  );
  // A renamed action is the target of its folder's new key, with its base; its old key is no target of
  // its own. A folder sharing its key with another is refused as such, renamed or not.
  const renamedTo = new Map([...renamed].filter(([l]) => !shared.has(l.local)).map(([l, r]) => [l.key, r]));
  const renamedFrom = new Set([...renamedTo.values()].map((r) => r.key));
  const listeds = firstByKey(listed.filter((r) => !renamedFrom.has(r.key)));
  return [...new Set([...locals.keys(), ...listeds.keys()])].sort().map((key) => {
    const here = locals.get(key);
    const sharedBy = here && shared.get(here)?.map((a) => a.metadataFile);
    const from = renamedTo.get(key);
    if (from) return { application, key, local: here, listed: from, base: baseOf(from.key), renamedFrom: from.key };
    return { application, key, local: here, listed: listeds.get(key), base: baseOf(key), ...(sharedBy ? { sharedBy } : {}) };
  });
}

/** The name of an action's folder in its application's folder, from its action.yaml's path. */
export function folderOfAction(action: Pick<WorkspaceAction, 'metadataFile'>): string {
  const parts = action.metadataFile.split('/');
  return parts[parts.length - 2] ?? '';
}

/** A plan as JSON, for `deploy --dry-run --json`: what goes, to which action, against which base. */
export function planJson(plan: ActionPlan): unknown {
  const part = (p: PartPlan | undefined) =>
    p && {
      sends: p.sends,
      hash: p.hash,
      base: p.base ? { etag: p.base.etag, hash: p.base.hash, ...(p.base.absent ? { absent: true } : {}) } : null,
      ...(p.listedEtag !== undefined ? { listedEtag: p.listedEtag } : {}),
    };
  return {
    application: plan.target.application,
    key: plan.target.key,
    id: plan.id,
    plan: plan.kind,
    check: plan.check,
    ...(plan.metadata ? { metadata: part(plan.metadata) } : {}),
    ...(plan.implementation ? { implementation: part(plan.implementation) } : {}),
  };
}
