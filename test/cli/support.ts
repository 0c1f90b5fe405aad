import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { Interrupts } from '../../src/cli/interrupt';
import { type Stream } from '../../src/cli/io';
import { runCommandLine } from '../../src/cli/program';
import { type ActionMetadata } from '../../src/core/schema';
import { type Sandbox, startSandbox } from '../../src/sandbox';

export const ROOT = path.join(__dirname, '..', '..');
export const CLI = path.join(ROOT, 'dist', 'cli.js');

export interface CliResult {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
  /** stdout and stderr together, for assertions that a text appears nowhere. */
  readonly output: string;
}

export interface RunOptions {
  readonly cwd: string;
  readonly env?: Record<string, string>;
  /** A built command to run as a process (the packed package's bin); the built dist/cli.js when `spawnCli` is called without it. */
  readonly cli?: string;
}

/**
 * Runs the command line as a pipeline does: no terminal, nothing on stdin, an environment with only
 * what the test gives it (and PATH), so keys of the machine running the tests cannot leak in.
 *
 * In this process by default (`runInProcess`): the program from source, with an io of its own, in
 * milliseconds. As the built process (`spawnCli`) when the test names a `cli`, or for the whole suite
 * with CUSTOM_ACTIONS_CLI_PROCESS=1 (both layers must then pass the same tests: docs/testing.md).
 */
export function runCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  return options.cli === undefined && !process.env.CUSTOM_ACTIONS_CLI_PROCESS ? runInProcess(args, options) : spawnCli(args, options);
}

/**
 * The whole program in this process (src/cli/program.ts's `runCommandLine`, as main.ts calls it),
 * with the same environment, folder and streams a process would have, all its own: its Ctrl+C, its
 * HTTP transport. The bundles it loads beside itself (the compiler's, the sandbox's) are the build's.
 */
export async function runInProcess(args: readonly string[], options: Omit<RunOptions, 'cli'>): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const stream = (write: (text: string) => void): Stream => ({ write, isTTY: false });
  const code = await runCommandLine(args, {
    stdout: stream((text) => (stdout += text)),
    stderr: stream((text) => (stderr += text)),
    stdinIsTTY: false,
    // stdin is empty, as the process's is ignored.
    readLine: () => Promise.resolve(undefined),
    env: { PATH: process.env.PATH ?? '', ...options.env },
    cwd: options.cwd,
    interrupts: new Interrupts(() => {
      throw new Error('an in-process run was interrupted with nothing to wind down: test that on the built process (spawnCli)');
    }),
    bundles: path.join(ROOT, 'dist'),
  });
  return { code, stdout, stderr, output: stdout + stderr };
}

/** Runs the built command (dist/cli.js, or `cli`) as a process: exit codes, signals and pipes as a shell sees them. */
export function spawnCli(args: readonly string[], options: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [options.cli ?? CLI, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (stdout += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (stderr += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr, output: stdout + stderr }));
  });
}

/** A sandbox with two applications, and the key of each. */
export async function cliSandbox(): Promise<Sandbox> {
  return startSandbox({
    applications: [
      { id: 'app-a', name: 'App A' },
      { id: 'app-b', name: 'App B' },
    ],
    log: () => undefined,
  });
}

export function keyOf(sandbox: Sandbox, applicationId: string): string {
  const app = sandbox.applications.find((a) => a.id === applicationId);
  if (!app) throw new Error(`no application ${applicationId}`);
  return app.key;
}

/** A new folder for a project; removed after the suite by `cleanup`. */
/** One suite's sandbox and scratch folders: the sandbox started before its tests, both gone after them. */
export function suiteSandbox(): { readonly scratch: Scratch; readonly sandbox: Sandbox; readonly env: Record<string, string> } {
  const scratch = new Scratch();
  let started: Sandbox | undefined;
  before(async () => {
    started = await cliSandbox();
  });
  after(async () => {
    await started?.close();
    scratch.cleanup();
  });
  return {
    scratch,
    get sandbox(): Sandbox {
      if (!started) throw new Error("the suite's sandbox starts in its before hook");
      return started;
    },
    /** The environment of a run as application app-a. */
    get env(): Record<string, string> {
      return { CUSTOM_ACTIONS_KEY: keyOf(this.sandbox, 'app-a') };
    },
  };
}

export class Scratch {
  private readonly dirs: string[] = [];

  dir(): string {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-cli-'));
    this.dirs.push(dir);
    return dir;
  }

  cleanup(): void {
    for (const dir of this.dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  }
}

/** Writes customactions.yaml into `dir`, one application folder per application. */
export function writeProject(dir: string, baseUrl: string, applications: readonly string[] = ['app-a']): void {
  writeFileSync(
    path.join(dir, 'customactions.yaml'),
    stringify({ baseUrl, applications: applications.map((id) => ({ id, name: id.toUpperCase(), folder: id })) }),
  );
}

/** Writes an action folder: action.yaml and, when given, main.ts. */
export function writeAction(dir: string, applicationFolder: string, metadata: ActionMetadata, code?: string): string {
  const folder = path.join(dir, applicationFolder, metadata.key);
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'action.yaml'), stringify(metadata));
  if (code !== undefined) writeFileSync(path.join(folder, 'main.ts'), code);
  return folder;
}

export { textMain } from '../support/deployScenarios';

/** The writes among the requests a proxy saw since `mark`, as `METHOD path`. */
export function writes(proxy: { readonly requests: readonly { method: string; path: string }[] }, mark: number): string[] {
  return proxy.requests
    .slice(mark)
    .filter((r) => r.method !== 'GET' && r.method !== 'HEAD')
    .map((r) => `${r.method} ${r.path}`);
}

/** The code the sandbox holds for an action, straight from its API. */
export async function serverCode(sandbox: Sandbox, applicationId: string, id: string): Promise<string | undefined> {
  const response = await fetch(`${sandbox.url}/api/actions/${id}/implementation`, { headers: { authorization: `Bearer ${keyOf(sandbox, applicationId)}` } });
  return response.status === 200 ? response.text() : undefined;
}

/** A colleague's push of code, from another client (its User-Agent names it in the versions). */
export async function putCode(sandbox: Sandbox, key: string, id: string, code: string, userAgent: string): Promise<void> {
  const response = await fetch(`${sandbox.url}/api/actions/${id}/implementation`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/typescript', 'user-agent': userAgent },
    body: code,
  });
  if (!response.ok) throw new Error(`PUT failed: ${response.status} ${await response.text()}`);
}
