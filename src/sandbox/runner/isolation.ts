import path from 'node:path';
import { type SandboxLimits } from '../limits';

/** How a runner process is started: what it may do is decided here. */
export interface RunnerCommand {
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
  /** Whether Node's permission model confines it: no file system, child processes, workers or addons. */
  readonly confined: boolean;
}

/**
 * The runner's Node: the runner's code as the text to evaluate (it needs no file), its heap limit,
 * and whatever confinement this Node offers:
 *
 * - the permission model (`--permission`, or `--experimental-permission` before Node 22.13) with
 *   nothing granted: no file read or written, no child process, worker, addon or WASI;
 * - `--disallow-code-generation-from-strings`: the runner's own realm compiles nothing from strings,
 *   so an object of it that slipped into the sandbox's realm does not lead to `Function('return process')`
 *   (the sandbox's realm allows it for user code, per context);
 * - `--experimental-vm-modules`: needed for the hook that refuses dynamic imports with an error of the
 *   sandbox's realm.
 *
 * Each flag is passed only when this Node knows it (`process.allowedNodeEnvironmentFlags`). The
 * environment is empty: Electron needs ELECTRON_RUN_AS_NODE to behave as Node, nothing else is passed.
 * The working directory is the file system's root, which holds nothing of the sandbox.
 */
export function runnerCommand(source: string, limits: Pick<SandboxLimits, 'runMemoryMb'>): RunnerCommand {
  const known = process.allowedNodeEnvironmentFlags;
  const permission = ['--permission', '--experimental-permission'].find((flag) => known.has(flag));
  const optional = ['--disallow-code-generation-from-strings', '--experimental-vm-modules'].filter((flag) => known.has(flag));
  return {
    args: [...(permission ? [permission] : []), ...optional, `--max-old-space-size=${limits.runMemoryMb}`, '--max-semi-space-size=8', '--eval', source],
    env: process.versions.electron ? { ELECTRON_RUN_AS_NODE: '1' } : {},
    cwd: path.parse(process.cwd()).root,
    confined: permission !== undefined,
  };
}
