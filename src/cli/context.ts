import path from 'node:path';
import { ApiError, createClient, type CustomActionsClient } from '../core/client';
import type * as Analysis from '../core/analysis';
import { LOCAL_SANDBOX } from '../core/schema';
import { CheckThread, type CheckThreadHooks } from './checkThread';
import { CHECK_WORKER_SCRIPT, endEarlyThread } from './earlyThread';
import { threadsWorthIt } from './threadsWorthIt';
import { type CachedLoad, cacheEnvironment, loadCached } from './codeCache';
import { CliError, EXIT, type ExitCode } from './exitCodes';
import { type CliIo } from './io';
import { KeySource } from './keys';
import { Output } from './output';
import { type CliApplication, type CliProject, loadProject } from './project';
import { cliHint, plainHttpWarning } from './hints';
import { VERSION } from './version';

/** The options every command takes (docs/cli.md, *Global options*). */
export interface GlobalOptions {
  readonly project?: string;
  readonly baseUrl?: string;
  readonly keyFile?: string;
  readonly json?: boolean;
  readonly color?: boolean;
  readonly timeout?: string;
}

/** What a command works with; everything is made on first use, so `--help` and usage errors cost nothing. */
export class CommandContext {
  readonly out: Output;
  private project?: Promise<CliProject>;
  private keys?: Promise<KeySource>;
  private readonly clients = new Map<string, CustomActionsClient>();
  private analysisLoad?: CachedLoad<typeof Analysis>;
  private thread?: CheckThread;
  private projectRoot?: string;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
  ) {
    this.out = new Output(io, options.json === true, options.color === false);
  }

  /** Prompts are allowed only with a person at a terminal; in CI every question is an error instead. */
  get interactive(): boolean {
    return this.io.stdinIsTTY && this.io.stderr.isTTY && this.io.env.CI === undefined;
  }

  /** The folder the command works from: --project's, else the current one. */
  get startFolder(): string {
    return this.options.project ? path.resolve(this.io.cwd, this.options.project) : this.io.cwd;
  }

  /** The server named by --base-url or CUSTOM_ACTIONS_BASE_URL, over customactions.yaml's. */
  get baseUrlOverride(): string | undefined {
    return this.options.baseUrl ?? nonEmpty(this.io.env.CUSTOM_ACTIONS_BASE_URL);
  }

  loadProject(): Promise<CliProject> {
    return (this.project ??= loadProject(this.startFolder, this.baseUrlOverride).then((project) => {
      this.projectRoot = project.root;
      return project;
    }));
  }

  private keySource(): Promise<KeySource> {
    return (this.keys ??= KeySource.load(this.io.env, this.options.keyFile ? path.resolve(this.io.cwd, this.options.keyFile) : undefined));
  }

  /**
   * The client of one application, on the core client (the same origin rule as the extension: the
   * key goes to the base URL's origin only). No key is an auth error before anything is sent.
   */
  async client(app: CliApplication): Promise<CustomActionsClient> {
    const project = await this.loadProject();
    if (project.baseUrl === LOCAL_SANDBOX)
      throw new CliError(
        EXIT.usage,
        'customactions.yaml names the local sandbox, which only the editor starts by itself.',
        'Start one (custom-actions sandbox start) and pass the URL it prints with --base-url or CUSTOM_ACTIONS_BASE_URL.',
      );
    const keys = await this.keySource();
    const key = keys.keyFor(app.id);
    if (key === undefined) throw new CliError(EXIT.auth, `No key for application ${app.label}.`, keys.missingKeyHint(app.id));
    this.out.addSecret(key);
    let client = this.clients.get(app.id);
    if (!client) {
      const warning = this.clients.size === 0 ? plainHttpWarning(project.baseUrl) : undefined;
      if (warning) this.out.warn(warning);
      client = createClient({
        baseUrl: project.baseUrl,
        getKey: () => Promise.resolve(key),
        timeoutMs: this.timeoutMs(),
        userAgent: `custom-actions-cli/${VERSION}`,
      });
      this.clients.set(app.id, client);
    }
    return client;
  }

  /** The applications named (by id), or all of them. */
  async applications(ids?: readonly string[]): Promise<CliApplication[]> {
    const project = await this.loadProject();
    if (!ids || ids.length === 0) return [...project.applications];
    return ids.map((id) => {
      const app = project.applications.find((a) => a.id === id);
      if (!app) throw new CliError(EXIT.usage, `customactions.yaml has no application "${id}".`);
      return app;
    });
  }

  /**
   * The analysis bundle (it carries the TypeScript compiler: 10 MB) is loaded from beside this one on
   * first need, as the extension loads it, through its code cache (codeCache.ts), which is never in
   * the project's folder nor the current one.
   */
  analysis(): typeof Analysis {
    if (this.analysisLoad) return this.analysisLoad.exports;
    const load = loadCached<typeof Analysis>(path.join(__dirname, 'analysis.js'), {
      env: this.io.env,
      workspace: this.workspaceFolders(),
      warn: (message) => this.out.warn(message),
    });
    this.analysisLoad = load;
    if (this.io.env.CUSTOM_ACTIONS_DEBUG) this.io.stderr.write(`custom-actions: compiler code cache ${load.state}${load.file ? ` (${load.file})` : ''}\n`);
    return load.exports;
  }

  /**
   * A thread of its own for checking code (checkThread.ts), the same analysis bundle and code cache
   * rules as analysis(); undefined on a machine of one core. `inThread` checks where it cannot.
   */
  checkThread(inThread: CheckThreadHooks['inThread']): CheckThread | undefined {
    if (this.thread || !threadsWorthIt()) return this.thread;
    const debug = this.io.env.CUSTOM_ACTIONS_DEBUG ? (message: string) => this.io.stderr.write(`custom-actions: ${message}\n`) : undefined;
    this.thread = new CheckThread(
      {
        script: CHECK_WORKER_SCRIPT,
        bundle: path.join(__dirname, 'analysis.js'),
        env: cacheEnvironment(this.io.env),
        workspace: this.workspaceFolders(),
        firstChunk: 8,
      },
      { inThread, warn: (message) => this.out.warn(message), debug },
    );
    return this.thread;
  }

  /**
   * After the command's work: the compiler's code cache is written when none was used, now that the
   * checks compiled what a run needs (a cache made at load would hold only the top level).
   */
  async finish(): Promise<void> {
    await Promise.all([this.thread?.finish(), endEarlyThread()]);
    const saved = this.analysisLoad?.save() === true;
    if (saved && this.io.env.CUSTOM_ACTIONS_DEBUG) this.io.stderr.write(`custom-actions: compiler code cache written (${this.analysisLoad!.file})\n`);
  }

  /** The folders a code cache must never be in nor come from: the current one and the project's. */
  private workspaceFolders(): string[] {
    return [this.io.cwd, ...(this.options.project ? [this.startFolder] : []), ...(this.projectRoot ? [this.projectRoot] : [])];
  }

  private timeoutMs(): number {
    const seconds = Number(this.options.timeout ?? 30);
    if (!Number.isFinite(seconds) || seconds <= 0) throw new CliError(EXIT.usage, `--timeout must be a number of seconds, not "${this.options.timeout}".`);
    return seconds * 1000;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  return value?.trim() ? value.trim() : undefined;
}

/** The exit code and words of any failure: the client's errors by kind, with hints for a terminal. */
export function describeFailure(error: unknown): { exitCode: ExitCode; message: string; hint?: string; kind?: string } {
  if (error instanceof CliError) return { exitCode: error.exitCode, message: error.message, hint: error.hint };
  if (error instanceof ApiError)
    return {
      exitCode: error.code === 'no-implementation' ? EXIT.failed : exitOfKind(error.kind),
      message: error.message,
      hint: cliHint(error) ?? error.hint,
      kind: error.kind,
    };
  return { exitCode: EXIT.failed, message: error instanceof Error ? error.message : String(error) };
}

export function exitOfKind(kind: ApiError['kind']): ExitCode {
  switch (kind) {
    case 'auth':
    case 'forbidden':
      return EXIT.auth;
    case 'network':
    case 'timeout':
    case 'server':
    case 'rate-limited':
      return EXIT.network;
    case 'conflict':
      return EXIT.conflict;
    case 'cancelled':
      return EXIT.interrupted;
    default:
      return EXIT.failed;
  }
}
