import path from 'node:path';
import { ApiError, createClient, type CustomActionsClient, serverIdentity, type Transport } from '../core/client';
import type * as Analysis from '../core/analysis';
import { LOCAL_SANDBOX, type ProjectFile } from '../core/schema';
import { ciBranch, describeTargetChoice, hasNamedTargets, inCi, type TargetAsk, targetChoiceJson } from '../core/workspace';
import { gitBranch } from './gitBranch';
import { type CachedLoad, loadCached } from './codeCache';
import { CliError, EXIT, type ExitCode } from './exitCodes';
import { type CliIo } from './io';
import { type KeyOrigin, keyOriginText, KeySource } from './keys';
import { Output } from './output';
import { type CliApplication, type CliProject, loadProject, projectOnTarget } from './project';
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
  /** The target to work on (docs/environments.md); also CUSTOM_ACTIONS_TARGET. */
  readonly target?: string;
  /**
   * Yes to every confirmation (confirm.ts): a write to a protected target, a deploy's --delete or
   * --force over a change made on the server.
   */
  readonly yes?: boolean;
  readonly quiet?: boolean;
  /** `-a` given before the command's name (the command's own `-a` adds to it). */
  readonly application?: string[];
}

/** Where the server a command talks to was named (docs/cli.md, *Which server*). */
export type ServerSource = 'customactions.yaml' | '--base-url' | typeof BASE_URL_VARIABLE;

export const BASE_URL_VARIABLE = 'CUSTOM_ACTIONS_BASE_URL';

/** The server of a command, as it says it on stderr and in its `--json` document. */
export interface ServerNamed {
  /** The base URL requests go to, as the URL parser writes it. */
  readonly url: string;
  /** The server's identity (`serverIdentity`): every spelling of one server is this one text. */
  readonly identity: string;
  readonly source: ServerSource;
  /** The target of customactions.yaml the command works on, when the file names targets. */
  readonly target?: string;
  /** The target's server in customactions.yaml, when --base-url or the variable named another one. */
  readonly overrides?: string;
}

/** What a command works with; everything is made on first use, so `--help` and usage errors cost nothing. */
export class CommandContext {
  readonly out: Output;
  private project?: Promise<CliProject>;
  private keys?: Promise<KeySource>;
  private readonly clients = new Map<string, CustomActionsClient>();
  private analysisLoad?: CachedLoad<typeof Analysis>;
  private projectRoot?: string;
  private choosesTarget = true;
  private named = false;

  constructor(
    readonly io: CliIo,
    readonly options: GlobalOptions,
    /** The run's transport (program.ts), made on the first client. */
    private readonly transport: () => Transport,
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
    return this.options.baseUrl ?? nonEmpty(this.io.env[BASE_URL_VARIABLE]);
  }

  /** Which server the project's commands talk to, and who named it. */
  async server(): Promise<ServerNamed> {
    const project = await this.loadProject();
    const source: ServerSource =
      this.options.baseUrl !== undefined ? '--base-url' : nonEmpty(this.io.env[BASE_URL_VARIABLE]) !== undefined ? BASE_URL_VARIABLE : 'customactions.yaml';
    const identity = serverIdentity(project.baseUrl);
    const url = shownUrl(project.baseUrl);
    // The chosen target's server in the file (the file's own baseUrl when it names no targets).
    const own = shownUrl(project.target.target.baseUrl);
    const other = own === LOCAL_SANDBOX || serverIdentity(own) !== identity;
    return {
      url,
      identity,
      source,
      ...(hasNamedTargets(project.file) ? { target: project.target.target.name } : {}),
      ...(source !== 'customactions.yaml' && other ? { overrides: own } : {}),
    };
  }

  /**
   * Says once, on stderr, which server the command talks to and who named it; a variable that names
   * another server than customactions.yaml's is a warning, every time (a deploy must never go to a
   * server nobody meant without saying so). `--quiet` drops the line, never the warning.
   */
  private async nameServer(quiet: boolean): Promise<void> {
    // promote names its two targets and their servers itself.
    if (this.named || !this.choosesTarget) return;
    this.named = true;
    const server = await this.server();
    this.out.server = server;
    // The editor's local sandbox is reached from here only through the variable or --base-url: no surprise.
    if (server.overrides !== undefined && server.overrides !== LOCAL_SANDBOX && server.source === BASE_URL_VARIABLE)
      this.out.warn(
        `${BASE_URL_VARIABLE} names ${server.url}, over ${fileServer(server, server.overrides)}: this command talks to ${server.url}. Unset it to use the project's server.`,
      );
    else if (!this.options.quiet && !quiet) this.out.info(serverLine(server));
  }

  /**
   * The project on the target this command works on. When the file names targets, which one and why
   * is said on stderr, and carried by the JSON result.
   */
  loadProject(): Promise<CliProject> {
    return (this.project ??= loadProject(this.startFolder, this.baseUrlOverride, (file) => this.targetAsk(file)).then((project) => {
      this.projectRoot = project.root;
      if (this.choosesTarget && hasNamedTargets(project.file)) {
        // The target line names the server too: --quiet drops it with the server line (--json still carries both).
        if (!this.options.quiet) this.out.info(`Target ${describeTargetChoice(project.target)}`);
        this.out.annotate({ target: targetChoiceJson(project.target) });
      }
      return project;
    }));
  }

  /**
   * For a command that names its targets itself (promote's --from and --to): no target is chosen by
   * --target, the variable or the branch, and none is announced. Called before loadProject.
   */
  namesItsTargets(): void {
    if (this.options.target !== undefined) throw new CliError(EXIT.usage, 'This command names its targets with --from and --to, not --target.');
    this.choosesTarget = false;
  }

  /** The same project on another target by name (promote's --from and --to). */
  async projectOn(name: string, flag: string): Promise<CliProject> {
    return projectOnTarget(await this.loadProject(), name, flag);
  }

  /** What chooses the target: --target, CUSTOM_ACTIONS_TARGET, and in CI the branch (its variables, else git's). */
  private targetAsk(file: ProjectFile): TargetAsk {
    if (!this.choosesTarget) return {};
    const env = this.io.env;
    const wantsBranch = inCi(env) && Object.keys(file.branches ?? {}).length > 0;
    return {
      given: this.options.target,
      env,
      branch: wantsBranch ? (ciBranch(env) ?? gitBranch(this.startFolder, env)) : undefined,
    };
  }

  private keySource(): Promise<KeySource> {
    return (this.keys ??= KeySource.load(this.io.env, this.options.keyFile ? path.resolve(this.io.cwd, this.options.keyFile) : undefined));
  }

  /**
   * The client of one application, on the core client (the same origin rule as the extension: the
   * key goes to the base URL's origin only). No key is an auth error before anything is sent.
   */
  async client(app: CliApplication, how: { quiet?: boolean } = {}): Promise<CustomActionsClient> {
    const project = await this.loadProject();
    // The chosen target's server (or --base-url); another target's (promote) is its own.
    const baseUrl = app.target.name === project.target.target.name ? project.baseUrl : app.target.baseUrl;
    if (baseUrl === LOCAL_SANDBOX)
      throw new CliError(
        EXIT.usage,
        'customactions.yaml names the local sandbox, which only the editor starts by itself.',
        'Start one (custom-actions sandbox start) and pass the URL it prints with --base-url or CUSTOM_ACTIONS_BASE_URL.',
      );
    const keys = await this.keySource();
    const key = keys.keyFor(app.id, app.target);
    const on = app.target.name === project.target.target.name ? '' : ` on target ${app.target.name}`;
    if (key === undefined) throw new CliError(EXIT.auth, `No key for application ${app.label}${on}.`, keys.missingKeyHint(app.id, app.target));
    this.out.addSecret(key);
    await this.nameServer(how.quiet === true);
    const clientKey = `${app.target.name}\u0000${app.id}`;
    let client = this.clients.get(clientKey);
    if (!client) {
      const warning = [...this.clients.keys()].some((k) => k.startsWith(`${app.target.name}\u0000`)) ? undefined : plainHttpWarning(baseUrl);
      if (warning) this.out.warn(warning);
      client = createClient({
        baseUrl,
        transport: this.transport(),
        getKey: () => Promise.resolve(key),
        timeoutMs: this.timeoutMs(),
        // --timeout is the whole wait of a request, its retries included (a pipeline's budget).
        timeoutCoversRetries: true,
        userAgent: `custom-actions-cli/${VERSION}`,
      });
      this.clients.set(clientKey, client);
    }
    return client;
  }

  /** Which variable holds an application's key, and where from (never the key); undefined when none does. */
  async keyOrigin(app: CliApplication): Promise<KeyOrigin | undefined> {
    return (await this.keySource()).keyOrigin(app.id, app.target);
  }

  /** Which variables would give an application its key, as a sentence for a missing key. */
  async missingKeyHint(app: CliApplication): Promise<string> {
    return (await this.keySource()).missingKeyHint(app.id, app.target);
  }

  /**
   * A failure of one application's requests in the words that name it: a refused key names the
   * application and the variable its key came from, so a pipeline with a key per application knows
   * which secret to fix. Anything else is returned as it was.
   */
  async ofApplication(app: CliApplication, error: unknown): Promise<unknown> {
    if (!(error instanceof ApiError) || (error.kind !== 'auth' && error.kind !== 'forbidden')) return error;
    const origin = await this.keyOrigin(app);
    const which = origin ? ` (${keyOriginText(origin)})` : '';
    return new CliError(
      EXIT.auth,
      error.kind === 'auth'
        ? `The server refused the key of application ${app.label}${which}: ${error.message}`
        : `The key of application ${app.label}${which} may not do this on the server: ${error.message}`,
      origin
        ? `Check ${origin.variable}${origin.from === 'environment' ? '' : ` in ${origin.from}`}: it must be ${app.label}'s key on this server. The other applications are not affected.`
        : await this.missingKeyHint(app),
    );
  }

  /** The applications named (by their id on the target, or the applications list's), or all of them. */
  async applications(ids?: readonly string[], on?: CliProject): Promise<CliApplication[]> {
    const project = on ?? (await this.loadProject());
    if (!ids || ids.length === 0) return [...project.applications];
    return ids.map((id) => {
      const app = project.applications.find((a) => a.id === id) ?? project.applications.find((a) => a.projectId === id);
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
    const load = loadCached<typeof Analysis>(path.join(this.io.bundles, 'analysis.js'), {
      env: this.io.env,
      workspace: this.workspaceFolders(),
      warn: (message) => this.out.warn(message),
    });
    this.analysisLoad = load;
    if (this.io.env.CUSTOM_ACTIONS_DEBUG) this.io.stderr.write(`custom-actions: compiler code cache ${load.state}${load.file ? ` (${load.file})` : ''}\n`);
    return load.exports;
  }

  /**
   * After the command's work: the compiler's code cache is written when none was used, now that the
   * checks compiled what a run needs (a cache made at load would hold only the top level).
   */
  async finish(): Promise<void> {
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

/** A base URL as the parser writes it, without a user or password (never printed). */
function shownUrl(baseUrl: string): string {
  if (baseUrl === LOCAL_SANDBOX) return LOCAL_SANDBOX;
  const url = new URL(baseUrl);
  url.username = '';
  url.password = '';
  return url.href;
}

/**
 * `Server: https://platform.example.com/ (customactions.yaml)`: the server and who named it; with
 * named targets, which target's it is (`target production in customactions.yaml`), so it reads with
 * the target line above it.
 */
export function serverLine(server: ServerNamed): string {
  const source = server.source === 'customactions.yaml' && server.target !== undefined ? `target ${server.target} in customactions.yaml` : server.source;
  const over = server.overrides === undefined ? '' : `, over ${fileServer(server, server.overrides)}`;
  return `Server: ${server.url} (${source}${over})`;
}

/** The server customactions.yaml gives, as a line names it: `customactions.yaml's …` or `target production's …`. */
function fileServer(server: ServerNamed, url: string): string {
  return server.target === undefined ? `customactions.yaml's ${url}` : `target ${server.target}'s ${url}`;
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
