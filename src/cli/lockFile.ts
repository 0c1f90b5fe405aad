import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DeployLock, LOCK_FILE, lockProblemAt, lockProblemFix } from '../core/deploy/lock';
import { type ActionOutcome } from '../core/deploy/outcome';
import { CliError, EXIT } from './exitCodes';
import { writeInProject } from './projectWrite';

/** The project's lock (customactions.lock.json), or an empty one when the file does not exist yet. */
export async function readLock(root: string): Promise<DeployLock> {
  let text: string;
  try {
    text = await readFile(path.join(root, LOCK_FILE), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return DeployLock.empty();
    throw error;
  }
  const parsed = DeployLock.parse(text);
  if ('problem' in parsed)
    throw new CliError(
      EXIT.usage,
      `${lockProblemAt(LOCK_FILE, parsed.problem)}: ${LOCK_FILE} is invalid: ${parsed.problem.message}.`,
      lockProblemFix(parsed.problem),
    );
  return parsed.lock;
}

/** The lock with what a run found and did, for the server at `baseUrl`. */
export function applyOutcomes(lock: DeployLock, baseUrl: string, outcomes: readonly ActionOutcome[]): DeployLock {
  return lock.withAll(
    baseUrl,
    outcomes.flatMap((o) => (o.base === undefined ? [] : [{ applicationId: o.application, key: o.key, entry: o.base }])),
  );
}

/**
 * Writes the lock when its text changed, through the write guard's temporary file and rename, so an
 * interrupted write leaves the old file whole rather than half a new one, and a planted link is not followed.
 */
export async function writeLock(root: string, before: DeployLock, after: DeployLock): Promise<boolean> {
  const text = after.serialize();
  if (text === before.serialize()) return false;
  await writeInProject(root, path.join(root, LOCK_FILE), text);
  return true;
}
