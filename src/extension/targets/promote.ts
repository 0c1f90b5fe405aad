import * as vscode from 'vscode';
import { ApiError, createClient, type ListedAction } from '../../core/client';
import { DeployLock, LOCK_FILE } from '../../core/deploy/lock';
import { type ActionOutcome, settled } from '../../core/deploy/outcome';
import {
  carryOutPromote,
  planPromote,
  type PromoteClient,
  promoteDiff,
  promotedSummary,
  type PromotePair,
  type PromotePlan,
  promoteProblem,
  promoteSummary,
  promoteVerdictOf,
} from '../../core/deploy/promote';
import { LOCAL_SANDBOX } from '../../core/schema';
import { serverText } from '../../core/text';
import { applicationsOn, projectTargets, type ProjectTarget } from '../../core/workspace';
import { NAMES_TARGETS, pickValidProject } from '../commands/commands';
import { deployCodeChecks } from '../deploy/commands';
import { normalizeBaseUrl } from '../keyStore';
import { askCheckedKey } from '../connections';
import { type HeldTexts } from '../heldTexts';
import { type Parts } from '../parts';
import { type Project } from '../project';

/** What Promote may be handed instead of asking (a test, a link): the targets by name, and the actions by key. */
export interface PromoteArguments {
  readonly from?: string;
  readonly to?: string;
  readonly actions?: readonly string[];
}

/** What came of a Promote: its plan's verdict, and the outcomes when it was carried out. */
export interface PromoteResult {
  readonly verdict: PromotePlan['verdict'] | 'declined';
  readonly planned: readonly ActionOutcome[];
  readonly outcomes?: readonly ActionOutcome[];
}

type PromoteParts = Pick<Parts, 'project' | 'keys' | 'sandbox' | 'trust' | 'log' | 'context' | 'config' | 'plans'>;

/**
 * Promote (docs/environments.md, *Promote*): what one target's server runs goes to another, planned,
 * shown and judged by the core as `custom-actions promote` does (src/core/deploy/promote.ts). The plan
 * and its diff open in an editor; a held or refused action writes nothing and is named; otherwise a
 * modal asks (always: a promote writes a shared server, and a protected one says so), then the plan is
 * carried out and the destination's bases go into customactions.lock.json.
 */
export async function promote(s: PromoteParts, arg?: unknown): Promise<PromoteResult | undefined> {
  const given = isArguments(arg) ? arg : {};
  // A project's row, or the active editor's file, decides which project; else the pick of those with targets.
  const project = await pickValidProject(s, isArguments(arg) ? undefined : arg, 'Promote in which project', NAMES_TARGETS);
  if (!project) return undefined;
  const targets = projectTargets(project.file);
  const from = await chooseTarget(targets, given.from, 'Promote from: the target whose server holds what goes', project.target.target.name);
  if (!from) return undefined;
  const to = await chooseTarget(
    targets.filter((t) => t.name !== from.name),
    given.to,
    `Promote from ${serverText(from.name, 80)} to`,
  );
  if (!to) return undefined;
  const apps = applicationsOn(to, project.file.applications).map((dst) => ({
    dst,
    src: applicationsOn(from, project.file.applications).find((a) => a.projectId === dst.projectId)!,
  }));
  const problem = promoteProblem(
    from,
    to,
    apps.map(({ src, dst }) => ({ source: src, destination: dst })),
  );
  if (problem) throw new Error(problem);
  s.trust.require('Promoting between targets');
  // One at a time: a missing key is asked for, and two password boxes cannot be open at once.
  const pairs: PromotePair[] = [];
  for (const { src, dst } of apps)
    pairs.push({
      projectId: dst.projectId,
      source: { id: src.id, client: await clientOn(s, project, from, src.id) },
      destination: { id: dst.id, client: await clientOn(s, project, to, dst.id) },
    });
  const lockUri = vscode.Uri.joinPath(project.root, LOCK_FILE);
  const lock = await readLock(lockUri);
  const request = {
    from,
    to,
    pairs,
    select: (listings: readonly { readonly pair: PromotePair; readonly listed: readonly ListedAction[] }[]) => selectActions(listings, given.actions, from),
    baseOf: (appId: string, key: string) => lock.get(to.baseUrl, appId, key),
    lockedOf: (side: 'source' | 'destination', appId: string) => lock.entries(side === 'source' ? from.baseUrl : to.baseUrl, appId),
    concurrency: 8,
    checkCode: deployCodeChecks(s).problemsOf,
  };
  const plan = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `Planning the promote from ${serverText(from.name, 80)} to ${serverText(to.name, 80)}…` },
    () => planPromote(request),
  );
  if (!plan) return undefined;
  const planned = plan.items.map((i) => i.planned);
  await showPlan(s.plans, plan);
  const summary = promoteSummary(plan);
  s.log.info(`Promote: ${summary}`);
  if (plan.verdict !== 'ready') {
    const say = plan.verdict === 'held' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
    void say(serverText(`${summary}${plan.verdict === 'held' ? ` Held: ${names(plan.blocked)}.` : ''}`, 1000));
    return { verdict: plan.verdict, planned };
  }
  const go = `Promote to ${to.name}`;
  const sure = await vscode.window.showWarningMessage(
    serverText(summary, 600),
    { modal: true, detail: serverText(`${names(plan.sending)}. The plan and its diff are open in the editor.`, 1000) },
    go,
  );
  if (sure !== go) return { verdict: 'declined', planned };
  const outcomes = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Promoting to ${serverText(to.name, 80)}…` }, () =>
    carryOutPromote(plan),
  );
  // The destination's new bases, as the command line records them (a record for another target's server).
  const now = await readLock(lockUri);
  const after = now.withAll(
    to.baseUrl,
    outcomes.flatMap((o) => (o.base === undefined ? [] : [{ applicationId: o.application, key: o.key, entry: o.base }])),
  );
  if (after.serialize() !== now.serialize()) await vscode.workspace.fs.writeFile(lockUri, new TextEncoder().encode(after.serialize()));
  const done = promotedSummary(plan, outcomes);
  const others = outcomes.filter((o) => !settled(o));
  s.log.info(`Promote: ${done}`);
  const tell = others.length > 0 ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
  void tell(serverText(others.length > 0 ? `${done} Not promoted: ${describe(others)}.` : done, 1000));
  return { verdict: 'ready', planned, outcomes };
}

function isArguments(arg: unknown): arg is PromoteArguments {
  return typeof arg === 'object' && arg !== null && !('kind' in arg) && ('from' in arg || 'to' in arg || 'actions' in arg);
}

async function chooseTarget(targets: readonly ProjectTarget[], name: string | undefined, title: string, first?: string): Promise<ProjectTarget | undefined> {
  if (name !== undefined) {
    const found = targets.find((t) => t.name === name);
    if (!found)
      throw new Error(`customactions.yaml has no target ${serverText(name, 80)} to promote with (its targets: ${targets.map((t) => t.name).join(', ')}).`);
    return found;
  }
  const ordered = first ? [...targets.filter((t) => t.name === first), ...targets.filter((t) => t.name !== first)] : targets;
  const picked = await vscode.window.showQuickPick(
    ordered.map((target) => ({
      label: `${serverText(target.name, 80)}${target.protected ? ' $(lock)' : ''}`,
      description: serverText(`${target.baseUrl === LOCAL_SANDBOX ? 'the local sandbox' : target.baseUrl}${target.protected ? ' · protected' : ''}`, 200),
      target,
    })),
    { title: 'Custom Actions: Promote', placeHolder: title },
  );
  return picked?.target;
}

/** The actions named, or the user's pick of the source's (all picked to begin with). */
async function selectActions(
  listings: readonly { readonly pair: PromotePair; readonly listed: readonly ListedAction[] }[],
  named: readonly string[] | undefined,
  from: ProjectTarget,
): Promise<ListedAction[][]> {
  if (named) return listings.map(({ listed }) => listed.filter((l) => named.includes(l.key)));
  const all = listings.flatMap(({ pair, listed }) => listed.map((l) => ({ pair, l })));
  if (all.length === 0) return listings.map(() => []);
  const picked = await vscode.window.showQuickPick(
    all.map(({ pair, l }) => ({ label: serverText(l.key, 120), description: serverText(`${pair.source.id} on ${from.name}`, 200), picked: true, l })),
    { title: 'Custom Actions: Promote', placeHolder: 'The actions that go', canPickMany: true },
  );
  if (!picked) throw new ApiError({ kind: 'cancelled', operation: 'listActions' });
  const chosen = new Set(picked.map((p) => p.l));
  return listings.map(({ listed }) => listed.filter((l) => chosen.has(l)));
}

/** A client of `target`'s server for application `id` there, with the key kept for that server. */
async function clientOn(s: PromoteParts, project: Project, target: ProjectTarget, id: string): Promise<PromoteClient> {
  const sandbox = target.baseUrl === LOCAL_SANDBOX;
  const logical = sandbox ? LOCAL_SANDBOX : normalizeBaseUrl(target.baseUrl);
  const actual = sandbox ? await sandboxFor(s, project, target) : logical;
  const timeoutMs = s.config().requestTimeoutMs;
  if (!(await s.keys.has(logical, id))) {
    // Asked here, as Sign In asks, rather than sending the user to switch targets and back.
    const where = `${serverText(id, 120)} on target ${serverText(target.name, 80)}`;
    const key = await askCheckedKey({
      title: `Key for ${where}`,
      label: where,
      check: (key) =>
        createClient({ baseUrl: actual, getKey: () => Promise.resolve(key), timeoutMs, retries: 0 })
          .listActions(id)
          .then(() => undefined),
    });
    if (key === undefined) throw new ApiError({ kind: 'cancelled', operation: 'listActions' });
    await s.keys.set(logical, id, key);
  }
  return createClient({ baseUrl: actual, getKey: () => s.keys.get(logical, id), timeoutMs });
}

/**
 * The running sandbox's URL, with the target's applications in it. The one sandbox serves every
 * project that names it: a start for this target keeps their applications too, as a request of theirs
 * would keep this target's, or each would restart it without the other's (and the URL a client of the
 * promote holds would go with it).
 */
async function sandboxFor(s: PromoteParts, project: Project, target: ProjectTarget): Promise<string> {
  const wanted = applicationsOn(target, project.file.applications).map((a) => ({ id: a.id, label: a.name ?? a.id }));
  const { applications, demo } = await s.project.sandboxApplications({ applications: wanted, demo: project.demo });
  return s.sandbox.ensure(applications, demo);
}

async function readLock(uri: vscode.Uri): Promise<DeployLock> {
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri));
  } catch {
    return DeployLock.empty();
  }
  const parsed = DeployLock.parse(text);
  if ('problem' in parsed)
    throw new Error(`${LOCK_FILE} is invalid: ${parsed.problem.message}. Restore it from git; it is the base a promote is checked against.`);
  return parsed.lock;
}

/** The plan and its diff in an editor: each action's verdict, and what would change at the destination. */
async function showPlan(plans: HeldTexts, plan: PromotePlan): Promise<void> {
  const { from, to } = plan.request;
  const lines = [`# Promote from ${from.name} (${from.baseUrl}) to ${to.name} (${to.baseUrl})${to.protected ? ', a protected target' : ''}`, ''];
  for (const item of plan.items) {
    lines.push(`${verdictWord(item.planned).padEnd(15)}${item.planned.application}/${item.planned.key}${reasons(item.planned)}`);
    if (promoteVerdictOf(item.planned) === 'created' || promoteVerdictOf(item.planned) === 'updated')
      for (const diff of await promoteDiff(item, to.name)) lines.push(...diff.lines.map((l) => `  ${l}`));
  }
  lines.push('', promoteSummary(plan));
  // Read-only, named by its targets (the tab's title), in the diff language by its name's extension.
  const uri = plans.hold(`/Promote ${safeName(from.name)} to ${safeName(to.name)}.diff`, lines.map((l) => serverText(l, 2000)).join('\n') + '\n');
  await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true });
}

/** A target's name as part of a tab's title: no separator of a path. */
function safeName(name: string): string {
  return serverText(name, 80).replace(/[/\\]/g, '-');
}

function verdictWord(outcome: ActionOutcome): string {
  const verdict = promoteVerdictOf(outcome);
  return outcome.dryRun && (verdict === 'created' || verdict === 'updated') ? `would-${verdict.replace(/d$/, '')}` : verdict;
}

/** Why an action does not go as the source runs it: each held or refused part, and its server version. */
function reasons(outcome: ActionOutcome): string {
  const why = outcome.steps.flatMap((step) => {
    const part = step.step === 'implementation' ? 'code' : step.step;
    if (step.kind === 'held')
      return [
        `${part} ${step.why === 'no-base' ? 'is there without a base of this repository' : step.why === 'deleted-on-server' ? 'was deleted there since the base' : 'changed there since the base'}${step.server.version !== undefined ? ` (version ${step.server.version}${step.server.by ? ` by ${step.server.by}` : ''})` : ''}`,
      ];
    if (step.kind === 'refused') return [`${part} refused: ${step.problems.map((p) => p.message).join('; ') || step.why}`];
    if (step.kind === 'failed') return [`${part}: ${step.message}`];
    return [];
  });
  return why.length > 0 ? `  ${why.join('; ')}` : '';
}

function names(outcomes: readonly ActionOutcome[]): string {
  return outcomes.map((o) => `${o.application}/${o.key}`).join(', ');
}

function describe(outcomes: readonly ActionOutcome[]): string {
  return outcomes.map((o) => `${o.application}/${o.key} ${promoteVerdictOf(o)}${reasons(o)}`).join('; ');
}
