import { type Command, Option } from 'commander';
import { CodeChecks } from '../../core/deploy/checks';
import { type ActionOutcome, verdictOf } from '../../core/deploy/outcome';
import { count, serverText } from '../../core/text';
import { deployAction, mapLimited } from '../../core/deploy/pipeline';
import { type ActionPlan, planDeploy, planJson, toCheck } from '../../core/deploy/plan';
import { deployDiff, sentParts } from '../../core/deploy/contentDiff';
import { type CustomActionsClient } from '../../core/client';
import { confirm, confirmTargetWrite, protectedConfirmation } from '../confirm';
import { type CommandContext } from '../context';
import { EXIT, type ExitCode, worstExit } from '../exitCodes';
import { applyOutcomes, readLock, writeLock } from '../lockFile';
import { diffJson, diffLines, exitOfOutcome, onlyOnServerLines, outcomeJson, outcomeLines, type Verdict, verdictWord } from '../render';
import { type CommandDefinition } from './command';
import { collectTargets, parseConcurrency, reportRefused, reportReset } from './targets';

export const deploy: CommandDefinition = {
  name: 'deploy',
  summary: 'create, update and push the actions that differ from the server, never over a change made there',
  listFields: { list: 'actions', fields: ['application', 'key', 'id', 'result', 'steps', 'diff'] },
  configure(command: Command) {
    command
      .argument('[actions...]', 'actions by key, or <application-id>/<key>; default: all')
      .option('-a, --application <id...>', 'only these applications')
      .option('--dry-run', 'print the plan and the diff of what would change (reading the server, writing nothing)')
      .option('--no-diff', 'with --dry-run: no diff under the actions that would change')
      .option('--force', "replace the server's version even when it changed since the base")
      .option('--delete', 'delete from the server the actions this repository deployed or pulled whose folders are gone')
      .addOption(new Option('--concurrency <n>', 'actions deployed at once').default('8'))
      .addHelpText(
        'after',
        `
Each action goes create, metadata, code, sending only what differs from the base recorded in
customactions.lock.json (commit it). A part the server changed since that base is held and named,
with exit code 4, unless --force. Code that disagrees with its metadata is refused with file:line,
exit code 6. The lock is rewritten with what the server now holds.

Examples:
  custom-actions deploy --dry-run
  custom-actions deploy greet billing/score-lead
  CUSTOM_ACTIONS_KEY=… custom-actions deploy --json`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const concurrency = parseConcurrency(options.concurrency);
    const dryRun = options.dryRun === true;
    const force = options.force === true;
    const project = await context.loadProject();
    const destructive = options.delete === true || force;
    const target = project.target.target;
    const again = (flags: string) => `custom-actions deploy${flags}${target.protected ? ` --target ${target.name}` : ''} --yes`;
    // A protected target is confirmed here, unless --delete or --force asks below anyway: then one question names both.
    if (
      !dryRun &&
      !destructive &&
      !(await confirmTargetWrite(context, target, 'This deploy writes every action that differs (--dry-run shows which).', { again: again('') }))
    ) {
      context.out.result({ ok: false, dryRun, confirmed: false, actions: [] });
      return EXIT.no;
    }
    const lock = await readLock(project.root);
    const apps = await collectTargets(context, project, lock, operands, options.application);
    // The plan first: what goes, to which action, against which base; the checks follow it.
    const work = apps.flatMap(({ client, targets }) => planDeploy(targets, { force, delete: options.delete === true }).map((plan) => ({ client, plan })));
    const plans = work.map(({ plan }) => plan);
    // Checked a chunk at a time in one program, in the plan's order; a plan that sends no code never loads the compiler.
    const checks = new CodeChecks(() => context.analysis(), toCheck(plans), { first: concurrency });
    // What deletes or overwrites on the server is confirmed first (confirm.ts): the plan without
    // --force, carried out as a dry run (read, written nowhere), names the actions --delete would
    // delete and those --force would overwrite.
    if (!dryRun && (options.delete === true || force)) {
      const preview = await mapLimited(
        apps.flatMap(({ client, targets }) => planDeploy(targets, { force: false, delete: options.delete === true }).map((plan) => ({ client, plan }))),
        concurrency,
        ({ client, plan }) => deployAction(client, plan, { force: false, dryRun: true, checkCode: () => [] }),
      );
      const named = (verdict: Verdict) => preview.filter((o) => verdictOf(o.steps) === verdict).map((o) => `${o.application}/${serverText(o.key, 120)}`);
      const deleting = named('deleted');
      const overwriting = force ? named('held') : [];
      const flags = [options.delete === true ? ' --delete' : '', force ? ' --force' : ''].join('');
      if (deleting.length === 0 && overwriting.length === 0) {
        if (!(await confirmTargetWrite(context, target, 'This deploy writes every action that differs (--dry-run shows which).', { again: again(flags) }))) {
          context.out.result({ ok: false, dryRun, confirmed: false, actions: [] });
          return EXIT.no;
        }
      } else {
        const server = (await context.server()).url;
        const what = [
          deleting.length > 0 ? `Delete ${count(deleting.length, 'action')} on ${server}: ${listed(deleting)}.` : '',
          overwriting.length > 0
            ? `Replace what changed on ${server} since this repository's base (a colleague's change, or an action it never deployed) in ${count(overwriting.length, 'action')}: ${listed(overwriting)}.`
            : '',
        ]
          .filter(Boolean)
          .join(' ');
        const confirmation = target.protected ? protectedConfirmation(context, target, what, { again: again(flags) }) : { what, again: again(flags) };
        if (!(await confirm(context, confirmation))) {
          context.out.result({ ok: false, dryRun, confirmed: false, actions: [] });
          return EXIT.no;
        }
      }
    }
    const progress = context.out.progress(work.length, dryRun ? 'Planning' : 'Deploying');
    // Ctrl+C (or a CI's SIGTERM): the actions under way finish their step, no other starts, and the
    // lock records what went through; a second Ctrl+C ends the process at once.
    let stopping = false;
    const release = context.io.interrupts.on(() => {
      stopping = true;
      progress.done();
      context.out.info('Stopping: the actions under way finish, no other starts (Ctrl+C again to stop at once).');
    });
    let outcomes: (ActionOutcome | undefined)[];
    try {
      outcomes = await mapLimited(work, concurrency, async ({ client, plan }) => {
        if (stopping) return undefined;
        const outcome = await deployAction(client, plan, { force, dryRun, checkCode: checks.problemsOf });
        progress.tick(`${plan.target.application}/${plan.target.key}`);
        return outcome;
      });
    } finally {
      release();
      progress.done();
    }
    // Written whatever happened: what went through is the base of the next run, which finishes the job.
    const done = outcomes.filter((o): o is ActionOutcome => o !== undefined);
    if (!dryRun) await writeLock(project.root, lock, applyOutcomes(lock, project.baseUrl, done));
    // A dry run shows what would change: per action it would create or update, the server's text → the workspace's.
    const diffs = dryRun && (options.diff !== false || context.out.json) ? await planDiffs(work, outcomes, concurrency) : [];
    const noCode = new Set(plans.filter(({ target }) => target.local?.metadata && target.local.code === undefined));
    // The actions of this repository line by line; those only on the server after them, summed up.
    const onlyOnServer: { outcome: ActionOutcome; deployedHere: boolean }[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (!outcome) continue;
      if (verdictOf(outcome.steps) === 'only-on-server') onlyOnServer.push({ outcome, deployedHere: plans[i]!.target.base !== undefined });
      else {
        for (const line of outcomeLines(outcome, context.out.color, { noCode: noCode.has(plans[i]!) })) context.out.line(line);
        if (options.diff !== false) for (const line of diffLines(diffs[i]?.lines ?? [], context.out.color)) context.out.line(line);
      }
    }
    for (const line of onlyOnServerLines(onlyOnServer, context.out.color)) context.out.line(line);
    const notStarted = plans.filter((_, i) => outcomes[i] === undefined).map(({ target }) => `${target.application}/${target.key}`);
    const refused = reportRefused(context, apps);
    const exit = stopping ? EXIT.interrupted : worstExit([...done.map(exitOfOutcome), ...refused.exits]);
    summarize(
      context,
      done,
      dryRun,
      apps.some((a) => a.reset),
    );
    reportReset(context, apps, (await context.server()).url);
    if (notStarted.length > 0) context.out.info(`Interrupted: ${count(notStarted.length, 'action')} not started; deploy again to finish.`);
    context.out.result({
      ok: exit === EXIT.ok,
      dryRun,
      actions: outcomes.flatMap((o, i) => (o ? [dryRun ? { ...(outcomeJson(o) as object), diff: diffs[i]?.json } : outcomeJson(o)] : [])),
      ...(dryRun ? { plan: plans.map(planJson) } : {}),
      ...(refused.json.length > 0 ? { refused: refused.json } : {}),
      ...(stopping ? { interrupted: true, notStarted } : {}),
    });
    return exit;
  },
};

/**
 * The diffs of a dry run's actions, in the plan's order: read from the server for the parts each would
 * send (none for an action it would create), a note for a part the server offers no read of.
 */
async function planDiffs(
  work: readonly { readonly client: CustomActionsClient; readonly plan: ActionPlan }[],
  outcomes: readonly (ActionOutcome | undefined)[],
  concurrency: number,
): Promise<({ lines: string[]; json: unknown } | undefined)[]> {
  return mapLimited(work, concurrency, async ({ client, plan }, i) => {
    const outcome = outcomes[i];
    const local = plan.target.local;
    if (!outcome || !local) return undefined;
    const { diffs, unreadable } = await deployDiff(client, await client.capabilities(), outcome, local).catch(() => ({
      diffs: [],
      unreadable: sentParts(outcome).parts,
    }));
    const byPart = Object.fromEntries(diffs.map((d) => [d.part, d.lines]));
    const notes = unreadable.map(
      (p) => `(${p === 'metadata' ? 'action.yaml' : 'main.ts'}: the server's version could not be read, so its change is not shown)`,
    );
    return { lines: [...diffs.flatMap((d) => d.lines), ...notes], json: diffJson(byPart) };
  });
}

/** The first names of a list, and how many more. */
function listed(names: readonly string[]): string {
  return names.length <= 10 ? names.join(', ') : `${names.slice(0, 10).join(', ')} and ${names.length - 10} more`;
}

const SUMMARY_ORDER: readonly Verdict[] = ['failed', 'refused', 'held', 'created', 'updated', 'deleted', 'unchanged', 'only-on-server'];

function summarize(context: CommandContext, outcomes: readonly ActionOutcome[], dryRun: boolean, reset: boolean): void {
  const counts = new Map<Verdict, number>();
  for (const o of outcomes) counts.set(verdictOf(o.steps), (counts.get(verdictOf(o.steps)) ?? 0) + 1);
  // What needs reading first; a dry run's summary speaks the words of its lines: would-create, not created.
  const text =
    SUMMARY_ORDER.filter((v) => counts.has(v))
      .map((v) => `${counts.get(v)} ${dryRun ? verdictWord(v, true) : v}`)
      .join(', ') || 'no actions';
  context.out.info(`${dryRun ? 'Dry run, nothing written: ' : ''}${text}.`);
  // On a server that looks reset, the held actions are its lost ones: reportReset says what to do.
  if (counts.has('held') && !reset)
    context.out.info(
      "Held actions changed on the server since this repository last deployed or pulled them: custom-actions status names the parts; pull them to take the server's version (--force over local changes), or deploy --force to replace it with yours.",
    );
}
