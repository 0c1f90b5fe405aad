import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import * as vscode from 'vscode';
import { LOCAL_SANDBOX } from '../core/schema';
import { type KeyStore } from './keyStore';
import { Disposable } from './lifecycle';

export interface SandboxApplication {
  readonly id: string;
  readonly label: string;
}

interface ReadyLine {
  url: string;
  applications: { id: string; name: string; key: string }[];
}

export type SandboxState =
  | { kind: 'stopped' }
  | { kind: 'starting' }
  // The process and how long its start took, for the log and the benchmarks.
  | { kind: 'running'; url: string; pid: number | undefined; started: SandboxStartTiming }
  | { kind: 'failed'; message: string };

/** How long a start took. */
export interface SandboxStartTiming {
  /** From spawn() to the child's ready line: listening, with the applications and their keys in place. */
  readonly readyMs: number;
  /** From the start of ensure() to running, with the keys stored. */
  readonly totalMs: number;
}

/**
 * Runs the built-in sandbox in a child process for workspaces whose base URL is `local-sandbox`.
 * It is started on first need, never at activation, and stopped with the extension. Each start mints
 * fresh keys for the applications of the project; they go straight into SecretStorage.
 */
export class SandboxManager extends Disposable {
  private child: ChildProcess | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private ensured = new Set<string>();
  private demo = false;
  private current: SandboxState = { kind: 'stopped' };
  /** Set by stop(): a sandbox the user stopped is started again only when something needs it, never ahead. */
  private stoppedOnPurpose = false;
  private readonly stateChanged = this.register(new vscode.EventEmitter<SandboxState>());
  readonly onDidChangeState = this.stateChanged.event;

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly storageUri: vscode.Uri,
    private readonly keys: KeyStore,
    private readonly log: vscode.LogOutputChannel,
  ) {
    super();
    this.register({ dispose: () => this.kill() });
  }

  get state(): SandboxState {
    return this.current;
  }

  /**
   * Starts the sandbox ahead of need: the view shows the applications of a local-sandbox workspace, so
   * an expand is coming, and the start (a second or more) is better spent while the user reads. Not
   * after the user stopped it, and a failure is left for the real need to report.
   */
  warmUp(applications: readonly SandboxApplication[], demo: boolean): void {
    if (this.stoppedOnPurpose || this.current.kind !== 'stopped') return;
    this.ensure(applications, demo).catch((error: unknown) =>
      this.log.info(`The local sandbox did not start ahead of need: ${error instanceof Error ? error.message : String(error)}`),
    );
  }

  /**
   * Starts the sandbox (or restarts it when new applications are needed) and returns its URL. Calls
   * run one at a time: two processes must never open the same data directory, or one loses the
   * other's writes.
   */
  ensure(applications: readonly SandboxApplication[], demo: boolean): Promise<string> {
    this.stoppedOnPurpose = false;
    return this.serialized(async () => {
      const missing = applications.some((a) => !this.ensured.has(a.id)) || (demo && !this.demo);
      if (this.current.kind === 'running' && this.child && !missing) return this.current.url;
      await this.killAndWait();
      return this.start(applications, demo);
    });
  }

  stop(): Promise<void> {
    this.stoppedOnPurpose = true;
    return this.serialized(async () => {
      await this.killAndWait();
      this.setState({ kind: 'stopped' });
    });
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async start(applications: readonly SandboxApplication[], demo: boolean): Promise<string> {
    const begun = performance.now();
    this.setState({ kind: 'starting' });
    const dataDir = vscode.Uri.joinPath(this.storageUri, 'sandbox');
    // The child runs beside the extension host, so its folder is made there: through workspace.fs it
    // would cross to the workbench and back first.
    if (dataDir.scheme === 'file') await mkdir(dataDir.fsPath, { recursive: true });
    else await vscode.workspace.fs.createDirectory(dataDir);
    const script = vscode.Uri.joinPath(this.extensionUri, 'dist', 'sandbox.js').fsPath;
    const args = [script, '--port', '0', '--json', '--data', dataDir.fsPath];
    if (demo) args.push('--demo');
    for (const app of applications) args.push('--ensure-app', `${app.id}:${app.label}`);
    this.log.info(`Starting the local sandbox (data in ${dataDir.fsPath})`);
    const child = spawn(process.execPath, args, {
      env: sandboxEnvironment(),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stderr?.setEncoding('utf8').on('data', (chunk: string) => this.log.info(`[sandbox] ${chunk.trimEnd()}`));
    const spawned = performance.now();
    try {
      const ready = await readReadyLine(child);
      const readyMs = performance.now() - spawned;
      // Each store is a round trip to the workbench: all at once, not one after the other.
      await Promise.all(ready.applications.map((app) => this.keys.set(LOCAL_SANDBOX, app.id, app.key)));
      this.ensured = new Set(applications.map((a) => a.id));
      this.demo = demo;
      child.once('exit', (code, signal) => {
        if (this.child !== child) return;
        this.child = undefined;
        this.ensured.clear();
        this.log.warn(`The local sandbox stopped (${signal ?? `exit code ${code}`})`);
        this.setState({ kind: 'stopped' });
      });
      const started = { readyMs, totalMs: performance.now() - begun };
      this.log.info(
        `The local sandbox listens on ${ready.url} (process ${child.pid}, ready ${Math.round(readyMs)} ms after it was spawned, running after ${Math.round(started.totalMs)} ms)`,
      );
      this.setState({ kind: 'running', url: ready.url, pid: child.pid, started });
      return ready.url;
    } catch (error) {
      this.kill();
      const message = error instanceof Error ? error.message : String(error);
      this.setState({ kind: 'failed', message });
      throw new Error(`The local sandbox did not start: ${message}`);
    }
  }

  private kill(): void {
    const child = this.child;
    this.child = undefined;
    this.ensured.clear();
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
  }

  /** Stops the child and waits until it has exited (and closed its database), SIGKILL after 10 s. */
  private async killAndWait(): Promise<void> {
    const child = this.child;
    this.kill();
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        resolve();
      }, 10_000);
      child.once('exit', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  private setState(state: SandboxState): void {
    this.current = state;
    this.stateChanged.fire(state);
  }
}

/**
 * Variables the sandbox process gets from the window's environment, by name in any case: where the OS
 * keeps temporary files (its database template is cached there) and what Windows needs to run a
 * process. Nothing else: the window's environment holds tokens, proxies and the user's own variables,
 * and NODE_OPTIONS could change how the sandbox runs. (scripts/sandbox.mjs passes the same.)
 */
const SANDBOX_ENVIRONMENT = ['TMPDIR', 'TMP', 'TEMP', 'SystemRoot'];

function sandboxEnvironment(): NodeJS.ProcessEnv {
  // In desktop VS Code process.execPath is Electron; this makes it behave as plain Node.
  const env: NodeJS.ProcessEnv = { ELECTRON_RUN_AS_NODE: '1' };
  for (const [name, value] of Object.entries(process.env)) {
    if (value !== undefined && SANDBOX_ENVIRONMENT.some((allowed) => allowed.toLowerCase() === name.toLowerCase())) env[name] = value;
  }
  return env;
}

function readReadyLine(child: ChildProcess): Promise<ReadyLine> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    const timer = setTimeout(() => fail(new Error('no answer within 60 seconds')), 60_000);
    const onData = (chunk: Buffer) => {
      buffer += chunk.toString('utf8');
      const newline = buffer.indexOf('\n');
      if (newline < 0) return;
      try {
        const parsed = JSON.parse(buffer.slice(0, newline)) as ReadyLine;
        if (typeof parsed.url !== 'string' || !Array.isArray(parsed.applications)) throw new Error('unexpected ready line');
        done();
        resolve(parsed);
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    };
    const onExit = (code: number | null) => fail(new Error(`it exited with code ${code}`));
    const fail = (error: Error) => {
      done();
      reject(error);
    };
    const done = () => {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      child.off('error', fail);
    };
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
    child.once('error', fail);
  });
}
