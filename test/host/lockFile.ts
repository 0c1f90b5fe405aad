import * as vscode from 'vscode';
import { type BaseVersion } from '../../src/core/deploy/base';
import { type Part } from '../../src/core/deploy/decide';
import { DeployLock, LOCK_FILE, type LockedAction } from '../../src/core/deploy/lock';
import { type Application } from '../../src/extension/project';
import { type Services } from '../../src/extension/services';
import { eventually, workspaceRoot } from './support';

/** The workspace's customactions.lock.json as the command line reads it; empty when there is none. */
export async function readLock(): Promise<DeployLock> {
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(vscode.Uri.joinPath(workspaceRoot(), LOCK_FILE)));
  } catch {
    return DeployLock.empty();
  }
  const parsed = DeployLock.parse(text);
  if ('problem' in parsed) throw new Error(`${LOCK_FILE} is not a lock: ${parsed.problem.message}`);
  return parsed.lock;
}

/** The lock's entry of action `id` of `app`, on the server the project names now. */
export async function lockedAction(services: Services, app: Application, id: string): Promise<LockedAction | undefined> {
  const state = await services.project.only().catch(() => undefined);
  if (!state) return undefined;
  const lock = await readLock();
  const key = lock.keys(state.baseUrl, app.id).find((k) => lock.get(state.baseUrl, app.id, k)?.id === id);
  return key === undefined ? undefined : lock.get(state.baseUrl, app.id, key);
}

/**
 * Waits until the lock file's base of a part satisfies `ok` (the file is written behind the push),
 * and returns it.
 */
export function lockedPart(
  services: Services,
  app: Application,
  id: string,
  part: Part,
  ok: (base: BaseVersion | undefined) => boolean,
  what: string,
): Promise<BaseVersion | undefined> {
  return eventually(async () => {
    const base = (await lockedAction(services, app, id))?.[part];
    return ok(base) ? { base } : undefined;
  }, what).then((found) => found.base);
}
