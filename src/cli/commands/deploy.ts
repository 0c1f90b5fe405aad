import { type Command, Option } from 'commander';
import { codeHash } from '../../core/deploy/base';
import { CodeChecks, differsFromBase } from '../../core/deploy/checks';
import { type ActionOutcome } from '../../core/deploy/outcome';
import { count } from '../../core/text';
import { deployAction, mapLimited } from '../../core/deploy/pipeline';
import { confirmTargetWrite } from '../confirm';
import { type CommandContext } from '../context';
import { EXIT, type ExitCode, worstExit } from '../exitCodes';
import { onInterrupt } from '../interrupt';
import { applyOutcomes, readLock, writeLock } from '../lockFile';
import { exitOfOutcome, onlyOnServerLines, outcomeJson, outcomeLines, type Verdict, verdictOf, verdictWord } from '../render';
import { type CommandDefinition } from './command';
import { collectTargets, parseConcurrency } from './targets';

export const deploy: CommandDefinition = {
  name: 'deploy',
  summary: 'create, update and push the actions that differ from the server, never over a change made there',
  configure(command: Command) {
    command
      .argument('[actions...]', 'actions by key, or <application-id>/<key>; default: all')
      .option('-a, --application <id...>', 'only these applications')
      .option('--dry-run', 'print the plan (reading the server, writing nothing)')
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
    const project = await context.loadProject();
    if (!dryRun) await confirmTargetWrite(context, project.target.target, 'This deploy writes every action that differs (--dry-run shows which).');
    const lock = await readLock(project.root);
    // The checks in this thread, made once the targets are known: the check thread falls back to
    // them, and they are the checks where there is no thread (one core).
    const here: { checks?: CodeChecks } = {};
    const thread = context.checkThread((action) => (here.checks ?? new CodeChecks(() => context.analysis(), [])).problemsOf(action));
    let loading = false;
    const apps = await collectTargets(
      context,
      project,
      lock,
      operands,
      options.application as string[] | undefined,
      (actions, baseOf, client) => {
        const differing = actions.filter((a) => differsFromBase(a, baseOf(a.key)));
        // The capability document the first write needs goes out with the list, not after its answer.
        if (!dryRun && differing.length > 0) client.capabilities().catch(() => undefined);
        const sending = differing.filter((a) => a.code !== undefined);
        if (sending.length === 0) return;
        // The actions the lock says will send are checked while the list requests are on the wire.
        if (thread) return thread.post(sending);
        // Without a thread the compiler loads here, synchronously: on the next turn, once the list
        // requests are written, not after their answers. An unchanged project never loads it.
        if (loading) return;
        loading = true;
        setImmediate(() => {
          try {
            context.analysis();
          } catch {
            // Reported where the checks need it.
          }
        });
      },
      (app, codes) => {
        // Code that is not any base's of this application will be checked and sent: the compiler
        // starts loading in its thread now, and the capability document is asked with the list,
        // while the action.yaml files are parsed.
        const based = new Set(lock.keys(project.baseUrl, app.id).map((key) => lock.get(project.baseUrl, app.id, key)?.implementation?.hash));
        if (!codes.some((code) => !based.has(codeHash(code)))) return undefined;
        thread?.start();
        return dryRun ? undefined : (client) => void client.capabilities().catch(() => undefined);
      },
    );
    const work = apps.flatMap(({ client, targets }) => targets.map((target) => ({ client, target })));
    // Checked a chunk at a time in one program, the actions the lock says will send first in line.
    const checks = (here.checks = new CodeChecks(
      () => context.analysis(),
      work.flatMap(({ target }) => (target.local && (!target.listed || differsFromBase(target.local, target.base)) ? [target.local] : [])),
    ));
    const progress = context.out.progress(work.length, dryRun ? 'Planning' : 'Deploying');
    // Ctrl+C (or a CI's SIGTERM): the actions under way finish their step, no other starts, and the
    // lock records what went through; a second Ctrl+C ends the process at once.
    let stopping = false;
    const release = onInterrupt(() => {
      stopping = true;
      progress.done();
      context.out.info('Stopping: the actions under way finish, no other starts (Ctrl+C again to stop at once).');
    });
    let outcomes: (ActionOutcome | undefined)[];
    try {
      outcomes = await mapLimited(work, concurrency, async ({ client, target }) => {
        if (stopping) return undefined;
        const outcome = await deployAction(client, target, {
          force: options.force === true,
          dryRun,
          delete: options.delete === true,
          checkCode: thread ? thread.problemsOf : checks.problemsOf,
        });
        progress.tick(`${target.application}/${target.key}`);
        return outcome;
      });
    } finally {
      release();
      progress.done();
    }
    // Written whatever happened: what went through is the base of the next run, which finishes the job.
    const done = outcomes.filter((o): o is ActionOutcome => o !== undefined);
    if (!dryRun) await writeLock(project.root, lock, applyOutcomes(lock, project.baseUrl, done));
    const noCode = new Set(work.filter(({ target }) => target.local?.metadata && target.local.code === undefined).map(({ target }) => target));
    // The actions of this repository line by line; those only on the server after them, summed up.
    const onlyOnServer: { outcome: ActionOutcome; deployedHere: boolean }[] = [];
    for (const [i, outcome] of outcomes.entries()) {
      if (!outcome) continue;
      if (verdictOf(outcome) === 'only-on-server') onlyOnServer.push({ outcome, deployedHere: work[i]!.target.base !== undefined });
      else for (const line of outcomeLines(outcome, context.out.color, { noCode: noCode.has(work[i]!.target) })) context.out.line(line);
    }
    for (const line of onlyOnServerLines(onlyOnServer, context.out.color)) context.out.line(line);
    const notStarted = work.filter((_, i) => outcomes[i] === undefined).map(({ target }) => `${target.application}/${target.key}`);
    const exit = stopping ? EXIT.interrupted : worstExit(done.map(exitOfOutcome));
    summarize(context, done, dryRun);
    if (notStarted.length > 0) context.out.info(`Interrupted: ${count(notStarted.length, 'action')} not started; deploy again to finish.`);
    context.out.result({ ok: exit === EXIT.ok, dryRun, actions: done.map(outcomeJson), ...(stopping ? { interrupted: true, notStarted } : {}) });
    return exit;
  },
};

const SUMMARY_ORDER: readonly Verdict[] = ['failed', 'refused', 'held', 'created', 'updated', 'deleted', 'unchanged', 'only-on-server'];

function summarize(context: CommandContext, outcomes: readonly ActionOutcome[], dryRun: boolean): void {
  const counts = new Map<Verdict, number>();
  for (const o of outcomes) counts.set(verdictOf(o), (counts.get(verdictOf(o)) ?? 0) + 1);
  // What needs reading first; a dry run's summary speaks the words of its lines: would-create, not created.
  const text =
    SUMMARY_ORDER.filter((v) => counts.has(v))
      .map((v) => `${counts.get(v)} ${dryRun ? verdictWord(v, true) : v}`)
      .join(', ') || 'no actions';
  context.out.info(`${dryRun ? 'Dry run, nothing written: ' : ''}${text}.`);
  if (counts.has('held'))
    context.out.info(
      "Held actions changed on the server since this repository last deployed or pulled them: custom-actions status names the parts; pull them to take the server's version (--force over local changes), or deploy --force to replace it with yours.",
    );
}
