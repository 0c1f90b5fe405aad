/**
 * The deploy pipeline: for each action of the workspace (and each the server lists), what to send, in
 * which order (create, metadata, code), against which base, and what came of it. No `vscode`, no file
 * system: the caller reads the workspace and the lock, hands them in, renders the outcomes and records
 * the new bases (docs/cli.md, *Deploy*).
 */
import { type Capabilities, type CustomActionsClient, type ListedAction } from '../client';
import { type ActionMetadata } from '../schema/metadata';
import { type BaseVersion, codeHash, metadataHash, NO_CODE } from './base';
import { decideByBase, type HeldReason, type Part } from './decide';
import { pushPart } from './pushPart';
import { type LockedAction } from './lock';
import { type ActionOutcome, type FileProblem, type ServerVersionInfo, type Step, type StepOutcome } from './outcome';

/** The client operations a deploy uses. */
export type DeployClient = Pick<
  CustomActionsClient,
  'capabilities' | 'createAction' | 'updateAction' | 'putImplementation' | 'deleteAction' | 'getActionVersioned' | 'getImplementationVersioned' | 'listVersions'
>;

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
}

export interface DeployOptions {
  /** Replace what the server holds even when it changed since the base (or there is no base). */
  readonly force: boolean;
  /** Decide and read, write nothing. */
  readonly dryRun: boolean;
  /** Delete the actions the base knows that the workspace no longer has. */
  readonly delete: boolean;
  /**
   * Where the code disagrees with the metadata (`codeProblems` of ./checks); called only for actions
   * with something to send. A promise when the checks run elsewhere (the command line's check thread).
   */
  readonly checkCode: (action: WorkspaceAction & { readonly metadata: ActionMetadata }) => readonly FileProblem[] | Promise<readonly FileProblem[]>;
  readonly signal?: AbortSignal;
}

/** Deploys one action of one application's client; never throws for the server's answers, which become outcomes. */
export async function deployAction(client: DeployClient, target: DeployTarget, options: DeployOptions): Promise<ActionOutcome> {
  const run = new ActionRun(client, target, options);
  try {
    await run.go();
  } catch (error) {
    run.failed(run.current, error);
  }
  return run.outcome();
}

class ActionRun {
  readonly steps: StepOutcome[] = [];
  current: Step = 'action';
  private id: string | undefined;
  private base: LockedAction | undefined;
  private baseChanged = false;
  private removed = false;
  private caps: Capabilities | undefined;

  constructor(
    private readonly client: DeployClient,
    private readonly target: DeployTarget,
    private readonly options: DeployOptions,
  ) {
    this.id = target.listed?.id;
    // A base of another id names an action that is gone: one with the same key was made since.
    this.base = target.base && (target.listed === undefined || target.base.id === target.listed.id) ? target.base : undefined;
  }

  async go(): Promise<void> {
    const { local, listed } = this.target;
    if (!local) return this.onlyOnServer();
    if (!local.metadata) {
      this.steps.push({ kind: 'refused', step: 'metadata', problems: local.metadataProblems.map((p) => ({ ...p, file: local.metadataFile })) });
      return;
    }
    const action = { ...local, metadata: local.metadata };
    const metadataHashHere = metadataHash(local.metadata);
    const codeHashHere = local.code === undefined ? undefined : codeHash(local.code);
    const metadataByBase = listed ? decideByBase(metadataHashHere, this.base?.metadata) : undefined;
    const codeByBase = listed && codeHashHere !== undefined ? decideByBase(codeHashHere, this.base?.implementation) : undefined;
    const nothingToSend = listed !== undefined && metadataByBase !== undefined && (codeHashHere === undefined || codeByBase !== undefined);
    if (nothingToSend) {
      this.steps.push({ kind: 'unchanged', step: 'metadata' });
      if (codeHashHere !== undefined) this.steps.push({ kind: 'unchanged', step: 'implementation' });
      return;
    }
    // Something goes out: the code must agree with the metadata it goes with, as a save's must.
    const problems = local.code === undefined ? [] : await this.options.checkCode(action);
    if (problems.length > 0) {
      this.steps.push({ kind: 'refused', step: 'implementation', problems });
      return;
    }
    if (!listed) {
      if (!(await this.create(action))) return;
    } else if (!(await this.part('metadata', metadataHashHere, metadataByBase, () => JSON.stringify(action.metadata)))) {
      if (codeHashHere !== undefined) this.steps.push({ kind: 'skipped', step: 'implementation', because: 'metadata' });
      return;
    }
    if (local.code !== undefined && codeHashHere !== undefined)
      await this.part('implementation', codeHashHere, listed ? codeByBase : undefined, () => local.code!);
  }

  private async onlyOnServer(): Promise<void> {
    const listed = this.target.listed!;
    if (!this.options.delete || !this.base) {
      this.steps.push({ kind: 'only-on-server', step: 'action' });
      return;
    }
    // The base knows it: this repository deployed or pulled it, and its folder is gone since.
    this.current = 'action';
    if (!this.options.dryRun) await this.client.deleteAction(listed.id, this.signal());
    this.removed = true;
    this.steps.push({ kind: 'pushed', step: 'action', op: 'delete', checked: false });
  }

  /** Creates the action with its metadata; its code follows as a first write. */
  private async create(action: WorkspaceAction & { metadata: ActionMetadata }): Promise<boolean> {
    this.current = 'action';
    if (this.target.base && !this.options.force) {
      // The base names an action this repository deployed, and the server no longer lists it.
      this.steps.push({ kind: 'held', step: 'action', why: 'deleted-on-server' });
      return false;
    }
    if (this.options.dryRun) {
      this.steps.push({ kind: 'pushed', step: 'action', op: 'create', checked: false });
      this.base = undefined;
      return true;
    }
    const created = await this.client.createAction(this.target.application, action.metadata, this.signal());
    this.id = created.id;
    this.record({ id: created.id, metadata: { etag: created.etag, hash: metadataHash(action.metadata) }, implementation: NO_CODE }, true);
    this.steps.push({ kind: 'pushed', step: 'action', op: 'create', checked: false });
    return true;
  }

  /**
   * One part, decided and sent: by the base alone when it says unchanged; else by `pushPart`, the rule
   * the editor's saves share. True when the part is as the workspace has it on the server afterwards
   * (or would be, in a dry run).
   */
  private async part(part: Part, hash: string, byBase: { kind: 'unchanged' } | undefined, content: () => string): Promise<boolean> {
    this.current = part;
    if (byBase) {
      this.steps.push({ kind: 'unchanged', step: part });
      return true;
    }
    if (this.id === undefined) {
      // A dry run of an action it would create: its code would be its first.
      this.steps.push({ kind: 'pushed', step: part, op: 'update', checked: false });
      return true;
    }
    const { outcome, base } = await pushPart(this.client, {
      id: this.id,
      part,
      content: content(),
      hash,
      base: this.base?.[part],
      force: this.options.force,
      dryRun: this.options.dryRun,
      caps: await this.capabilities(),
      ...this.signal(),
    });
    if (base) this.record({ [part]: base }, false);
    if (outcome.kind === 'held') return this.held(part, outcome.why, outcome.server.etag);
    this.steps.push(outcome);
    return true;
  }

  private async held(part: Part, why: HeldReason, etag?: string): Promise<false> {
    this.steps.push({ kind: 'held', step: part, why, server: await this.versionInfo(part, etag) });
    return false;
  }

  /** Names the server's version of a held part: its number, time and writer, where the server keeps versions. */
  private async versionInfo(part: Part, etag: string | undefined): Promise<ServerVersionInfo> {
    const caps = await this.capabilities();
    if (!caps.versions || !this.id) return etag ? { etag } : {};
    try {
      const versions = (await this.client.listVersions(this.id, this.signal())).filter((v) => v.kind === part);
      const v =
        (etag ? versions.find((x) => x.etag === etag) : undefined) ??
        versions.reduce<(typeof versions)[number] | undefined>((a, b) => (!a || b.version > a.version ? b : a), undefined);
      if (!v) return etag ? { etag } : {};
      return { etag: v.etag ?? etag, version: v.version, ...(v.createdAt ? { at: v.createdAt } : {}), ...(v.client ? { by: v.client } : {}) };
    } catch {
      return etag ? { etag } : {};
    }
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
    this.steps.push({ kind: 'failed', step, error, message: error instanceof Error ? error.message : String(error) });
  }

  private signal(): { signal?: AbortSignal } {
    return this.options.signal ? { signal: this.options.signal } : {};
  }

  outcome(): ActionOutcome {
    return {
      application: this.target.application,
      key: this.target.key,
      id: this.id,
      steps: this.steps,
      base: this.options.dryRun ? undefined : this.removed ? null : this.baseChanged ? this.base : undefined,
      dryRun: this.options.dryRun,
    };
  }
}

/** The targets of an application: its workspace actions and the server's list, matched by key, in key order. */
export function deployTargets(
  application: string,
  local: readonly WorkspaceAction[],
  listed: readonly ListedAction[],
  baseOf: (key: string) => LockedAction | undefined,
): DeployTarget[] {
  const keys = new Set([...local.map((a) => a.key), ...listed.map((a) => a.key)]);
  return [...keys].sort().map((key) => ({
    application,
    key,
    local: local.find((a) => a.key === key),
    listed: listed.find((a) => a.key === key),
    base: baseOf(key),
  }));
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

export type { BaseVersion };
