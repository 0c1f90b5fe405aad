import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import * as vscode from 'vscode';
import { type ActionMetadata } from '../../core/schema';
import { mainFrameOf } from '../../core/events';
import { type LocalOutcome } from '../../sandbox/runner/local/localRun';
import { type Config } from '../config';
import { type HeldTexts } from '../heldTexts';
import { Disposable } from '../lifecycle';
import { type Parts } from '../parts';
import { type WorkspaceTrust } from '../trust';
import { consoleEchoTracker } from './consoleEcho';
import { harnessLaunchConfig, RUN_ID } from './launchConfig';
import { harnessPath, localRunRequest } from './localHarness';
import { compareWithRecorded, type LastLocalRun, openResult, type Recorded, rememberRun, showOutcome } from './outcome';

/** One local run to debug: an action folder, the inputs, and what the server recorded, when replayed from an event. */
export interface DebugTarget {
  readonly key: string;
  readonly folder: vscode.Uri;
  readonly metadata: ActionMetadata;
  readonly inputs: unknown;
  readonly recorded?: Recorded;
  /**
   * Where the inputs come from, for the session's name ("greeter (input set polite)") and the Debug
   * Console's first line: `input set polite`, `entered inputs`, `recorded event 10:42`, `test polite`.
   */
  readonly label?: string;
  /** No notification at the end: the caller reports the outcome (the Testing view's Debug profile). */
  readonly quiet?: boolean;
}

export interface DebugRun {
  readonly session: vscode.DebugSession;
  /** Once the program ends: what main did, or undefined when the run was stopped before it wrote it. */
  readonly done: Promise<LocalOutcome | undefined>;
}

interface Pending {
  readonly target: DebugTarget;
  readonly dir: string;
  readonly requestFile: string;
  readonly outcomeFile: string;
  /** The breakpoint this run added on the line its recorded failure threw from, removed when it ends. */
  readonly breakpoint: vscode.SourceBreakpoint | undefined;
  started: (session: vscode.DebugSession) => void;
  readonly ended: (outcome: LocalOutcome | undefined) => void;
  readonly done: Promise<LocalOutcome | undefined>;
}

/** Services.debug, made on its first use. */
export const localDebug = (s: Pick<Parts, 'config' | 'context' | 'runResults' | 'trust'>): LocalDebug =>
  new LocalDebug(s.context.extensionUri, s.trust, s.config, s.runResults);

/**
 * Debug runs of main on this machine, through VS Code's JavaScript debugger. Nothing starts before a
 * command or F5 asks; each run's request and outcome files live in a temporary folder removed at its end.
 */
export class LocalDebug extends Disposable {
  private readonly pending = new Map<string, Pending>();
  private readonly sessions = new Map<string, string>();
  /** The last run debugged from a command or F5 that ended with an outcome (the Testing view reports its own). */
  private last: LastLocalRun | undefined;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly trust: WorkspaceTrust,
    private readonly config: () => Config,
    private readonly results: HeldTexts,
  ) {
    super();
    this.register(vscode.debug.onDidStartDebugSession((session) => this.started(session)));
    this.register(vscode.debug.onDidTerminateDebugSession((session) => void this.terminated(session)));
    this.register(
      vscode.debug.registerDebugAdapterTrackerFactory('*', {
        createDebugAdapterTracker: (session) => {
          const runId = session.configuration[RUN_ID] as unknown;
          const pending = typeof runId === 'string' ? this.pending.get(runId) : undefined;
          if (!pending) return undefined;
          return consoleEchoTracker(pending.requestFile, `Debugging ${session.name} on this machine: main.ts as it is in the editor.`);
        },
      }),
    );
  }

  /**
   * A node launch configuration of the harness with no run in it yet: what an F5 `customActions`
   * configuration becomes before VS Code substitutes its variables (the provider fills the run in
   * afterwards, through `launchConfig`). `cwd` may still hold variables.
   */
  skeletonConfig(name: string, cwd: string): vscode.DebugConfiguration {
    return harnessLaunchConfig({
      name,
      harness: this.harnessPath(),
      requestFile: '',
      outcomeFile: '',
      cwd,
      runId: '',
      runtimeExecutable: this.config().debugRuntimeExecutable,
    });
  }

  private harnessPath(): string {
    return harnessPath(this.extensionUri);
  }

  /** The node launch configuration of one run (for F5 too, through the configuration provider). */
  async launchConfig(target: DebugTarget): Promise<vscode.DebugConfiguration> {
    // The user's own code runs unconfined on this machine: only where they trust the workspace.
    this.trust.require('Debugging an action');
    const request = await localRunRequest(target.folder, target.metadata, target.inputs);
    const dir = await mkdtemp(path.join(tmpdir(), 'custom-actions-debug-'));
    const requestFile = path.join(dir, 'request.json');
    await writeFile(requestFile, JSON.stringify(request));
    const runId = randomUUID();
    let ended: (outcome: LocalOutcome | undefined) => void = () => undefined;
    const done = new Promise<LocalOutcome | undefined>((resolve) => (ended = resolve));
    const outcomeFile = path.join(dir, 'outcome.json');
    const breakpoint = failureBreakpoint(target, vscode.Uri.file(request.mainPath), request.code);
    if (breakpoint) vscode.debug.addBreakpoints([breakpoint]);
    this.pending.set(runId, { target, dir, requestFile, outcomeFile, breakpoint, started: () => undefined, ended, done });
    return harnessLaunchConfig({
      name: sessionName(target),
      harness: this.harnessPath(),
      requestFile,
      outcomeFile,
      cwd: target.folder.fsPath,
      runId,
      runtimeExecutable: this.config().debugRuntimeExecutable,
    });
  }

  /** The last local run's result in an editor; false when there was none. */
  async openLastResult(): Promise<boolean> {
    if (!this.last) return false;
    await openResult(this.results, this.last);
    return true;
  }

  /** The last local run beside the event it replayed; false when there is no such run. */
  async compareLastWithRecorded(): Promise<boolean> {
    if (!this.last?.recorded) return false;
    await compareWithRecorded(this.results, this.last);
    return true;
  }

  /** Starts the debugger on one run; undefined when VS Code did not start it. */
  async debug(target: DebugTarget): Promise<DebugRun | undefined> {
    const config = await this.launchConfig(target);
    const runId = config[RUN_ID] as string;
    const pending = this.pending.get(runId);
    const session = new Promise<vscode.DebugSession>((resolve) => {
      if (pending) pending.started = resolve;
    });
    const ok = await vscode.debug.startDebugging(vscode.workspace.getWorkspaceFolder(target.folder), config);
    if (!ok || !pending) {
      await this.forget(runId);
      return undefined;
    }
    return { session: await session, done: pending.done };
  }

  private started(session: vscode.DebugSession): void {
    // js-debug runs the program in a child session named after the harness ("run-local.js [pid]"),
    // the one the Call Stack and the toolbar show: it takes the name of the run.
    const parent = session.parentSession;
    if (parent && this.sessions.has(parent.id)) session.name = parent.name;
    const runId = session.configuration[RUN_ID] as unknown;
    const pending = typeof runId === 'string' ? this.pending.get(runId) : undefined;
    if (!pending || typeof runId !== 'string') return;
    this.sessions.set(session.id, runId);
    pending.started(session);
  }

  private async terminated(session: vscode.DebugSession): Promise<void> {
    const runId = this.sessions.get(session.id);
    if (!runId) return;
    this.sessions.delete(session.id);
    const pending = this.pending.get(runId);
    if (!pending) return;
    let outcome: LocalOutcome | undefined;
    try {
      outcome = JSON.parse(await readFile(pending.outcomeFile, 'utf8')) as LocalOutcome;
    } catch {
      outcome = undefined;
    }
    await this.forget(runId);
    pending.ended(outcome);
    const run = outcome && !pending.target.quiet ? rememberRun(pending.target, outcome) : undefined;
    if (run) this.last = run;
    if (!pending.target.quiet) void showOutcome(this.results, pending.target, outcome, run);
  }

  private async forget(runId: string): Promise<void> {
    const pending = this.pending.get(runId);
    this.pending.delete(runId);
    if (pending?.breakpoint) vscode.debug.removeBreakpoints([pending.breakpoint]);
    if (pending) await rm(pending.dir, { recursive: true, force: true }).catch(() => undefined);
  }
}

/** The session's name: the action, and where its inputs come from. */
function sessionName(target: Pick<DebugTarget, 'key' | 'label'>): string {
  return target.label ? `${target.key} (${target.label})` : target.key;
}

/**
 * Debug Event of a failure pauses where it failed: a breakpoint on the line of main.ts the recorded
 * stack threw from (its first main.ts frame), for this run only. None when the user already has one
 * on that line (theirs stays theirs), or when the line is past the end of main.ts as it is now.
 */
function failureBreakpoint(target: DebugTarget, main: vscode.Uri, code: string): vscode.SourceBreakpoint | undefined {
  const recorded = target.recorded;
  if (!recorded || recorded.ok || !recorded.error.stack) return undefined;
  const frame = mainFrameOf(recorded.error.stack);
  if (!frame || frame.line > code.split('\n').length) return undefined;
  const line = frame.line - 1;
  const theirs = vscode.debug.breakpoints.some(
    (b) => b instanceof vscode.SourceBreakpoint && b.location.uri.toString() === main.toString() && b.location.range.start.line === line,
  );
  return theirs ? undefined : new vscode.SourceBreakpoint(new vscode.Location(main, new vscode.Position(line, 0)));
}
