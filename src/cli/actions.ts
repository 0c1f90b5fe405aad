import { type ListedAction } from '../core/client';
import { type Environment, ENVIRONMENTS } from '../core/schema';
import { serverText } from '../core/text';
import { type CommandContext } from './context';
import { describeNameProblems, selectActions } from '../core/workspace';
import { CliError, EXIT } from './exitCodes';
import { type CliApplication, type LocalActionFolder, scanApplication } from './project';
import { actionNames } from './workspace';

/** The local action folders named (all of the applications' when none is), by the core's rule of naming actions; a usage error otherwise. */
export async function localActions(context: CommandContext, operands: readonly string[], applicationIds?: readonly string[]): Promise<LocalActionFolder[]> {
  const apps = await context.applications(applicationIds);
  const all = (await Promise.all(apps.map((app) => scanApplication(app)))).flat();
  const names = actionNames(operands);
  const { chosen, problems } = selectActions(names, all, (a) => ({ application: a.application.id, key: a.key }));
  const unknown = problems.filter((p) => p.kind === 'unknown');
  if (problems.length > unknown.length) throw new CliError(EXIT.usage, describeNameProblems(problems.filter((p) => p.kind !== 'unknown')));
  if (unknown.length > 0)
    throw new CliError(
      EXIT.usage,
      `No action ${unknown.map((p) => `"${p.name}"`).join(', ')} in the workspace.`,
      'Action folders hold an action.yaml; see custom-actions status.',
    );
  return chosen;
}

/** One action as the server lists it, with its application and the workspace's folder when there is one. */
export interface ServerAction {
  readonly application: CliApplication;
  readonly listed: ListedAction;
  readonly local: LocalActionFolder | undefined;
}

/**
 * The actions named, as the server lists them, by the core's rule of naming actions over what the
 * workspace and the servers hold: `application/key`, or a key one application holds (in its
 * folders or on its server). Unknown and ambiguous names are usage errors (exit 2).
 */
export async function serverActions(context: CommandContext, operands: readonly string[], applicationIds?: readonly string[]): Promise<ServerAction[]> {
  const apps = await context.applications(applicationIds);
  const names = actionNames(operands);
  for (const name of names)
    if (name.application !== undefined && !apps.some((a) => a.id === name.application))
      throw new CliError(EXIT.usage, `customactions.yaml has no application "${name.application}".`);
  // Only the applications a name can reach are listed: those named, else every one.
  const wanted = names.length > 0 && names.every((n) => n.application !== undefined) ? apps.filter((a) => names.some((n) => n.application === a.id)) : apps;
  const read = await Promise.all(
    wanted.map(async (app) => {
      const [local, listed] = await Promise.all([scanApplication(app), context.client(app).then((client) => client.listActions(app.id))]);
      return { app, local, listed };
    }),
  );
  const candidates = read.flatMap(({ app, local, listed }) => [
    ...listed.map((l) => ({ app, key: l.key, listed: l as ListedAction | undefined })),
    ...local.filter((f) => !listed.some((l) => l.key === f.key)).map((f) => ({ app, key: f.key, listed: undefined })),
  ]);
  const { chosen, problems } = selectActions(names, candidates, (c) => ({ application: c.app.id, key: c.key }));
  const unknown = problems.find((p) => p.kind === 'unknown');
  const within = unknown && (actionNames([unknown.name])[0]?.application ?? (wanted.length === 1 ? wanted[0]!.id : undefined));
  const app = within === undefined ? undefined : wanted.find((a) => a.id === within);
  if (unknown && app && problems.length === 1)
    throw new CliError(
      EXIT.usage,
      `The server has no action "${actionNames([unknown.name])[0]!.key}" in application ${app.label}.`,
      'Deploy it first (custom-actions deploy).',
    );
  if (problems.length > 0) throw new CliError(EXIT.usage, describeNameProblems(problems), 'Name an action by its key, or as <application-id>/<key>.');
  const localOf = (app: CliApplication, key: string) => read.find((r) => r.app === app)!.local.find((l) => l.key === key);
  const out: ServerAction[] = [];
  for (const c of chosen) {
    if (!c.listed) {
      if (names.length === 0) continue;
      throw new CliError(EXIT.usage, `The server has no action "${c.key}" in application ${c.app.label}.`, 'Deploy it first (custom-actions deploy).');
    }
    out.push({ application: c.app, listed: c.listed, local: localOf(c.app, c.key) });
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
