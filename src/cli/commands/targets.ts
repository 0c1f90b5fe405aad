import { type CustomActionsClient } from '../../core/client';
import { type DeployLock, type LockedAction } from '../../core/deploy/lock';
import { deployTargets, type DeployTarget } from '../../core/deploy/plan';
import { looksReset } from '../../core/deploy/reset';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode } from '../exitCodes';
import { type CliApplication, type CliProject, parseActionFolders, readActionFolders } from '../project';
import { selectNamed, workspaceAction } from '../workspace';

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
  /** The server refused this application's key: it has no targets, and the others go on. */
  readonly refused?: CliError;
  /** The server holds none of the actions the lock names for this application (`looksReset`). */
  readonly reset?: boolean;
}

/**
 * Said once per application whose server looks new or reset, instead of a hint to pull that cannot
 * bring anything back: how to deploy the workspace there again.
 */
export function reportReset(context: CommandContext, apps: readonly AppTargets[], server: string): void {
  for (const { app, reset } of apps)
    if (reset)
      context.out.info(
        `None of the actions this repository deployed to application ${app.label} is on ${server} any more: the server looks new or reset (a sandbox restarted on the same port starts empty). Nothing to pull; custom-actions deploy --force${
          apps.length > 1 ? ` -a ${app.id}` : ''
        } creates them anew from this workspace.`,
      );
}

/**
 * The applications whose key the server refused, each said on stderr with the variable to fix; their
 * exit code (3) for the command's to weigh, and their lines for its `--json` document.
 */
export function reportRefused(
  context: CommandContext,
  apps: readonly AppTargets[],
): { exits: ExitCode[]; json: { application: string; exitCode: number; message: string }[] } {
  const refused = apps.filter((a): a is AppTargets & { refused: CliError } => a.refused !== undefined);
  for (const { refused: error } of refused) context.out.error(error.message, error.hint);
  return {
    exits: refused.map((a) => a.refused.exitCode),
    json: refused.map((a) => ({ application: a.app.id, exitCode: a.refused.exitCode, message: a.refused.message })),
  };
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
  const result = await Promise.all(
    apps.map(async (app, i) => {
      const client = clients[i]!;
      const baseOf = (key: string): LockedAction | undefined => lock.get(project.baseUrl, app.id, key);
      const [local, answer] = await Promise.all([
        parseActionFolders(app, files[i]!).then((folders) => folders.map((folder) => workspaceAction(project, folder))),
        client.listActions(app.id).then(
          (listed) => ({ listed }),
          (error: unknown) => ({ error }),
        ),
        // Asked beside the list, which every command here reads first, instead of after it by the first
        // read or write. Its failure is the list's to report (the client asks again when it is needed).
        client.capabilities().catch(() => undefined),
      ]);
      if ('error' in answer) {
        // A refused key names its application and variable, and the other applications go on.
        const named = await context.ofApplication(app, answer.error);
        if (named instanceof CliError && named.exitCode === EXIT.auth) return { app, client, targets: [], refused: named };
        throw named;
      }
      const { listed } = answer;
      const targets = deployTargets(app.id, local, listed, baseOf, lock.entries(project.baseUrl, app.id));
      return { app, client, targets, reset: looksReset(targets, new Set(listed.map((l) => l.id))) };
    }),
  );
  // Named across every application at once, so a key two of them hold is asked about, not taken
  // twice. An action named in an application whose key was refused is not "unknown": its error says why.
  const chosen = new Set(
    selectNamed(
      operands,
      result.flatMap((r) => r.targets),
      (t) => t,
      result.some((r) => r.refused),
    ),
  );
  return result.map((r) => ({ ...r, targets: r.targets.filter((t) => chosen.has(t)) }));
}
