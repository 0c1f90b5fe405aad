/**
 * The sandbox's command line as a process of its own on a PostgreSQL database, as a team runs several
 * behind a load balancer (docs/team-sandbox.md): nothing is shared with the test, or with another
 * such process, but the database.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { requester, type Requester, ROOT } from './support';

export const SANDBOX_CLI = path.join(ROOT, 'src/sandbox/cli.ts');

export interface SandboxProcess {
  url: string;
  /** The applications it ensured at start (`--ensure-app`), each with a key. */
  applications: { id: string; key: string }[];
  request: Requester;
  child: ChildProcess;
  stderr: () => string;
  exited: Promise<number | null>;
}

/** Starts the sandbox CLI with `--json` on a free port and `args`; resolves once it printed where it listens. */
export function startSandboxProcess(databaseUrl: string, args: readonly string[] = []): Promise<SandboxProcess> {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', SANDBOX_CLI, '--json', '--port', '0', ...args], {
    cwd: ROOT,
    env: { ...process.env, CUSTOM_ACTIONS_DATABASE_URL: databaseUrl },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`the sandbox exited with ${code}: ${stderr}`)));
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (!stdout.includes('\n')) return;
      const { url, applications } = JSON.parse(stdout) as { url: string; applications: { id: string; key: string }[] };
      resolve({ url, applications, request: requester(url), child, stderr: () => stderr, exited });
    });
  });
}

/** SIGTERM, then waits for the exit; nothing to do for a process already gone. */
export async function stopSandboxProcess(p: SandboxProcess | undefined): Promise<void> {
  if (!p || p.child.exitCode !== null || p.child.signalCode !== null) return;
  p.child.kill('SIGTERM');
  await p.exited;
}
