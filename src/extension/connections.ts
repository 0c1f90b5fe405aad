import * as vscode from 'vscode';
import { ApiError, createClient, type CustomActionsClient } from '../core/client';
import { serverText } from '../core/text';
import { type Config } from './config';
import { type KeyStore, normalizeBaseUrl } from './keyStore';
import { Disposable } from './lifecycle';
import { type Application, NoProjectError, type ProjectModel, serverOf } from './project';

import { type SandboxManager } from './sandboxManager';
import { type WorkspaceTrust } from './trust';

/** A server answered a request (`ok`, whatever its status) or could not be reached; `server` as serverOf names it. */
export interface Reached {
  readonly server: string;
  readonly ok: boolean;
  readonly error?: string;
}

export class NoKeyError extends Error {
  constructor(readonly application: Application) {
    super(`No key for ${application.label}: run "Custom Actions: Sign In".`);
  }
}

/**
 * Hands out one client per application, with the key read from SecretStorage on every request so a
 * new key takes effect at once. A 401 leads to one prompt per application, however many requests
 * failed together, and the failed operation runs again with the new key.
 */
export class Connections extends Disposable {
  private readonly clients = new Map<string, CustomActionsClient>();
  private readonly prompts = new Map<string, Promise<boolean>>();
  private readonly reached = this.register(new vscode.EventEmitter<Reached>());
  /** Whether a server answered a request at all (any HTTP status counts as an answer), and which server. */
  readonly onDidReach = this.reached.event;

  constructor(
    private readonly project: ProjectModel,
    private readonly keys: KeyStore,
    private readonly sandbox: SandboxManager,
    private readonly config: () => Config,
    private readonly trust: WorkspaceTrust,
  ) {
    super();
    this.register(project.onDidChange(() => this.clients.clear()));
    this.register(sandbox.onDidChangeState(() => this.clients.clear()));
  }

  /**
   * The base URL requests of a project go to (the application's; without one, the workspace's only
   * project's, an error when there are several): its own, or the running sandbox's (started on demand).
   */
  async baseUrl(of?: Pick<Application, 'project'>): Promise<{ logical: string; actual: string }> {
    const state = of ? this.project.currentOf(of) : await this.project.only();
    if (state.kind !== 'ok') throw new NoProjectError(state.message);
    if (!state.isSandbox) return { logical: normalizeBaseUrl(state.baseUrl), actual: normalizeBaseUrl(state.baseUrl) };
    // The sandbox runs the workspace's main.ts.
    this.trust.require('Starting the local sandbox');
    // One sandbox serves every project that names it: it is asked for all their applications, so
    // a request of one project does not restart it without the other's.
    const { applications, demo } = await this.project.sandboxApplications();
    const actual = await this.sandbox.ensure(applications, demo);
    return { logical: state.baseUrl, actual };
  }

  async client(app: Application): Promise<CustomActionsClient> {
    // Every request carries the key, to the base URL the workspace's text names: not before it is trusted.
    this.trust.require('Talking to the server');
    const { logical, actual } = await this.baseUrl(app);
    if (!(await this.keys.has(logical, app.id))) throw new NoKeyError(app);
    const id = `${actual}\n${app.id}`;
    let client = this.clients.get(id);
    if (!client) {
      client = createClient({
        baseUrl: actual,
        getKey: () => this.keys.get(logical, app.id),
        timeoutMs: this.config().requestTimeoutMs,
      });
      this.clients.set(id, client);
    }
    return client;
  }

  /** A client for a key that is not stored yet, to check it before it is. */
  async probe(app: Application, key: string): Promise<void> {
    this.trust.require('Checking a key with the server');
    const { actual } = await this.baseUrl(app);
    const client = createClient({ baseUrl: actual, getKey: () => Promise.resolve(key), timeoutMs: this.config().requestTimeoutMs, retries: 0 });
    await client.listActions(app.id);
  }

  /**
   * Runs `operation`; on a refused key, asks once for a new one and runs it again. In the background
   * (`waitForKey: false`, the tree) the failure returns at once and the same single prompt is raised
   * without being awaited: a new key refreshes the tree through the key store's change event.
   */
  async call<T>(app: Application, operation: (client: CustomActionsClient) => Promise<T>, options: { waitForKey?: boolean } = {}): Promise<T> {
    try {
      return await this.observe(app, operation(await this.client(app)));
    } catch (error) {
      if (!(error instanceof ApiError && error.kind === 'auth')) throw error;
      if (options.waitForKey === false) {
        void this.askForNewKey(app);
        throw error;
      }
      if (!(await this.askForNewKey(app))) throw error;
      return this.observe(app, operation(await this.client(app)));
    }
  }

  private async observe<T>(app: Application, pending: Promise<T>): Promise<T> {
    // The server the request went to, as its project names it: the status bar keeps a mark per server.
    const server = serverOf(this.project.currentOf(app));
    try {
      const result = await pending;
      if (server) this.reached.fire({ server, ok: true });
      return result;
    } catch (error) {
      if (server && error instanceof ApiError && error.kind !== 'cancelled') {
        const unreachable = error.kind === 'network' || error.kind === 'timeout';
        this.reached.fire(unreachable ? { server, ok: false, error: error.message } : { server, ok: true });
      }
      throw error;
    }
  }

  private askForNewKey(app: Application): Promise<boolean> {
    // One prompt per key: the server and the application id (two projects may share both).
    const id = `${normalizeBaseUrl(app.project.baseUrl)}\n${app.id}`;
    let prompt = this.prompts.get(id);
    if (!prompt) {
      prompt = this.promptForKey(app).finally(() => this.prompts.delete(id));
      this.prompts.set(id, prompt);
    }
    return prompt;
  }

  private async promptForKey(app: Application): Promise<boolean> {
    const choice = await vscode.window.showWarningMessage(`The server refused the key for "${app.label}" (401). Enter a new key to continue.`, 'Enter New Key');
    if (choice !== 'Enter New Key') return false;
    return (await enterKey(this, this.keys, app)) !== undefined;
  }
}

/** Asks for a key in a password box, checks it with a list call, and stores it only if the server accepts it. */
export async function enterKey(connections: Connections, keys: KeyStore, app: Application, allApplications = false): Promise<string | undefined> {
  const key = await askCheckedKey({
    title: allApplications ? 'Default key for every application of this server' : `Key for ${app.label}`,
    label: app.label,
    check: (key) => connections.probe(app, key),
  });
  if (key === undefined) return undefined;
  const { logical } = await connections.baseUrl(app);
  await keys.set(logical, allApplications ? '*' : app.id, key);
  return key;
}

/**
 * The key typed in a password box, once `check` (a list call with it) passed; undefined when the box
 * was dismissed or the server refused it (said in a notification). Storing it is the caller's.
 */
export async function askCheckedKey(ask: {
  readonly title: string;
  readonly label: string;
  readonly check: (key: string) => Promise<void>;
}): Promise<string | undefined> {
  const key = await vscode.window.showInputBox({
    title: ask.title,
    prompt: 'The key of the actions interface, sent as "Authorization: Bearer <key>". It is kept in VS Code\'s secret storage.',
    password: true,
    ignoreFocusOut: true,
    validateInput: (value) => (value.trim() ? undefined : 'Enter the key'),
  });
  if (!key) return undefined;
  const trimmed = key.trim();
  try {
    await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Checking the key for ${ask.label}…` }, () => ask.check(trimmed));
  } catch (error) {
    const reason = error instanceof ApiError && error.kind === 'auth' ? 'the server refused it (401)' : errorMessage(error);
    void vscode.window.showErrorMessage(`The key was not saved: ${reason}`);
    return undefined;
  }
  return trimmed;
}

/** Room for a validation error that names several fields. */
const ERROR_TEXT_MAX = 1000;

/**
 * What a failure says, for notifications, tree rows, the status bar and the log. An error carries
 * server text (a 422's detail, the fields it names, a key): it passes through serverText here, once
 * for every place that shows an error, so a detail like `[click](command:…)` is text, not a link.
 */
export function errorMessage(error: unknown): string {
  const raw =
    error instanceof ApiError ? (error.hint ? `${error.message} ${error.hint}` : error.message) : error instanceof Error ? error.message : String(error);
  return serverText(raw, ERROR_TEXT_MAX);
}
