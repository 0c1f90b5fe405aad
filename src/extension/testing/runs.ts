import * as vscode from 'vscode';
import { type RunOutcome } from '../../core/testing';
import { serverText } from '../../core/text';
import { errorMessage } from '../connections';
import { localRunRequest } from '../debug/commands';
import { readLocalAction } from '../localActions';
import { type Parts } from '../parts';
import { type LocalDebug } from '../debug/localDebug';
import { readCase } from './cases';
import { type ActionTestTree } from './controller';
import { type InputSetDiagnostics } from './diagnostics';
import { outputLines, type PreparedCase, reportOutcome, reportProblems } from './report';
import { runOnServer } from './serverRun';
import { HarnessPool, harnessParallelism, LOCAL_CASE_TIMEOUT_MS } from './localPool';

export type ProfileKind = 'local' | 'server' | 'debug';

/** What the runs use: their own parts, and what the Test environment's runs take (serverRun.ts). */
export type TestRunParts = Pick<Parts, 'config' | 'context' | 'trust'> & { readonly debug: LocalDebug } & Parameters<typeof runOnServer>[0];

export const testRuns = (s: TestRunParts, tree: ActionTestTree, diagnostics: InputSetDiagnostics): TestRuns => new TestRuns(s, tree, diagnostics);

/** The run profiles' handler: the cases asked for, read and checked, then run where the profile says. */
export class TestRuns {
  constructor(
    private readonly s: TestRunParts,
    private readonly tree: ActionTestTree,
    private readonly diagnostics: InputSetDiagnostics,
  ) {}

  async run(kind: ProfileKind, request: vscode.TestRunRequest, token: vscode.CancellationToken): Promise<void> {
    const run = this.tree.controller.createTestRun(request, undefined, true);
    try {
      const items = await this.casesOf(request);
      for (const item of items) run.enqueued(item);
      const whole = (request.include ?? []).some((item) => this.tree.dataOf(item)?.kind === 'application') || request.include === undefined;
      const execute = () => this.execute(kind, run, items, token);
      if (whole && items.length > 1)
        await vscode.window.withProgress({ location: vscode.ProgressLocation.Window, title: 'Testing custom actions' }, (progress) =>
          this.execute(kind, run, items, token, (done) => progress.report({ message: `${done} of ${items.length}` })),
        );
      else await execute();
    } catch (error) {
      run.appendOutput(outputLines('', `The run failed: ${errorMessage(error)}`));
      void vscode.window.showErrorMessage(`Custom Actions tests: ${errorMessage(error)}`);
    } finally {
      run.end();
    }
  }

  private async execute(
    kind: ProfileKind,
    run: vscode.TestRun,
    items: vscode.TestItem[],
    token: vscode.CancellationToken,
    progress?: (done: number) => void,
  ): Promise<void> {
    const reported = new Set<vscode.TestItem>();
    const counted = (item: vscode.TestItem) => {
      reported.add(item);
      progress?.(reported.size);
    };
    try {
      // Local and Debug run the user's code on this machine; the Test environment sends it with the key.
      this.s.trust.require(kind === 'server' ? 'Running tests on the server' : 'Running tests locally');
    } catch (error) {
      for (const item of items) run.errored(item, new vscode.TestMessage(errorMessage(error)));
      return;
    }
    const prepared = await this.prepare(run, items, counted);
    if (kind === 'local') await this.runLocally(run, prepared, token, counted);
    else if (kind === 'debug') await this.debug(run, prepared, token, counted);
    else await runOnServer(this.s, run, prepared, token, counted);
    // Cancelled: what had not ended is skipped.
    if (token.isCancellationRequested) for (const c of prepared) if (!reported.has(c.item)) run.skipped(c.item);
  }

  /** The leaves asked for, less those excluded. */
  private async casesOf(request: vscode.TestRunRequest): Promise<vscode.TestItem[]> {
    const excluded = new Set((request.exclude ?? []).map((item) => item.id));
    const roots = request.include ? (await Promise.all(request.include.map((item) => this.tree.casesUnder(item)))).flat() : await this.tree.allCases();
    const seen = new Set<string>();
    return roots.filter((item) => !excluded.has(item.id) && !excluded.has(item.parent?.id ?? '') && !seen.has(item.id) && seen.add(item.id));
  }

  /** Reads each case against its action's metadata; those that cannot run are reported here. */
  private async prepare(run: vscode.TestRun, items: vscode.TestItem[], counted: (item: vscode.TestItem) => void): Promise<PreparedCase[]> {
    const actions = new Map<string, ReturnType<typeof readLocalAction>>();
    const prepared: PreparedCase[] = [];
    for (const item of items) {
      const data = this.tree.dataOf(item);
      if (data?.kind !== 'case') continue;
      const key = data.folder.toString();
      if (!actions.has(key)) actions.set(key, readLocalAction(data.folder));
      const action = await actions.get(key);
      if (!action?.metadata) {
        run.errored(
          item,
          new vscode.TestMessage(
            `The action.yaml of ${action?.key ?? 'this action'} has problems: fix them to run its tests (the parameters and result type come from it).`,
          ),
        );
        counted(item);
        continue;
      }
      const testCase = await readCase(data.uri, action);
      this.diagnostics.show(testCase);
      if (testCase.file.problems.length > 0) {
        reportProblems(run, item, testCase);
        counted(item);
        continue;
      }
      const inputs = testCase.file.inputs;
      prepared.push({
        item,
        testCase,
        key: action.key,
        folder: data.folder,
        metadata: action.metadata,
        main: vscode.Uri.joinPath(data.folder, 'main.ts'),
        inputs,
        expect: testCase.file.expect,
      });
    }
    return prepared;
  }

  /** Local: every case through the harness, main.ts as it is in the editor, a few processes side by side. */
  private async runLocally(
    run: vscode.TestRun,
    cases: PreparedCase[],
    token: vscode.CancellationToken,
    counted: (item: vscode.TestItem) => void,
  ): Promise<void> {
    if (cases.length === 0) return;
    // The extension host's own Node, confined as the sandbox confines its runners (harnessPool.ts);
    // customActions.debug.runtimeExecutable is Debug's only.
    const runner = new HarnessPool(harnessParallelism(cases.length));
    const cancelled = token.onCancellationRequested(() => runner.cancel());
    try {
      await Promise.all(
        cases.map(async (c) => {
          const request = await localRunRequest(c.folder, c.metadata, c.inputs, LOCAL_CASE_TIMEOUT_MS);
          if (token.isCancellationRequested) return;
          run.started(c.item);
          const outcome = await runner.run(request, (entry) => run.appendOutput(outputLines(`[${c.testCase.name}] `, entry.message), undefined, c.item));
          if (!outcome) return;
          reportOutcome(run, c, outcome, outcome.duration);
          counted(c.item);
        }),
      );
    } finally {
      cancelled.dispose();
      runner.close();
    }
  }

  /** Debug: one case after the other under VS Code's JavaScript debugger (breakpoints in main.ts bind). */
  private async debug(run: vscode.TestRun, cases: PreparedCase[], token: vscode.CancellationToken, counted: (item: vscode.TestItem) => void): Promise<void> {
    for (const c of cases) {
      if (token.isCancellationRequested) return;
      run.started(c.item);
      const debugRun = await this.s.debug.debug({
        key: c.key,
        folder: c.folder,
        metadata: c.metadata,
        inputs: c.inputs,
        label: `test ${c.testCase.name}`,
        quiet: true,
      });
      if (!debugRun) {
        run.errored(c.item, new vscode.TestMessage('The debugger did not start.'));
        counted(c.item);
        continue;
      }
      const stop = token.onCancellationRequested(() => void vscode.debug.stopDebugging(debugRun.session));
      const outcome = await debugRun.done.finally(() => stop.dispose());
      if (!outcome) {
        if (!token.isCancellationRequested) {
          run.errored(c.item, new vscode.TestMessage(`${serverText(c.key, 120)}: the debug session ended before main finished.`));
          counted(c.item);
        }
        continue;
      }
      reportOutcome(run, c, outcome satisfies RunOutcome, outcome.duration);
      counted(c.item);
    }
  }
}
