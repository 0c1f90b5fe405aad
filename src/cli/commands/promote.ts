import { type Command, Option } from 'commander';
import { sameServer } from '../../core/client';
import { CodeChecks } from '../../core/deploy/checks';
import { partDiffs, readServerTexts, workspaceTexts } from '../../core/deploy/contentDiff';
import { type ActionOutcome, settled } from '../../core/deploy/outcome';
import { deployAction, deployTargets, type DeployTarget, mapLimited } from '../../core/deploy/pipeline';
import { type PromoteSourceClient, sourceAction } from '../../core/deploy/promote';
import { count } from '../../core/text';
import { confirm } from '../confirm';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode, worstExit } from '../exitCodes';
import { applyOutcomes, readLock, writeLock } from '../lockFile';
import { diffLines, exitOfOutcome, outcomeJson, outcomeLines } from '../render';
import { verdictOf as verdictOfSteps } from '../../core/deploy/outcome';
import { planAction } from '../../core/deploy/plan';
import { selectNamed } from '../workspace';
import { type CommandDefinition } from './command';
import { parseConcurrency } from './targets';

export const promote: CommandDefinition = {
  name: 'promote',
  summary: "send what one target's server runs to another (staging to production), never over a change made there",
  configure(command: Command) {
    command
      .argument('[actions...]', 'actions by key, or <application-id>/<key>; default: every action of the source')
      .requiredOption('--from <target>', 'the target whose server holds what goes (its code and metadata, not the working copy)')
      .requiredOption('--to <target>', 'the target it goes to')
      .option('-a, --application <id...>', 'only these applications')
      .option('--dry-run', 'print the plan and the diff, write nothing')
      .addOption(new Option('--concurrency <n>', 'actions read and sent at once').default('8'))
      .addHelpText(
        'after',
        `
Reads each action from the source target's server, plans it against the destination's base in
customactions.lock.json (as deploy does the working copy), prints the plan and the diff, then asks
(or takes --yes) before writing. A part changed at the destination since its base holds the whole
promote: nothing is written, and the part is named (exit code 4). The destination's lock records
what it now runs.

Examples:
  custom-actions promote --from staging --to production --dry-run
  custom-actions promote --from staging --to production greet --yes`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const concurrency = parseConcurrency(options.concurrency);
    const dryRun = options.dryRun === true;
    context.namesItsTargets();
    const from = await context.projectOn(String(options.from), '--from');
    const to = await context.projectOn(String(options.to), '--to');
    const source = from.target.target;
    const destination = to.target.target;
    if (source.name === destination.name) throw new CliError(EXIT.usage, '--from and --to name the same target.');
    const destinations = await context.applications(options.application as string[] | undefined, to);
    const pairs = destinations.map((dst) => ({ src: from.applications.find((a) => a.projectId === dst.projectId)!, dst }));
    for (const { src, dst } of pairs)
      if (sameServer(source.baseUrl, destination.baseUrl) && src.id === dst.id)
        throw new CliError(
          EXIT.usage,
          `Targets ${source.name} and ${destination.name} are the same application ${dst.id} on the same server: nothing to promote.`,
        );
    context.out.info(`Promote from ${source.name} (${source.baseUrl}) to ${destination.name} (${destination.baseUrl}).`);
    context.out.annotate({ from: { name: source.name, baseUrl: source.baseUrl }, to: { name: destination.name, baseUrl: destination.baseUrl } });
    // Every key of both sides is found before anything is read.
    const clients = await Promise.all(pairs.map(async ({ src, dst }) => ({ src: await context.client(src), dst: await context.client(dst) })));
    const lock = await readLock(to.root);

    // What the source runs, read into the shape of a workspace's actions, planned against the destination.
    const work: { target: DeployTarget; client: (typeof clients)[number]['dst']; before?: { code?: string; yaml?: string } }[] = [];
    const listings = await Promise.all(pairs.map(({ src, dst }, i) => Promise.all([clients[i]!.src.listActions(src.id), clients[i]!.dst.listActions(dst.id)])));
    // Named across every application at once, by the project's application id or the target's.
    const named = new Set(
      selectNamed(
        operands,
        pairs.flatMap(({ dst }, i) => listings[i]![0].map((listed) => ({ dst, listed }))),
        ({ dst, listed }) => ({ application: dst.projectId, aliases: [dst.id], key: listed.key }),
      ).map(({ listed }) => listed),
    );
    for (const [i, { src, dst }] of pairs.entries()) {
      const { src: srcClient, dst: dstClient } = clients[i]!;
      const [srcListed, dstListed] = listings[i]!;
      const chosen = srcListed.filter((l) => named.has(l));
      const actions = await mapLimited(chosen, concurrency, (l) => sourceAction(srcClient, l, `${source.name}:${src.id}`));
      const targets = deployTargets(dst.id, actions, dstListed, (key) => lock.get(to.baseUrl, dst.id, key)).filter((t) => t.local !== undefined);
      work.push(...targets.map((target) => ({ target, client: dstClient })));
    }
    if (work.length === 0) {
      context.out.info(`Target ${source.name} runs no action to promote.`);
      context.out.result({ ok: true, dryRun, actions: [] });
      return EXIT.ok;
    }

    // The plan: the deploy pipeline in a dry run, which reads the destination where its base does not decide.
    const checks = new CodeChecks(() => context.analysis(), []);
    const options0 = { force: false, checkCode: checks.problemsOf };
    const planOf = (target: (typeof work)[number]['target']) => planAction(target, { force: false, delete: false });
    const plan = await mapLimited(work, concurrency, ({ client, target }) => deployAction(client, planOf(target), { ...options0, dryRun: true }));
    for (const [i, outcome] of plan.entries()) {
      for (const line of outcomeLines(outcome, context.out.color)) context.out.line(line);
      if (verdict(outcome) === 'created' || verdict(outcome) === 'updated') await printDiff(context, work[i]!, source.name, destination.name);
    }
    const blocked = plan.filter((o) => !settled(o));
    const sending = plan.filter((o) => verdict(o) === 'created' || verdict(o) === 'updated');
    if (blocked.length > 0) {
      context.out.info(
        `Promote held, nothing written: ${count(blocked.length, 'action')} cannot go as ${source.name} runs ${blocked.length === 1 ? 'it' : 'them'} (named above).` +
          (blocked.some((o) => verdict(o) === 'held')
            ? ` A held action changed on ${destination.name} since its base: take that change into ${source.name} first, or deploy it to ${destination.name} on purpose.`
            : ''),
      );
      context.out.result({ ok: false, dryRun: true, held: true, actions: plan.map(outcomeJson) });
      return worstExit(plan.map(exitOfOutcome));
    }
    if (sending.length === 0) {
      context.out.info(`Nothing to promote: ${destination.name} runs what ${source.name} runs.`);
      context.out.result({ ok: true, dryRun, actions: plan.map(outcomeJson) });
      return EXIT.ok;
    }
    if (dryRun) {
      context.out.info(`Dry run, nothing written: ${count(sending.length, 'action')} would go from ${source.name} to ${destination.name}.`);
      context.out.result({ ok: true, dryRun, actions: plan.map(outcomeJson) });
      return EXIT.ok;
    }
    const confirmed = await confirm(context, {
      what: `${count(sending.length, 'action')} of ${source.name} will be written to ${destination.name} (${destination.baseUrl})${destination.protected ? ', a protected target' : ''}.`,
      refusal: `Nothing promoted to ${destination.name}`,
      again: `custom-actions promote --from ${source.name} --to ${destination.name} --yes`,
    });
    if (!confirmed) {
      context.out.result({ ok: false, dryRun, confirmed: false, actions: plan.map(outcomeJson) });
      return EXIT.no;
    }

    // Carried out: each part written against the base the plan read (the server checks it again), so a
    // change made at the destination meanwhile is held, not overwritten.
    const outcomes: ActionOutcome[] = await mapLimited(work, concurrency, ({ client, target }) =>
      deployAction(client, planOf(target), { ...options0, dryRun: false }),
    );
    await writeLock(to.root, lock, applyOutcomes(lock, to.baseUrl, outcomes));
    for (const outcome of outcomes) if (verdict(outcome) !== 'unchanged') for (const line of outcomeLines(outcome, context.out.color)) context.out.line(line);
    const exit = worstExit(outcomes.map(exitOfOutcome));
    const done = outcomes.filter((o) => verdict(o) === 'created' || verdict(o) === 'updated').length;
    context.out.info(`Promoted ${count(done, 'action')} from ${source.name} to ${destination.name}${exit === EXIT.ok ? '' : '; the others are named above'}.`);
    context.out.result({ ok: exit === EXIT.ok, dryRun: false, actions: outcomes.map(outcomeJson) });
    return exit;
  },
};

/** What would change at the destination: its code and metadata as it runs them, against the source's (contentDiff.ts). */
async function printDiff(
  context: CommandContext,
  item: { readonly target: DeployTarget; readonly client: PromoteSourceClient },
  from: string,
  to: string,
): Promise<void> {
  const { target, client } = item;
  const local = target.local!;
  const name = `${target.application}/${target.key}`;
  const parts = ['metadata', 'implementation'] as const;
  const server = target.listed ? await readServerTexts(client, { getAction: true, getImplementation: true }, target.listed.id, parts) : {};
  const label = (file: string) => ({ before: `${to}:${name}/${file}`, after: `${from}:${name}/${file}` });
  const diffs = partDiffs(parts, server, workspaceTexts(local), { metadata: label('action.yaml'), implementation: label('main.ts') });
  for (const line of diffLines(
    diffs.flatMap((d) => d.lines),
    context.out.color,
    '  ',
  ))
    context.out.line(line);
}

/** An action's verdict, the core's word for its steps. */
function verdict(outcome: ActionOutcome): ReturnType<typeof verdictOfSteps> {
  return verdictOfSteps(outcome.steps);
}
