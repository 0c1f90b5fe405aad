/**
 * Promote (docs/environments.md): what a source target's server runs, its metadata and code, sent to
 * a destination target as a deploy sends the workspace, never the working copy. The source's actions
 * are read into the shape of a workspace's (`WorkspaceAction`) and handed to the deploy pipeline
 * (./pipeline.ts) against the destination's base from the lock, so a change made at the destination
 * since its base holds the promote exactly as it holds a deploy. The command line's `promote` and the
 * editor's Promote both plan, show and carry out through here, so they give the same verdicts.
 */
import { type CustomActionsClient, type ListedAction, sameServer } from '../client';
import { count, serverText } from '../text';
import { type PartDiff, partDiffs, readServerTexts, workspaceTexts } from './contentDiff';
import { type LockedAction, type LockEntry } from './lock';
import { type ActionOutcome, settled, verdictOf, type Verdict } from './outcome';
import { deployAction, deployTargets, type DeployClient, type DeployOptions, type DeployTarget, mapLimited, type WorkspaceAction } from './pipeline';
import { FILE_START, planAction } from './plan';
import { serverMetadata } from './pull';
import { lockedFolder } from './renamed';

/** The client operations reading one action of the source. */
export type PromoteSourceClient = Pick<CustomActionsClient, 'getActionVersioned' | 'getImplementationVersioned'>;

/** The client operations a promote uses on either side. */
export type PromoteClient = DeployClient & Pick<CustomActionsClient, 'listActions'>;

/**
 * One action of the source as the destination's deploy takes it: its metadata checked as a pull checks
 * a server's (invalid metadata is refused, never sent), its code as the source holds it. `where` names
 * the source in the files a problem is told against (`staging:billing/greet/action.yaml`), in the
 * folder the source's lock entry names (`folder`, else its key): a key changed in its folder and
 * deployed to the source goes to the destination's action of that folder (./renamed.ts).
 */
export async function sourceAction(
  client: PromoteSourceClient,
  listed: ListedAction,
  where: string,
  signal?: AbortSignal,
  folder: string = listed.key,
): Promise<WorkspaceAction> {
  const o = signal ? { signal } : {};
  const [{ action }, { code }] = await Promise.all([client.getActionVersioned(listed.id, o), client.getImplementationVersioned(listed.id, o)]);
  const checked = serverMetadata(action, listed.key);
  return {
    key: listed.key,
    metadataFile: `${where}/${folder}/action.yaml`,
    codeFile: `${where}/${folder}/main.ts`,
    metadata: checked.ok ? checked.metadata : undefined,
    metadataProblems: checked.ok ? [] : [{ range: FILE_START, message: serverText(checked.reason, 400) }],
    code,
  };
}

/** A target as promote names it. */
export interface PromoteEnd {
  readonly name: string;
  readonly baseUrl: string;
  readonly protected: boolean;
}

/** One application on both targets: its id on each (`projectId`, the file's), with a client for each side. */
export interface PromotePair {
  readonly projectId: string;
  readonly source: { readonly id: string; readonly client: PromoteClient };
  readonly destination: { readonly id: string; readonly client: PromoteClient };
}

export interface PromoteRequest {
  readonly from: PromoteEnd;
  readonly to: PromoteEnd;
  readonly pairs: readonly PromotePair[];
  /**
   * The source's actions that go, of each pair's list (the actions named, or every one), in the order
   * of `listings`: given every application's list at once, so names can be matched across them.
   */
  readonly select: (
    listings: readonly { readonly pair: PromotePair; readonly listed: readonly ListedAction[] }[],
  ) => readonly (readonly ListedAction[])[] | Promise<readonly (readonly ListedAction[])[]>;
  /** The destination's base of an action in the lock, by its application id there and key. */
  readonly baseOf: (destinationId: string, key: string) => LockedAction | undefined;
  /**
   * The lock's entries of an application on either side, by its id there: the folder each action was
   * deployed from, so a key changed in its folder renames the destination's action as a deploy would.
   */
  readonly lockedOf?: (side: 'source' | 'destination', applicationId: string) => readonly LockEntry[];
  readonly concurrency: number;
  /** The code checks of a deploy (`CodeChecks` of ./checks): what a deploy refuses, a promote refuses. */
  readonly checkCode: DeployOptions['checkCode'];
  readonly signal?: AbortSignal;
}

/** One action of the plan: the deploy target at the destination, its client, and what the plan found. */
export interface PromoteItem {
  readonly target: DeployTarget;
  readonly client: PromoteClient;
  readonly planned: ActionOutcome;
}

/**
 * What a promote would do: `empty` (the source runs no action chosen), `held` (an action cannot go as
 * the source runs it: nothing may be written), `nothing` (the destination runs it all already), `ready`.
 */
export type PromoteVerdict = 'empty' | 'held' | 'nothing' | 'ready';

export interface PromotePlan {
  readonly request: PromoteRequest;
  readonly items: readonly PromoteItem[];
  /** Actions that would not be as the source runs them after the promote: held, refused, failed. */
  readonly blocked: readonly ActionOutcome[];
  /** Actions that would be created or updated at the destination. */
  readonly sending: readonly ActionOutcome[];
  readonly verdict: PromoteVerdict;
}

/** Why two targets cannot be promoted between (the same target, the same application on the same server), or undefined. */
export function promoteProblem(
  from: PromoteEnd,
  to: PromoteEnd,
  pairs: readonly { readonly source: { readonly id: string }; readonly destination: { readonly id: string } }[],
): string | undefined {
  if (from.name === to.name) return 'The source and the destination are the same target.';
  for (const { source, destination } of pairs)
    if (sameServer(from.baseUrl, to.baseUrl) && source.id === destination.id)
      return `Targets ${from.name} and ${to.name} are the same application ${destination.id} on the same server: nothing to promote.`;
  return undefined;
}

/** Whether an outcome creates or updates the action at the destination. */
export function sends(outcome: ActionOutcome): boolean {
  const verdict = promoteVerdictOf(outcome);
  return verdict === 'created' || verdict === 'updated';
}

/** An action's verdict, the core's word for its steps. */
export function promoteVerdictOf(outcome: ActionOutcome): Verdict {
  return verdictOf(outcome.steps);
}

/**
 * The plan: each chosen action of the source, read from its server, goes through the deploy pipeline
 * in a dry run against the destination's base, which reads the destination where the base does not decide.
 */
export async function planPromote(request: PromoteRequest): Promise<PromotePlan> {
  const { from, pairs, concurrency, signal } = request;
  const o = signal ? { signal } : {};
  const listings = await Promise.all(
    pairs.map(async (pair) => {
      const [listed, atDestination] = await Promise.all([
        pair.source.client.listActions(pair.source.id, o),
        pair.destination.client.listActions(pair.destination.id, o),
      ]);
      return { pair, listed, atDestination };
    }),
  );
  const selected = await request.select(listings);
  const work: { target: DeployTarget; client: PromoteClient }[] = [];
  for (const [i, { pair, atDestination }] of listings.entries()) {
    const { source, destination } = pair;
    const folders = new Map((request.lockedOf?.('source', source.id) ?? []).map((e) => [e.id, lockedFolder(e)]));
    const actions = await mapLimited(selected[i] ?? [], concurrency, (l) =>
      sourceAction(source.client, l, `${from.name}:${source.id}`, signal, folders.get(l.id)),
    );
    const targets = deployTargets(
      destination.id,
      actions,
      atDestination,
      (key) => request.baseOf(destination.id, key),
      request.lockedOf?.('destination', destination.id),
    ).filter((t) => t.local !== undefined);
    work.push(...targets.map((target) => ({ target, client: destination.client })));
  }
  const planned = await mapLimited(work, concurrency, ({ client, target }) => deployAction(client, planOf(target), options(request, true)));
  const items = work.map((w, i) => ({ ...w, planned: planned[i]! }));
  const blocked = planned.filter((o) => !settled(o));
  const sending = planned.filter(sends);
  const verdict: PromoteVerdict = items.length === 0 ? 'empty' : blocked.length > 0 ? 'held' : sending.length === 0 ? 'nothing' : 'ready';
  return { request, items, blocked, sending, verdict };
}

/**
 * Carries a `ready` plan out: each part written against the base the plan read (the server checks it
 * again), so a change made at the destination meanwhile is held, not overwritten. The outcomes' bases
 * are the destination's lock entries.
 */
export async function carryOutPromote(plan: PromotePlan): Promise<ActionOutcome[]> {
  if (plan.verdict !== 'ready') throw new Error(`A promote whose plan is ${plan.verdict} writes nothing.`);
  return mapLimited(plan.items, plan.request.concurrency, ({ client, target }) => deployAction(client, planOf(target), options(plan.request, false)));
}

/**
 * What would change at the destination: its metadata and code as it runs them, against the source's,
 * as the unified diffs of ./contentDiff.ts (metadata as action.yaml's fields).
 */
export async function promoteDiff(item: Pick<PromoteItem, 'target' | 'client'>, to: string, signal?: AbortSignal): Promise<PartDiff[]> {
  const { target, client } = item;
  const local = target.local;
  if (!local) return [];
  const name = `${target.application}/${target.key}`;
  const parts = ['metadata', 'implementation'] as const;
  const server = target.listed ? await readServerTexts(client, { getAction: true, getImplementation: true }, target.listed.id, parts, signal) : {};
  // Each side under its own target's application id: the source's files are named where sourceAction read them.
  const before = (file: string) => `${to}:${name}/${file}`;
  return partDiffs(parts, server, workspaceTexts(local), {
    metadata: { before: before('action.yaml'), after: local.metadataFile },
    implementation: { before: before('main.ts'), after: local.codeFile },
  });
}

/** The sentence that ends a plan that will not be carried out, or asks for a confirmation: the same words in both faces. */
export function promoteSummary(plan: PromotePlan, dryRun = false): string {
  const { from, to } = plan.request;
  switch (plan.verdict) {
    case 'empty':
      return `Target ${from.name} runs no action to promote.`;
    case 'held':
      return (
        `Promote held, nothing written: ${count(plan.blocked.length, 'action')} cannot go as ${from.name} runs ${plan.blocked.length === 1 ? 'it' : 'them'} (named above).` +
        (plan.blocked.some((o) => promoteVerdictOf(o) === 'held')
          ? ` A held action changed on ${to.name} since its base: take that change into ${from.name} first, or deploy it to ${to.name} on purpose.`
          : '')
      );
    case 'nothing':
      return `Nothing to promote: ${to.name} runs what ${from.name} runs.`;
    case 'ready':
      return dryRun
        ? `Dry run, nothing written: ${count(plan.sending.length, 'action')} would go from ${from.name} to ${to.name}.`
        : `${count(plan.sending.length, 'action')} of ${from.name} will be written to ${to.name} (${to.baseUrl})${to.protected ? ', a protected target' : ''}.`;
  }
}

/** The sentence after a promote was carried out. */
export function promotedSummary(plan: PromotePlan, outcomes: readonly ActionOutcome[]): string {
  const done = outcomes.filter(sends).length;
  const others = outcomes.some((o) => !settled(o));
  return `Promoted ${count(done, 'action')} from ${plan.request.from.name} to ${plan.request.to.name}${others ? '; the others are named above' : ''}.`;
}

function planOf(target: DeployTarget) {
  return planAction(target, { force: false, delete: false });
}

function options(request: PromoteRequest, dryRun: boolean): DeployOptions {
  return { force: false, dryRun, checkCode: request.checkCode, ...(request.signal ? { signal: request.signal } : {}) };
}
