import { type Command, Option } from 'commander';
import { type PartStatus } from '../../core/deploy/decide';
import { mapLimited } from '../../core/deploy/pipeline';
import { actionStatus, type ActionStatus, inStep } from '../../core/deploy/status';
import { keyChangedNote } from '../../core/deploy/renamed';
import { count, serverText } from '../../core/text';
import { type CommandContext } from '../context';
import { EXIT, type ExitCode, worstExit } from '../exitCodes';
import { readLock } from '../lockFile';
import { diffJson, diffLines, problemLine } from '../render';
import { type CommandDefinition } from './command';
import { collectTargets, parseConcurrency, reportRefused, reportReset } from './targets';

const PART_WORDS: Record<Exclude<PartStatus, 'same'>, string> = {
  'changed-here': 'changed here',
  'changed-on-server': 'changed on the server since the base',
  'changed-on-both': 'changed here and on the server since the base',
  differs: 'differs, and this repository never deployed or pulled it',
  unknown: 'cannot be compared (the server offers no read of it)',
};

const PRESENCE_WORDS: Record<Exclude<ActionStatus['presence'], 'both'>, string> = {
  'only-here': 'only here',
  'only-on-server': 'only on the server',
  'deleted-on-server': 'deleted on the server since the base',
};

export const status: CommandDefinition = {
  name: 'status',
  summary: 'show, per action, how the workspace and the server differ (exit 1 when they do)',
  listFields: { list: 'actions', fields: ['application', 'key', 'id', 'presence', 'metadata', 'implementation', 'problems', 'inStep', 'diff'] },
  configure(command: Command) {
    command
      .argument('[actions...]', 'actions by key, or <application-id>/<key>; default: all')
      .option('-a, --application <id...>', 'only these applications')
      .option('--no-diff', 'no diff under the actions that differ (their metadata and code, server → workspace)')
      .option(
        '--only-local',
        "only this repository's actions: those only on the server (an application shared with other repositories) are left out, and never make exit 1",
      )
      .addOption(new Option('--concurrency <n>', 'actions read at once').default('8'))
      .addHelpText(
        'after',
        `
Per action: in step, only here, only on the server, or which of its metadata and code differ, and
whether the change was made here or on the server since the base (customactions.lock.json). Exit 0
when every action is in step, 1 when not.`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const concurrency = parseConcurrency(options.concurrency);
    const project = await context.loadProject();
    const lock = await readLock(project.root);
    const apps = await collectTargets(context, project, lock, operands, options.application);
    const work = await Promise.all(apps.filter((a) => !a.refused).map(async ({ client, targets }) => ({ client, caps: await client.capabilities(), targets })));
    const onlyLocal = options.onlyLocal === true;
    const showDiff = options.diff !== false;
    // --only-local: what the workspace has, or had (the lock's base); another repository's actions are not this one's to be in step with.
    const items = work.flatMap(({ client, caps, targets }) =>
      targets.filter((t) => !onlyLocal || t.local !== undefined || t.base !== undefined).map((target) => ({ client, caps, target })),
    );
    const progress = context.out.progress(items.length, 'Comparing');
    const statuses = await mapLimited(items, concurrency, async ({ client, caps, target }) => {
      const s = await actionStatus(client, caps, target, undefined, { diff: showDiff || context.out.json });
      progress.tick(`${target.application}/${target.key}`);
      return s;
    });
    progress.done();
    const { color } = context.out;
    const resetApps = new Set(apps.filter((a) => a.reset).map((a) => a.app.id));
    for (const s of statuses) {
      const ok = inStep(s);
      context.out.line(
        // A key only on the server is the server's text: shown, never obeyed.
        `${ok ? color.green('in-step'.padEnd(10)) : color.yellow('differs'.padEnd(10))}${s.application}/${serverText(s.key, 120)}${ok ? '' : `  ${describe(s, resetApps.has(s.application))}`}`,
      );
      for (const p of s.problems ?? []) context.out.line(`  ${problemLine(p)}`);
      if (showDiff)
        for (const part of ['metadata', 'implementation'] as const) for (const line of diffLines(s.diff?.[part] ?? [], color)) context.out.line(line);
    }
    const hidden = onlyLocal ? apps.reduce((n, a) => n + a.targets.length, 0) - items.length : 0;
    const refused = reportRefused(context, apps);
    reportReset(context, apps, (await context.server()).url);
    const differing = statuses.filter((s) => !inStep(s)).length;
    if (refused.exits.length === 0 || statuses.length > 0)
      context.out.info(
        differing === 0
          ? statuses.length === 0
            ? 'No actions, here or on the server.'
            : statuses.length === 1
              ? 'The action is in step.'
              : `All ${statuses.length} actions in step.`
          : `${differing} of ${count(statuses.length, 'action')} ${differing === 1 ? 'differs' : 'differ'}.`,
      );
    if (hidden > 0) context.out.info(`${count(hidden, 'action')} only on the server, never deployed or pulled from here, left out (--only-local).`);
    const exit = worstExit([differing === 0 ? EXIT.ok : EXIT.no, ...refused.exits]);
    context.out.result({
      ok: exit === EXIT.ok,
      inStep: differing === 0 && refused.exits.length === 0,
      actions: statuses.map((s) => ({ ...s, inStep: inStep(s), diff: diffJson(s.diff) })),
      ...(onlyLocal ? { onlyLocal: true, leftOut: hidden } : {}),
      ...(refused.json.length > 0 ? { refused: refused.json } : {}),
    });
    return exit;
  },
};

function describe(s: ActionStatus, reset: boolean): string {
  const parts: string[] = [];
  if (s.presence === 'deleted-on-server' && reset) parts.push('not on the server, which looks new or reset');
  else if (s.presence !== 'both') parts.push(PRESENCE_WORDS[s.presence]);
  if (s.renamedFrom !== undefined) parts.push(keyChangedNote(serverText(s.renamedFrom, 120)));
  // The local file is what is wrong: its metadata is not compared, which is no fault of the server's.
  if (s.sharedBy) parts.push(`its key is declared in ${s.sharedBy.length} folders: not compared`);
  else if (s.problems)
    parts.push(`the local action.yaml is invalid${s.problems[0] ? ` (${s.problems[0].file}:${s.problems[0].range.start.line + 1})` : ''}: not compared`);
  else if (s.metadata && s.metadata !== 'same') parts.push(`metadata ${PART_WORDS[s.metadata]}`);
  if (s.implementation && s.implementation !== 'same') parts.push(`code ${PART_WORDS[s.implementation]}`);
  return parts.join('; ');
}
