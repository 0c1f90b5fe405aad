/**
 * The processes this test process started, as the operating system sees them (Linux /proc): what
 * a runner process was really given, read from outside it, not what it says of itself.
 */
import { readdirSync, readFileSync, readlinkSync, realpathSync } from 'node:fs';

export interface LiveProcess {
  pid: number;
  /** The command line: the executable, then its arguments. */
  argv: string[];
  /** The environment it was started with (/proc/<pid>/environ). */
  env: Record<string, string>;
  cwd: string;
  /** CPU time used so far, in clock ticks (user and system). */
  cpuTicks: number;
}

export const canSeeProcesses = process.platform === 'linux';

/** Child processes of `parent` (this process by default) that run this same Node executable. */
export function nodeChildren(parent = process.pid): LiveProcess[] {
  const node = realpathSync(process.execPath);
  const children: LiveProcess[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      // The fields after the command name (which may hold spaces) start with the state, then the parent.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[1]) !== parent || readlinkSync(`/proc/${name}/exe`) !== node) continue;
      const split = (file: string) => readFileSync(`/proc/${name}/${file}`, 'utf8').split('\0').slice(0, -1);
      const env = Object.fromEntries(split('environ').map((entry) => [entry.slice(0, entry.indexOf('=')), entry.slice(entry.indexOf('=') + 1)]));
      children.push({
        pid: Number(name),
        argv: split('cmdline'),
        env,
        cwd: readlinkSync(`/proc/${name}/cwd`),
        cpuTicks: Number(fields[11]) + Number(fields[12]),
      });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return children;
}

/** Whether the process is still there (a zombie, ended but not yet reaped, counts as gone). */
export function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return false;
  }
}
