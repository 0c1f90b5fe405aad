import { execFileSync } from 'node:child_process';

/**
 * The branch git has checked out in `folder`, for a CI that names it in no variable of its own;
 * undefined when git is missing, the folder is no repository, or HEAD is detached (a CI's usual
 * checkout of a commit), so the default target is used and the line that names it says why.
 */
export function gitBranch(folder: string, env: Readonly<Record<string, string | undefined>>): { readonly name: string; readonly from: string } | undefined {
  try {
    const name = execFileSync('git', ['rev-parse', '--abbrev-ref', 'HEAD'], {
      cwd: folder,
      env,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 10_000,
    }).trim();
    return name && name !== 'HEAD' ? { name, from: 'git' } : undefined;
  } catch {
    return undefined;
  }
}
