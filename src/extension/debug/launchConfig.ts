import type * as vscode from 'vscode';
import { harnessRuntime } from './localHarness';

/** Marks the node launch configurations this extension made, so their sessions are found again. */
export const RUN_ID = '__customActionsRun';

export interface HarnessLaunch {
  readonly name: string;
  readonly harness: string;
  readonly requestFile: string;
  readonly outcomeFile: string;
  readonly cwd: string;
  readonly runId: string;
  /** The `customActions.debug.runtimeExecutable` setting; empty for the extension host's own Node. */
  readonly runtimeExecutable: string;
}

/** What a debugged run keeps of the extension host's environment: where programs and the temporary folder are. */
const KEPT = new Set(['PATH', 'Path', 'SystemRoot', 'TMPDIR', 'TMP', 'TEMP']);

/**
 * The program's environment: the JavaScript debugger starts it with its own process's environment
 * (the extension host's: whatever VS Code was started with, tokens and keys included) under the
 * launch's `env`, where null removes a variable. Every variable but KEPT is removed; the debugger then
 * adds what it needs itself (NODE_OPTIONS with its bootloader, VSCODE_INSPECTOR_OPTIONS).
 */
export function debuggeeEnvironment(runtimeEnv: Readonly<Record<string, string>>, from: NodeJS.ProcessEnv = process.env): Record<string, string | null> {
  const env: Record<string, string | null> = {};
  for (const name of Object.keys(from)) if (!KEPT.has(name)) env[name] = null;
  return { ...env, ...runtimeEnv };
}

/**
 * The launch configuration VS Code's own JavaScript debugger runs: Node on the harness. By default
 * the extension host's runtime; in desktop VS Code that is Electron, which behaves as Node with
 * ELECTRON_RUN_AS_NODE. Source maps: the script is in no file (inline map, outFiles empty), so the
 * debugger waits for each script's map before it runs, and breakpoints in main.ts bind at once.
 */
export function harnessLaunchConfig(h: HarnessLaunch): vscode.DebugConfiguration {
  const runtime = harnessRuntime(h.runtimeExecutable);
  return {
    type: 'node',
    request: 'launch',
    name: h.name,
    program: h.harness,
    args: [h.requestFile, h.outcomeFile],
    cwd: h.cwd,
    runtimeExecutable: runtime.command,
    env: debuggeeEnvironment(runtime.env),
    console: 'internalConsole',
    outputCapture: 'std',
    outFiles: [],
    resolveSourceMapLocations: null,
    pauseForSourceMap: true,
    autoAttachChildProcesses: false,
    // Stepping stays in main.ts: the harness and Node's internals are not the user's code.
    skipFiles: ['<node_internals>/**', h.harness],
    [RUN_ID]: h.runId,
  };
}
