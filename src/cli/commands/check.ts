import { type Command } from 'commander';
import { CodeChecks } from '../../core/deploy/checks';
import { type FileProblem } from '../../core/deploy/outcome';
import { type WorkspaceAction } from '../../core/deploy/pipeline';
import { sharedKeyRefusal } from '../../core/deploy/plan';
import { sharedKeys } from '../../core/workspace';
import { count } from '../../core/text';
import { type CommandContext } from '../context';
import { EXIT, type ExitCode } from '../exitCodes';
import { scanApplication } from '../project';
import { problemLine } from '../render';
import { selectNamed, workspaceAction } from '../workspace';
import { type CommandDefinition } from './command';

/** The checks a deploy makes before sending, offline: no server, no key (a pre-commit hook, a CI lint step). */
export const check: CommandDefinition = {
  name: 'check',
  summary: 'check each action offline: action.yaml valid, main.ts agreeing with it (exit 6 when not)',
  configure(command: Command) {
    command
      .argument('[actions...]', 'actions by key, or <application-id>/<key>; default: all')
      .option('-a, --application <id...>', 'only these applications')
      .addHelpText(
        'after',
        `
The same checks as a deploy and as a save in the editor, with the messages the Problems panel shows,
at file:line:column. Needs no server and no key.`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const project = await context.loadProject();
    const apps = await context.applications(options.application);
    const all: { application: string; action: WorkspaceAction }[] = [];
    // A key declared in several folders of an application is refused in each, as a deploy refuses it.
    const shared = new Map<WorkspaceAction, WorkspaceAction[]>();
    for (const app of apps) {
      const actions = (await scanApplication(app)).map((folder) => workspaceAction(project, folder));
      for (const [action, group] of sharedKeys(actions)) shared.set(action, group);
      all.push(...actions.map((action) => ({ application: app.id, action })));
    }
    const selected = selectNamed(operands, all, (s) => ({ application: s.application, key: s.action.key }));
    // Many actions' code in one program at a time; the analysis loads only if some action has code.
    const checks = new CodeChecks(
      () => context.analysis(),
      selected.map((s) => s.action),
    );
    const results = selected.map(({ application, action }) => {
      const group = shared.get(action);
      const problems: FileProblem[] = group
        ? sharedKeyRefusal(
            action.key,
            group.map((a) => a.metadataFile),
          ).problems.filter((p) => p.file === action.metadataFile)
        : action.metadata
          ? [...checks.problemsOf({ ...action, metadata: action.metadata })]
          : action.metadataProblems.map((p) => ({ ...p, file: action.metadataFile }));
      return { application, key: action.key, ok: problems.length === 0, hasCode: action.code !== undefined, problems };
    });
    const { color } = context.out;
    for (const r of results) {
      const note = r.ok && !r.hasCode ? '  metadata only: no main.ts here' : '';
      context.out.line(`${r.ok ? color.green('ok'.padEnd(10)) : color.red('refused'.padEnd(10))}${r.application}/${r.key}${note}`);
      for (const p of r.problems) context.out.line(`  ${problemLine(p)}`);
    }
    const refused = results.filter((r) => !r.ok).length;
    context.out.info(
      refused === 0
        ? results.length === 1
          ? 'The action passes.'
          : `All ${results.length} actions pass.`
        : `${refused} of ${count(results.length, 'action')} would be refused.`,
    );
    context.out.result({
      ok: refused === 0,
      actions: results.map((r) => ({
        ...r,
        problems: r.problems.map((p) => ({ file: p.file, line: p.range.start.line + 1, column: p.range.start.character + 1, message: p.message })),
      })),
    });
    return refused === 0 ? EXIT.ok : EXIT.refused;
  },
};
