import { type CustomActionsClient } from '../../core/client';
import { type DeployLock, type LockedAction } from '../../core/deploy/lock';
import { deployTargets, type DeployTarget } from '../../core/deploy/plan';
import { type CommandContext } from '../context';
import { CliError, EXIT } from '../exitCodes';
import { type CliApplication, type CliProject, parseActionFolders, readActionFolders } from '../project';
import { ActionSelection, workspaceAction } from '../workspace';

/** `--concurrency` of the commands that work on many actions at once: 1 to 64. */
export function parseConcurrency(value: unknown): number {
  const concurrency = Number(value);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64)
    throw new CliError(EXIT.usage, `--concurrency must be a whole number from 1 to 64, not "${String(value)}".`);
  return concurrency;
}

export interface AppTargets {
  readonly app: CliApplication;
  readonly client: CustomActionsClient;
  readonly targets: DeployTarget[];
}

/**
 * The actions the operands name (all when none), in the workspace and on the server, matched by key,
 * each with its base from the lock. Every application's key is found before anything is read, so a
 * missing key stops the command before it sends anything.
 */
export async function collectTargets(
  context: CommandContext,
  project: CliProject,
  lock: DeployLock,
  operands: readonly string[],
  applicationIds: readonly string[] | undefined,
): Promise<AppTargets[]> {
  const apps = await context.applications(applicationIds);
  const files = await Promise.all(apps.map((app) => readActionFolders(app)));
  const clients = await Promise.all(apps.map((app) => context.client(app)));
  const selection = new ActionSelection(operands);
  const result = await Promise.all(
    apps.map(async (app, i) => {
      const client = clients[i]!;
      const baseOf = (key: string): LockedAction | undefined => lock.get(project.baseUrl, app.id, key);
      const [local, listed] = await Promise.all([
        parseActionFolders(app, files[i]!).then((folders) => folders.map((folder) => workspaceAction(project, folder))),
        client.listActions(app.id),
      ]);
      const targets = deployTargets(app.id, local, listed, baseOf).filter((t) => selection.includes(app.id, t.key));
      return { app, client, targets };
    }),
  );
  selection.checkAllUsed();
  return result;
}
