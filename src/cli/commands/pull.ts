import path from 'node:path';
import { type Command } from 'commander';
import { type ListedAction } from '../../core/client';
import { type Part } from '../../core/deploy/decide';
import { type LockedAction } from '../../core/deploy/lock';
import { mapLimited } from '../../core/deploy/pipeline';
import { PART_FILE, planPull, pullFolder, type PullPlan } from '../../core/deploy/pull';
import { count, serverText } from '../../core/text';
import { ACTION_FILE, GENERATED_FILE, MAIN_FILE, sharedKeys } from '../../core/workspace';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode, worstExit } from '../exitCodes';
import { readLock, writeLock } from '../lockFile';
import { type CliApplication, readOptional, scanApplication } from '../project';
import { writeInProject, writeRefusal } from '../projectWrite';
import { selectNamed } from '../workspace';
import { renamedActions } from '../../core/deploy/renamed';
import { type CommandDefinition } from './command';

/** One action's pull as planned by the core (planPull), and whether this run may carry it out. */
interface PlannedPull {
  readonly app: CliApplication;
  readonly listed: ListedAction;
  readonly folder: string;
  readonly plan: PullPlan;
  /** Why it may not be written, when it may not. */
  readonly refusal?: { readonly exit: ExitCode; readonly reason: string };
}

const posix = (p: string) => p.split(path.sep).join('/');

export const pull: CommandDefinition = {
  name: 'pull',
  summary: "bring the server's actions into the workspace, never over local changes without --force",
  listFields: { list: 'actions', fields: ['application', 'key', 'id', 'result', 'files', 'reason'] },
  configure(command: Command) {
    command
      .argument('[actions...]', 'actions by key, or <application-id>/<key>; default: every action the server lists')
      .option('-a, --application <id...>', 'only these applications')
      .option('--force', 'replace local files that hold changes of their own')
      .addHelpText(
        'after',
        `
Each action goes into its folder (the folder of its key in the application's folder; never outside
the project, never through a symbolic link): action.yaml (keeping its comments where values agree),
main.ts and action.generated.ts. A local file changed since the base (customactions.lock.json) is
not replaced without --force: the pull then writes nothing at all and exits 4. The lock records what
was pulled.`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const project = await context.loadProject();
    const lock = await readLock(project.root);
    const apps = await context.applications(options.application);
    const clients = await Promise.all(apps.map((app) => context.client(app)));
    const read = await Promise.all(apps.map((app, i) => Promise.all([clients[i]!.listActions(app.id), scanApplication(app), clients[i]!.capabilities()])));
    // Named across every application at once, so a key two of them list is asked about, not pulled twice.
    const named = new Set(
      selectNamed(
        operands,
        apps.flatMap((app, i) => read[i]![0].map((listed) => ({ app, listed }))),
        ({ app, listed }) => ({ application: app.id, key: listed.key }),
      ).map(({ listed }) => listed),
    );
    // The action.yaml files of the folders that declare a key two or more of them declare (any case): such a key is pulled nowhere.
    const sharedFolders = new Map<string, string[]>();
    for (const [i, app] of apps.entries())
      for (const [action, group] of sharedKeys(read[i]![1]))
        sharedFolders.set(
          `${app.id}\0${action.key.toLowerCase()}`,
          group.map((a) => path.relative(project.root, path.join(a.folder, ACTION_FILE)).split(path.sep).join('/')),
        );
    const plans: PlannedPull[] = [];
    for (const [i, app] of apps.entries()) {
      const client = clients[i]!;
      const [listed, local, caps] = read[i]!;
      const chosen = listed.filter((a) => named.has(a));
      // A folder whose key was changed in it is still the folder of the server's action (the core's rule, the editor's Pull).
      const renamed = renamedActions(
        local.map((a) => ({ key: a.key, folderName: path.basename(a.folder), folder: a.folder })),
        listed,
        lock.entries(project.baseUrl, app.id),
      );
      const renamedFolder = new Map([...renamed].map(([a, r]) => [r.id, a.folder]));
      if (chosen.length > 0 && !caps.getAction)
        throw new CliError(
          EXIT.failed,
          `The server of ${app.label} lists actions without their parameters or result and offers no way to read them, so they cannot be pulled.`,
        );
      plans.push(
        ...(await mapLimited(chosen, 8, async (listedAction): Promise<PlannedPull> => {
          const refused = (reason: string, exit: ExitCode = EXIT.failed): PlannedPull => ({
            app,
            listed: listedAction,
            folder: '',
            plan: { kind: 'refused', reason },
            refusal: { exit, reason },
          });
          const existing = local.find((a) => a.key === listedAction.key)?.folder ?? renamedFolder.get(listedAction.id);
          const sharedBy = sharedFolders.get(`${app.id}\0${listedAction.key.toLowerCase()}`) ?? [];
          const target = pullFolder(posix(app.folderPath), listedAction.key, existing === undefined ? undefined : posix(existing), sharedBy);
          // A key several folders declare is the workspace's to mend (exit 6, as deploy refuses it); any other refusal is the server's key.
          if (!target.ok) return refused(target.reason, sharedBy.length > 1 ? EXIT.refused : EXIT.failed);
          const folder = path.resolve(target.path);
          const [{ action, etag }, implementation] = await Promise.all([
            client.getActionVersioned(listedAction.id),
            caps.getImplementation ? client.getImplementationVersioned(listedAction.id) : Promise.resolve(undefined),
          ]);
          const onDisk: Record<string, string | undefined> = {};
          for (const name of [ACTION_FILE, MAIN_FILE, GENERATED_FILE]) onDisk[name] = readOptional(path.join(folder, name));
          const lockBase = lock.get(project.baseUrl, app.id, listedAction.key);
          const plan = planPull({
            listedKey: listedAction.key,
            resource: action,
            etag,
            implementation,
            onDisk,
            base: lockBase?.id === listedAction.id ? lockBase : undefined,
          });
          if (plan.kind === 'refused') return refused(plan.reason);
          for (const f of plan.files) {
            const escape = await writeRefusal(project.root, path.join(folder, f.name));
            if (escape) return { ...refused(escape), folder, plan };
          }
          if (plan.kind === 'conflict' && options.force !== true)
            return {
              ...refused(
                `${describeChanged(plan.changed)} changed here since the base; --force replaces ${plan.changed.length > 1 ? 'them' : 'it'}`,
                EXIT.conflict,
              ),
              folder,
              plan,
            };
          return { app, listed: listedAction, folder, plan };
        })),
      );
    }
    const refused = plans.filter((p) => p.refusal);
    const rel = (p: PlannedPull) => `${p.app.id}/${serverText(p.listed.key, 120)}`;
    if (refused.length > 0) {
      // All or nothing: a pull that is refused anywhere writes nothing anywhere.
      for (const p of refused) context.out.line(`${context.out.color.red('refused'.padEnd(10))}${rel(p)}  ${serverText(p.refusal!.reason, 400)}`);
      context.out.info(
        `Nothing was written: ${refused.length} of ${count(plans.length, 'action')} cannot be pulled as ${refused.length === 1 ? 'it is' : 'they are'}.`,
      );
      context.out.result({
        ok: false,
        written: false,
        lockWritten: false,
        actions: plans.map((p) => ({
          application: p.app.id,
          key: p.listed.key,
          id: p.listed.id,
          result: p.refusal ? 'refused' : 'not-written',
          ...(p.refusal ? { reason: p.refusal.reason } : {}),
        })),
      });
      return worstExit(refused.map((p) => p.refusal!.exit));
    }
    const bases: { applicationId: string; key: string; entry: LockedAction }[] = [];
    const results: { application: string; key: string; id: string; result: 'pulled' | 'unchanged'; files: string[] }[] = [];
    for (const p of plans) {
      if (p.plan.kind === 'refused') continue;
      const written: string[] = [];
      for (const f of p.plan.files) {
        if (f.step === 'same') continue;
        await writeInProject(project.root, path.join(p.folder, f.name), f.text);
        written.push(f.name);
      }
      bases.push({ applicationId: p.app.id, key: p.listed.key, entry: { id: p.listed.id, ...p.plan.base } });
      results.push({ application: p.app.id, key: p.listed.key, id: p.listed.id, result: written.length ? 'pulled' : 'unchanged', files: written });
      const relFolder = path.relative(project.root, p.folder).split(path.sep).join('/');
      context.out.line(
        `${written.length ? context.out.color.green('pulled'.padEnd(10)) : context.out.color.dim('unchanged'.padEnd(10))}${rel(p)}${written.length ? `  ${written.map((w) => `${relFolder}/${w}`).join(', ')}` : ''}`,
      );
    }
    const lockWritten = await writeLock(project.root, lock, lock.withAll(project.baseUrl, bases));
    context.out.info(`${results.filter((r) => r.result === 'pulled').length} pulled, ${results.filter((r) => r.result === 'unchanged').length} unchanged.`);
    // `ok` says the pull went through; `written` whether it changed any action's file, so a pipeline
    // can tell "pulled, nothing new" from "pulled, commit the files".
    context.out.result({ ok: true, written: results.some((r) => r.files.length > 0), lockWritten, actions: results });
    return EXIT.ok;
  },
};

function describeChanged(parts: readonly Part[]): string {
  return parts.map((p) => PART_FILE[p]).join(' and ');
}
