import { createColors } from 'picocolors';
import { ApiError, type CustomActionsClient, type ListedAction, type NormalizedEvent, type RunInputs } from '../../core/client';
import { codeProblems } from '../../core/deploy/checks';
import { type DeployLock } from '../../core/deploy/lock';
import { type ActionOutcome, settled } from '../../core/deploy/outcome';
import { deployAction } from '../../core/deploy/pipeline';
import { formatLog } from '../../core/events';
import { eventOutcome } from '../../core/testing';
import { serverText } from '../../core/text';
import { type CommandContext, describeFailure } from '../context';
import { CliError, EXIT, type ExitCode } from '../exitCodes';
import { applyOutcomes, readLock, writeLock } from '../lockFile';
import { type CliProject, type LocalActionFolder } from '../project';
import { exitOfOutcome, outcomeLines } from '../render';
import { verdictOf } from '../../core/deploy/outcome';
import { planAction } from '../../core/deploy/plan';
import { workspaceAction } from '../workspace';
import { type TestCase } from './cases';
import { type CaseResult } from './results';
import { caseError, caseResult } from './verdict';

/** Outcome lines in messages and reports: no colour, whatever the terminal. */
const PLAIN = createColors(false);

/** Runs at once per action on the server, as the Testing view's Test profile: each is an event of its own. */
const SERVER_PARALLEL = 4;

/**
 * The Test environment: per action, what `deploy` would send of it is sent first, by the same
 * pipeline against the same base (customactions.lock.json): conditional, so a part changed on the
 * server since the base is held and named (exit 4) and that action's cases do not run; code that
 * disagrees with its metadata is refused (exit 6). Then each case runs there and its event is judged
 * like a local run. The lock records what the server then holds, as a deploy's does. Failures that are
 * not the cases' own (no key, server down) are returned as exit codes.
 */
export async function runCasesOnServer(
  context: CommandContext,
  cases: readonly TestCase[],
  project: CliProject,
  onResult: (result: CaseResult) => void,
  signal: AbortSignal,
): Promise<ExitCode[]> {
  const exits: ExitCode[] = [];
  const lock = await readLock(project.root);
  const outcomes: ActionOutcome[] = [];
  // One list per application, whatever the number of its actions with cases: deploying one action
  // changes no other's entry.
  const lists = new Map<string, Promise<ListedAction[]>>();
  const listOf = (client: CustomActionsClient, applicationId: string) => {
    let list = lists.get(applicationId);
    if (!list) lists.set(applicationId, (list = client.listActions(applicationId)));
    return list;
  };
  try {
    await runAll();
  } finally {
    // As a deploy's: what went through is the base of the next run, whatever happened after.
    await writeLock(project.root, lock, applyOutcomes(lock, project.baseUrl, outcomes));
  }
  return exits;

  async function runAll(): Promise<void> {
    for (const c of cases) if (c.unrunnable !== undefined) onResult(caseError(c, c.unrunnable));
    const byAction = new Map<LocalActionFolder, TestCase[]>();
    for (const c of cases) if (c.unrunnable === undefined) byAction.set(c.action, [...(byAction.get(c.action) ?? []), c]);
    for (const [action, group] of byAction) {
      if (signal.aborted) break;
      let prepared: { client: CustomActionsClient; listed: ListedAction } | string;
      try {
        prepared = await prepare(context, project, lock, action, outcomes, signal, listOf);
      } catch (error) {
        const failure = describeFailure(error);
        exits.push(failure.exitCode);
        prepared = `${action.key} cannot run on the server: ${failure.message}`;
        context.out.error(`${action.application.id}/${serverText(action.key, 120)}: ${failure.message}`, failure.hint);
      }
      if (typeof prepared === 'string') {
        for (const c of group) onResult(caseError(c, prepared));
        continue;
      }
      const { client, listed } = prepared;
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(SERVER_PARALLEL, group.length) }, async () => {
          while (next < group.length && !signal.aborted) {
            const c = group[next++]!;
            let event: NormalizedEvent;
            try {
              event = await client.runAction(listed.eventsUrls, 'Test', c.parsed.inputs as RunInputs, { signal });
            } catch (error) {
              if (signal.aborted) return;
              const failure = describeFailure(error);
              if (!(error instanceof ApiError && (error.kind === 'validation' || error.kind === 'protocol'))) exits.push(failure.exitCode);
              onResult(caseError(c, `The Test environment did not run ${serverText(action.key, 120)}: ${failure.message}`));
              continue;
            }
            const logs = event.logs.flatMap((log) => formatLog(log).map((l) => l.trim()));
            onResult(caseResult(c, eventOutcome(event), event.duration, logs, project.root));
          }
        }),
      );
    }
  }
}

/**
 * The action on the server, able to run on Test, with the workspace's metadata and code deployed; or
 * why its cases cannot run there. A deploy that does not go through is thrown as a CliError of its
 * exit code, its lines (what was held, and since which version) in the message.
 */
async function prepare(
  context: CommandContext,
  project: CliProject,
  lock: DeployLock,
  action: LocalActionFolder,
  outcomes: ActionOutcome[],
  signal: AbortSignal,
  listOf: (client: CustomActionsClient, applicationId: string) => Promise<ListedAction[]>,
): Promise<{ client: CustomActionsClient; listed: ListedAction } | string> {
  const key = serverText(action.key, 120);
  const app = action.application;
  const client = await context.client(app);
  const listed = (await listOf(client, app.id)).find((a) => a.key === action.key);
  if (!listed) return `${key} is not on the server: deploy it first (custom-actions deploy), or run its tests locally.`;
  const capabilities = await client.capabilities();
  if (!capabilities.run) return `This server offers no way to start a run: run the tests of ${key} locally.`;
  if (!listed.eventsUrls.Test) return `The server lists no Test environment for ${key}.`;
  const outcome = await deployAction(
    client,
    planAction(
      { application: app.id, key: action.key, local: workspaceAction(project, action), listed, base: lock.get(project.baseUrl, app.id, action.key) },
      { force: false, delete: false },
    ),
    {
      force: false,
      dryRun: false,
      checkCode: (a) => codeProblems(context.analysis(), a.code!, a.metadata).map((p) => ({ file: a.codeFile, range: p.range, message: p.message })),
      signal,
    },
  );
  outcomes.push(outcome);
  const [first = '', ...problems] = outcomeLines(outcome, PLAIN);
  // `held           app-a/add  code changed on the server since the base (…)` → `held: code changed …`
  const what = first.replace(/^(\S+)\s+\S+\s*/, '$1: ');
  if (!settled(outcome)) {
    const exit = exitOfOutcome(outcome);
    const hint =
      exit === EXIT.conflict
        ? "Its cases did not run: custom-actions status names the parts; pull it to take the server's version, or deploy --force to replace it with yours."
        : 'Its cases did not run.';
    throw new CliError(exit === EXIT.ok ? EXIT.failed : exit, [`not deployed, ${what}`, ...problems].join('\n'), hint);
  }
  if (verdictOf(outcome.steps) === 'updated') context.out.info(`${app.id}/${key}: deployed before its tests ran (${what}).`);
  return { client, listed };
}
