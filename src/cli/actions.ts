import { type ListedAction } from '../core/client';
import { type Environment, ENVIRONMENTS } from '../core/schema';
import { serverText } from '../core/text';
import { type CommandContext } from './context';
import { CliError, EXIT } from './exitCodes';
import { type CliApplication, type LocalActionFolder, scanApplication } from './project';

/**
 * Actions named on the command line: `key`, or `application/key` when several applications could
 * hold the key. Shared by the commands that work on actions (test, events, run).
 */
export interface ActionName {
  readonly application?: string;
  readonly key: string;
}

export function parseActionName(operand: string): ActionName {
  const slash = operand.indexOf('/');
  const name = slash < 0 ? { key: operand } : { application: operand.slice(0, slash), key: operand.slice(slash + 1) };
  if (!name.key || name.application === '') throw new CliError(EXIT.usage, `"${operand}" is not an action: give its key, or application/key.`);
  return name;
}

/** The local action folders named (all of the applications' when none is), each found or a usage error. */
export async function localActions(context: CommandContext, operands: readonly string[], applicationIds?: readonly string[]): Promise<LocalActionFolder[]> {
  const apps = await context.applications(applicationIds);
  const scanned = await Promise.all(apps.map((app) => scanApplication(app)));
  const all = scanned.flat();
  if (operands.length === 0) return all;
  const picked: LocalActionFolder[] = [];
  for (const operand of operands) {
    const name = parseActionName(operand);
    const found = all.filter((a) => a.key === name.key && (name.application === undefined || a.application.id === name.application));
    if (found.length === 0)
      throw new CliError(EXIT.usage, `No action "${operand}" in the workspace.`, 'Action folders hold an action.yaml; see custom-actions status.');
    if (found.length > 1)
      throw new CliError(
        EXIT.usage,
        `"${operand}" is in ${found.length} applications: name one as ${found.map((a) => `${a.application.id}/${a.key}`).join(' or ')}.`,
      );
    if (!picked.includes(found[0]!)) picked.push(found[0]!);
  }
  return picked;
}

/** One action as the server lists it, with its application and the workspace's folder when there is one. */
export interface ServerAction {
  readonly application: CliApplication;
  readonly listed: ListedAction;
  readonly local: LocalActionFolder | undefined;
}

/**
 * The actions named, as the server lists them: the application is the one named, else the one whose
 * folder holds the key, else the only application. Unknown keys are usage errors (exit 2).
 */
export async function serverActions(context: CommandContext, operands: readonly string[], applicationIds?: readonly string[]): Promise<ServerAction[]> {
  const apps = await context.applications(applicationIds);
  const scanned = new Map<string, LocalActionFolder[]>();
  for (const app of apps) scanned.set(app.id, await scanApplication(app));
  const listings = new Map<string, Promise<ListedAction[]>>();
  const listing = (app: CliApplication) => {
    let list = listings.get(app.id);
    if (!list) {
      list = context.client(app).then((client) => client.listActions(app.id));
      listings.set(app.id, list);
    }
    return list;
  };
  if (operands.length === 0) {
    const out: ServerAction[] = [];
    for (const app of apps)
      for (const listed of await listing(app)) out.push({ application: app, listed, local: scanned.get(app.id)!.find((a) => a.key === listed.key) });
    return out;
  }
  const out: ServerAction[] = [];
  for (const operand of operands) {
    const name = parseActionName(operand);
    let app: CliApplication | undefined;
    if (name.application !== undefined) {
      app = apps.find((a) => a.id === name.application);
      if (!app) throw new CliError(EXIT.usage, `customactions.yaml has no application "${name.application}".`);
    } else {
      const holding = apps.filter((a) => scanned.get(a.id)!.some((l) => l.key === name.key));
      app = holding.length === 1 ? holding[0] : apps.length === 1 ? apps[0] : undefined;
      if (!app) throw new CliError(EXIT.usage, `Which application's "${name.key}"? Name it as application/key (${apps.map((a) => a.id).join(', ')}).`);
    }
    const listed = (await listing(app)).find((a) => a.key === name.key);
    if (!listed)
      throw new CliError(EXIT.usage, `The server has no action "${name.key}" in application ${app.label}.`, 'Deploy it first (custom-actions deploy).');
    out.push({ application: app, listed, local: scanned.get(app.id)!.find((l) => l.key === name.key) });
  }
  return out;
}

/** `Test`, `live`, `LIVE`: an environment of the spec, or a usage error. */
export function parseEnvironment(value: string, option: string): Environment {
  const found = ENVIRONMENTS.find((e) => e.toLowerCase() === value.toLowerCase());
  if (!found) throw new CliError(EXIT.usage, `${option} must be ${ENVIRONMENTS.join(' or ')}, not "${value}".`);
  return found;
}

/** An action's name for a line of output: application/key, made safe when the key came from a server. */
export function actionLabel(application: CliApplication, key: string): string {
  return `${application.id}/${serverText(key, 120)}`;
}
