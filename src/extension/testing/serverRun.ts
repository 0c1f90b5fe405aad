import * as vscode from 'vscode';
import { type NormalizedEvent, type RunInputs } from '../../core/client';
import { eventOutcome } from '../../core/testing';
import { serverText } from '../../core/text';
import { errorMessage } from '../connections';
import { currentMainText } from '../debug/commands';
import { targetsOf } from '../events/commands';
import { type Parts } from '../parts';
import { type DeployFeature } from '../deploy';
import { type Events } from '../events';
import { outputLines, type PreparedCase, reportOutcome } from './report';

/** Runs at once per action on the server: each is an event of its own, so they do not share state. */
const SERVER_PARALLEL = 4;

/**
 * Test environment: the action's code as it is in the editor is pushed first when the server holds
 * another, then each case runs on the server's Test environment and its event is judged. A server
 * without the run extra cannot start runs: the cases say so.
 */
export async function runOnServer(
  s: Pick<Parts, 'connections' | 'model'> & { readonly deploy: DeployFeature } & { readonly events: Events },
  run: vscode.TestRun,
  cases: readonly PreparedCase[],
  token: vscode.CancellationToken,
  counted: (item: vscode.TestItem) => void,
): Promise<void> {
  const byFolder = new Map<string, PreparedCase[]>();
  for (const c of cases) byFolder.set(c.folder.toString(), [...(byFolder.get(c.folder.toString()) ?? []), c]);
  const abort = new AbortController();
  const cancelled = token.onCancellationRequested(() => abort.abort());
  try {
    for (const group of byFolder.values()) {
      if (token.isCancellationRequested) return;
      const why = await prepareAction(s, run, group[0]!);
      if (typeof why === 'string') {
        for (const c of group) {
          run.errored(c.item, new vscode.TestMessage(why));
          counted(c.item);
        }
        continue;
      }
      await inParallel(group, SERVER_PARALLEL, async (c) => {
        if (token.isCancellationRequested) return;
        run.started(c.item);
        let event: NormalizedEvent;
        try {
          event = await s.connections.call(why.app, (client) => client.runAction(why.eventsUrl, 'Test', c.inputs as RunInputs, { signal: abort.signal }));
        } catch (error) {
          if (token.isCancellationRequested) return;
          run.errored(c.item, new vscode.TestMessage(`The Test environment did not run ${serverText(c.key, 120)}: ${errorMessage(error)}`));
          counted(c.item);
          return;
        }
        for (const log of event.logs) run.appendOutput(outputLines(`[${c.testCase.name}] `, log.message), undefined, c.item);
        reportOutcome(run, c, eventOutcome(event), event.duration);
        counted(c.item);
      });
      s.events.poke(why.actionId);
    }
  } finally {
    cancelled.dispose();
  }
}

/** The action on the server, able to run, with the editor's code pushed; or why its cases cannot run there. */
async function prepareAction(
  s: Pick<Parts, 'connections' | 'model'> & { readonly deploy: DeployFeature },
  run: vscode.TestRun,
  first: PreparedCase,
): Promise<{ app: Parameters<Parts['connections']['call']>[0]; actionId: string; eventsUrl: string } | string> {
  const key = serverText(first.key, 120);
  try {
    const entry = await s.model.actionAt(first.main);
    const remote = entry?.remote;
    if (!entry || !remote) return `${key} is not on the server yet: create it there first (Create on Server), or run its tests with the Local profile.`;
    const capabilities = await s.connections.call(entry.app, (client) => client.capabilities());
    if (!capabilities.run)
      return `This server offers no way to start a run from VS Code: runs of ${key} happen on the platform, each recorded as an event. Run the tests with the Local profile, or Pin as Test an event of the platform.`;
    const [target] = targetsOf(entry, 'Test');
    if (!target) return `The server lists no Test environment for ${key}.`;
    const { main, code } = await currentMainText(first.folder);
    const onServer = capabilities.getImplementation ? await s.connections.call(entry.app, (client) => client.getImplementation(remote.id)) : undefined;
    if (onServer !== code) {
      const pushed = await s.deploy.pushCode(main, code);
      if (pushed.kind === 'failed') return `main.ts of ${key} could not be pushed first: ${errorMessage(pushed.error)}`;
      if (pushed.kind === 'held') return `main.ts of ${key} was not pushed first: ${key} changed on the server since your last pull or push.`;
      if (pushed.kind !== 'pushed' && pushed.kind !== 'unchanged') return `main.ts of ${key} was not pushed first${pushed.reason ? `: ${pushed.reason}` : '.'}`;
      run.appendOutput(outputLines('', `${key}: main.ts as it is in the editor was pushed to the server before its tests ran.`));
    }
    return { app: entry.app, actionId: remote.id, eventsUrl: target.eventsUrl };
  } catch (error) {
    return `${key} cannot run on the server: ${errorMessage(error)}`;
  }
}

async function inParallel<T>(items: readonly T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(limit, items.length) }, async () => {
      while (next < items.length) await work(items[next++]!);
    }),
  );
}
