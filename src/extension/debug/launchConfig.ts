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
    ...(Object.keys(runtime.env).length > 0 ? { env: runtime.env } : {}),
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
