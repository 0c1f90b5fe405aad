import { type Command, Option } from 'commander';
import { CodeChecks } from '../../core/deploy/checks';
import {
  carryOutPromote,
  planPromote,
  promoteDiff,
  promotedSummary,
  promoteProblem,
  type PromotePair,
  promoteSummary,
  promoteVerdictOf,
  sends,
} from '../../core/deploy/promote';
import { confirm } from '../confirm';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode, worstExit } from '../exitCodes';
import { applyOutcomes, readLock, writeLock } from '../lockFile';
import { diffLines, exitOfOutcome, outcomeJson, outcomeLines } from '../render';
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
    const destinations = await context.applications(options.application, to);
    const apps = destinations.map((dst) => ({ src: from.applications.find((a) => a.projectId === dst.projectId)!, dst }));
    const problem = promoteProblem(
      source,
      destination,
      apps.map(({ src, dst }) => ({ source: src, destination: dst })),
    );
    if (problem) throw new CliError(EXIT.usage, problem);
    context.out.info(`Promote from ${source.name} (${source.baseUrl}) to ${destination.name} (${destination.baseUrl}).`);
    context.out.annotate({ from: { name: source.name, baseUrl: source.baseUrl }, to: { name: destination.name, baseUrl: destination.baseUrl } });
    // Every key of both sides is found before anything is read.
    const pairs: PromotePair[] = await Promise.all(
      apps.map(async ({ src, dst }) => ({
        projectId: dst.projectId,
        source: { id: src.id, client: await context.client(src) },
        destination: { id: dst.id, client: await context.client(dst) },
      })),
    );
    const lock = await readLock(to.root);

    // What the source runs, read into the shape of a workspace's actions, planned against the destination (the core's planner).
    const checks = new CodeChecks(() => context.analysis(), []);
    const plan = await planPromote({
      from: source,
      to: destination,
      pairs,
      // Named across every application at once, by the project's application id or the target's.
      select: (listings) => {
        const named = new Set(
          selectNamed(
            operands,
            listings.flatMap(({ pair, listed }) => listed.map((l) => ({ pair, listed: l }))),
            ({ pair, listed }) => ({ application: pair.projectId, aliases: [pair.destination.id], key: listed.key }),
          ).map(({ listed }) => listed),
        );
        return listings.map(({ listed }) => listed.filter((l) => named.has(l)));
      },
      baseOf: (appId, key) => lock.get(to.baseUrl, appId, key),
      lockedOf: (side, appId) => lock.entries(side === 'source' ? from.baseUrl : to.baseUrl, appId),
      concurrency,
      checkCode: checks.problemsOf,
    });
    for (const item of plan.items) {
      for (const line of outcomeLines(item.planned, context.out.color)) context.out.line(line);
      if (sends(item.planned))
        for (const line of diffLines(
          (await promoteDiff(item, destination.name)).flatMap((d) => d.lines),
          context.out.color,
          '  ',
        ))
          context.out.line(line);
    }
    if (plan.verdict !== 'ready' || dryRun) context.out.info(promoteSummary(plan, dryRun));
    const planJson = plan.items.map((i) => outcomeJson(i.planned));
    switch (plan.verdict) {
      case 'empty':
        context.out.result({ ok: true, dryRun, actions: [] });
        return EXIT.ok;
      case 'held':
        context.out.result({ ok: false, dryRun: true, held: true, actions: planJson });
        return worstExit(plan.items.map((i) => exitOfOutcome(i.planned)));
      case 'nothing':
        context.out.result({ ok: true, dryRun, actions: planJson });
        return EXIT.ok;
      case 'ready':
        break;
    }
    if (dryRun) {
      context.out.result({ ok: true, dryRun, actions: planJson });
      return EXIT.ok;
    }
    const confirmed = await confirm(context, {
      what: promoteSummary(plan),
      refusal: `Nothing promoted to ${destination.name}`,
      again: `custom-actions promote --from ${source.name} --to ${destination.name} --yes`,
    });
    if (!confirmed) {
      context.out.result({ ok: false, dryRun, confirmed: false, actions: planJson });
      return EXIT.no;
    }

    const outcomes = await carryOutPromote(plan);
    await writeLock(to.root, lock, applyOutcomes(lock, to.baseUrl, outcomes));
    for (const outcome of outcomes)
      if (promoteVerdictOf(outcome) !== 'unchanged') for (const line of outcomeLines(outcome, context.out.color)) context.out.line(line);
    const exit = worstExit(outcomes.map(exitOfOutcome));
    context.out.info(promotedSummary(plan, outcomes));
    context.out.result({ ok: exit === EXIT.ok, dryRun: false, actions: outcomes.map(outcomeJson) });
    return exit;
  },
};
