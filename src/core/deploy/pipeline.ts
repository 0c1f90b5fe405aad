/**
 * A deploy's plan carried out (./plan.ts): for each action, in order (create, metadata, code), what
 * goes against which base, and what came of it as outcomes (./outcome.ts). No `vscode`, no file
 * system: the caller reads the workspace and the lock, plans, hands the plans in, renders the outcomes
 * and records the new bases (docs/cli.md, *Deploy*). Each part goes by ./pushPart.ts, the road a save
 * in the editor takes too.
 */
import { type Capabilities, type CustomActionsClient } from '../client';
import { type ActionMetadata } from '../schema/metadata';
import { createdBase } from './base';
import { type Part } from './decide';
import { type LockedAction } from './lock';
import { type ActionOutcome, failedOutcome, type FileProblem, type Outcome, type Step } from './outcome';
import { type ActionPlan, folderOfAction, type PartPlan, type WorkspaceAction } from './plan';
import { type PartResult, pushPart } from './pushPart';

export { type DeployTarget, deployTargets, type WorkspaceAction } from './plan';

/** The client operations a deploy uses. */
export type DeployClient = Pick<
  CustomActionsClient,
  'capabilities' | 'createAction' | 'updateAction' | 'putImplementation' | 'deleteAction' | 'getActionVersioned' | 'getImplementationVersioned' | 'listVersions'
>;

export interface DeployOptions {
  /** Replace what the server holds even when it changed since the base (or there is no base). */
  readonly force: boolean;
  /** Decide and read, write nothing. */
  readonly dryRun: boolean;
  /** Where the code disagrees with the metadata (`codeProblems` of ./checks); asked only of a plan that checks. */
  readonly checkCode: (action: WorkspaceAction & { readonly metadata: ActionMetadata }) => readonly FileProblem[] | Promise<readonly FileProblem[]>;
  readonly signal?: AbortSignal;
}

/** Carries out one action's plan with its application's client; never throws: the server's answers become outcomes. */
export async function deployAction(client: DeployClient, plan: ActionPlan, options: DeployOptions): Promise<ActionOutcome> {
  const run = new ActionRun(client, plan, options);
  try {
    await run.go();
  } catch (error) {
    run.failed(run.current, error);
  }
  return run.outcome();
}

class ActionRun {
  readonly steps: Outcome[] = [];
  current: Step = 'action';
  private id: string | undefined;
  private base: LockedAction | undefined;
  private baseChanged = false;
  private removed = false;
  private caps: Capabilities | undefined;

  constructor(
    private readonly client: DeployClient,
    private readonly plan: ActionPlan,
    private readonly options: DeployOptions,
  ) {
    this.id = plan.id;
    const { target } = plan;
    this.base = target.base && (target.listed === undefined || target.base.id === target.listed.id) ? target.base : undefined;
  }

  async go(): Promise<void> {
    const { plan } = this;
    switch (plan.kind) {
      case 'refuse':
        this.steps.push(plan.refused!);
        return;
      case 'only-on-server':
        this.steps.push({ kind: 'only-on-server', step: 'action' });
        return;
      case 'delete':
        // The base knows it: this repository deployed or pulled it, and its folder is gone since.
        if (!this.options.dryRun) await this.client.deleteAction(plan.id!, this.signal());
        this.removed = true;
        this.steps.push({ kind: 'pushed', step: 'action', op: 'delete', checked: false });
        return;
      case 'held-deleted':
        this.steps.push({ kind: 'held', step: 'action', why: 'deleted-on-server', server: {} });
        return;
      default:
    }
    const local = plan.target.local!;
    const action = { ...local, metadata: local.metadata! };
    const content = (part: PartPlan) => (part.part === 'metadata' ? JSON.stringify(action.metadata) : local.code!);
    const parts = [plan.metadata!, ...(plan.implementation ? [plan.implementation] : [])];
    // A part equal to its base is confirmed: the server is asked whether it still holds the base. Asked
    // at once, beside the checks, and answered before anything of the action is sent.
    const confirming = plan.kind === 'create' ? [] : parts.filter((p) => !p.sends).map((p) => this.part(p, () => content(p)));
    // Something goes out: the code must agree with the metadata it goes with, as a save's must.
    if (plan.check) {
      const problems = await this.options.checkCode(action);
      if (problems.length > 0) {
        await Promise.all(confirming);
        const why = problems.every((p) => p.code === 'missing-main') ? 'no-main' : 'problems';
        this.steps.push({ kind: 'refused', step: 'implementation', why, problems });
        return;
      }
    }
    const confirmed = (await Promise.all(confirming)).map((done) => this.take(done));
    if (confirmed.includes(false)) {
      // The server moved since the base: nothing of this action goes, and what would have is said.
      for (const p of parts) if (p.sends) this.steps.push({ kind: 'skipped', step: p.part, because: parts.find((q) => !q.sends)!.part });
      return;
    }
    if (plan.kind === 'create' && !(await this.create(action.metadata))) return;
    // A create sends the metadata itself; its code follows as its first write.
    for (const p of plan.kind === 'create' ? parts.filter((q) => q.part === 'implementation') : parts) {
      if (!p.sends) continue;
      if (this.take(await this.part(p, () => content(p)))) continue;
      // Held: its code waits for its metadata, and is said to.
      if (p.part === 'metadata' && plan.implementation && this.steps.at(-1)?.kind === 'held')
        this.steps.push({ kind: 'skipped', step: 'implementation', because: 'metadata' });
      return;
    }
  }

  /** Creates the action with its metadata; its code follows as a first write. */
  private async create(metadata: ActionMetadata): Promise<boolean> {
    this.current = 'action';
    if (this.options.dryRun) {
      this.steps.push({ kind: 'pushed', step: 'action', op: 'create', checked: false });
      this.base = undefined;
      return true;
    }
    const created = await this.client.createAction(this.plan.target.application, metadata, this.signal());
    this.id = created.id;
    this.record({ id: created.id, ...createdBase(created.etag, metadata) }, true);
    this.steps.push({ kind: 'pushed', step: 'action', op: 'create', checked: false });
    return true;
  }

  /**
   * One part sent (or confirmed) against its base by `pushPart`, the rule the editor's saves share. For
   * an action this run creates, the base is what the create recorded.
   */
  private async part(plan: PartPlan, content: () => string): Promise<{ part: Part; result: PartResult } | { part: Part; outcome: Outcome }> {
    const { part } = plan;
    this.current = part;
    if (this.id === undefined) {
      // A dry run of an action it would create: its code would be its first.
      return { part, outcome: { kind: 'pushed', step: part, op: 'update', checked: false } };
    }
    try {
      const result = await pushPart(this.client, {
        id: this.id,
        part,
        content: content(),
        hash: plan.hash,
        base: this.base?.[part],
        // What the list said holds only of the base the part was planned against, not of one a create recorded.
        ...(this.base?.[part] === plan.base && plan.listedEtag !== undefined ? { listedEtag: plan.listedEtag } : {}),
        force: this.options.force,
        dryRun: this.options.dryRun,
        caps: await this.capabilities(),
        ...this.signal(),
      });
      return { part, result };
    } catch (error) {
      return { part, outcome: failedOutcome(part, error) };
    }
  }

  /** Records what a part came to; true when it is as the workspace has it on the server afterwards (or would be). */
  private take(done: { part: Part; result: PartResult } | { part: Part; outcome: Outcome }): boolean {
    const outcome = 'result' in done ? done.result.outcome : done.outcome;
    if ('result' in done && done.result.base) this.record({ [done.part]: done.result.base }, false);
    this.steps.push(outcome);
    return outcome.kind === 'pushed' || outcome.kind === 'unchanged';
  }

  private async capabilities(): Promise<Capabilities> {
    return (this.caps ??= await this.client.capabilities(this.signal()));
  }

  private record(entry: Partial<LockedAction> & { id?: string }, replace: boolean): void {
    const id = entry.id ?? this.id;
    if (!id) return;
    const base: LockedAction = replace ? { ...entry, id } : { ...this.base, ...entry, id };
    this.base = base;
    this.baseChanged = true;
  }

  failed(step: Step, error: unknown): void {
    this.steps.push(failedOutcome(step, error));
  }

  private signal(): { signal?: AbortSignal } {
    return this.options.signal ? { signal: this.options.signal } : {};
  }

  outcome(): ActionOutcome {
    const { target } = this.plan;
    // The lock names the folder, so a key changed in it later still finds this action (./renamed.ts).
    const folder = target.local && folderOfAction(target.local);
    const base = this.baseChanged && this.base ? { ...this.base, ...(folder ? { folder } : {}) } : undefined;
    return {
      application: target.application,
      key: target.key,
      id: this.id,
      steps: this.steps,
      base: this.options.dryRun ? undefined : this.removed ? null : base,
      dryRun: this.options.dryRun,
    };
  }
}

/** Runs `work` over `items` with at most `limit` at once, results in the items' order. */
export async function mapLimited<T, R>(items: readonly T[], limit: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < items.length; i = next++) results[i] = await work(items[i]!, i);
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  return results;
}
