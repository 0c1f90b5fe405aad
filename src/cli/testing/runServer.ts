import { ApiError, type CustomActionsClient, type ListedAction, type NormalizedEvent, type RunInputs } from '../../core/client';
import { formatLog } from '../../core/events';
import { eventOutcome } from '../../core/testing';
import { serverText } from '../../core/text';
import { type CommandContext, describeFailure } from '../context';
import { type ExitCode } from '../exitCodes';
import { type LocalActionFolder } from '../project';
import { type TestCase } from './cases';
import { type CaseResult } from './results';
import { caseError, caseResult } from './verdict';

/** Runs at once per action on the server, as the Testing view's Test profile: each is an event of its own. */
const SERVER_PARALLEL = 4;

/**
 * The Test environment: per action, main.ts as it is on disk is pushed first when the server holds
 * other code (a conditional push: it is refused, and the cases error, when the code changed on the
 * server since it was read), then each case runs there and its event is judged like a local run.
 * Failures that are not the cases' own (no key, server down) are returned as exit codes.
 */
export async function runCasesOnServer(
  context: CommandContext,
  cases: readonly TestCase[],
  projectRoot: string,
  onResult: (result: CaseResult) => void,
  signal: AbortSignal,
): Promise<ExitCode[]> {
  const exits: ExitCode[] = [];
  for (const c of cases) if (c.unrunnable !== undefined) onResult(caseError(c, c.unrunnable));
  const byAction = new Map<LocalActionFolder, TestCase[]>();
  for (const c of cases) if (c.unrunnable === undefined) byAction.set(c.action, [...(byAction.get(c.action) ?? []), c]);
  for (const [action, group] of byAction) {
    if (signal.aborted) break;
    let prepared: { client: CustomActionsClient; listed: ListedAction } | string;
    try {
      prepared = await prepare(context, action);
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
          onResult(caseResult(c, eventOutcome(event), event.duration, logs, projectRoot));
        }
      }),
    );
  }
  return exits;
}

/** The action on the server, able to run on Test, with the workspace's code pushed; or why its cases cannot run there. */
async function prepare(context: CommandContext, action: LocalActionFolder): Promise<{ client: CustomActionsClient; listed: ListedAction } | string> {
  const key = serverText(action.key, 120);
  const client = await context.client(action.application);
  const listed = (await client.listActions(action.application.id)).find((a) => a.key === action.key);
  if (!listed) return `${key} is not on the server: deploy it first (custom-actions deploy), or run its tests locally.`;
  const capabilities = await client.capabilities();
  if (!capabilities.run) return `This server offers no way to start a run: run the tests of ${key} locally.`;
  if (!listed.eventsUrls.Test) return `The server lists no Test environment for ${key}.`;
  const code = action.code!;
  const onServer = await client.getImplementationVersioned(listed.id);
  if (onServer.code !== code) {
    // Conditional on the version just read: a push that crosses another one is refused, not merged.
    await client.putImplementation(listed.id, code, onServer.code === undefined ? { ifNoneMatch: '*' } : onServer.etag ? { ifMatch: onServer.etag } : {});
    context.out.info(`${action.application.id}/${key}: main.ts was pushed to the server before its tests ran.`);
  }
  return { client, listed };
}
