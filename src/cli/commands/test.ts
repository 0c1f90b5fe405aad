import path from 'node:path';
import { type Command, Option } from 'commander';
import { formatDuration } from '../../core/events';
import { count } from '../../core/text';
import { localActions } from '../actions';
import { confirmTargetWrite } from '../confirm';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode, worstExit } from '../exitCodes';
import { writeInProject } from '../projectWrite';
import { readCases } from '../testing/cases';
import { junitXml } from '../testing/junit';
import { type CaseResult, totals } from '../testing/results';
import { runCasesLocally } from '../testing/runLocal';
import { runCasesOnServer } from '../testing/runServer';
import { type CommandDefinition } from './command';

/** Every input set with its `expect`, locally as the Testing view's Local profile runs it, or on the Test environment. */
export const test: CommandDefinition = {
  name: 'test',
  summary: 'run every input set as a test case, locally or on the Test environment (exit 1 on any failure)',
  configure(command: Command) {
    command
      .argument('[actions...]', 'the actions (key, or application/key); default: every action of the workspace')
      .option('-a, --application <id...>', 'only these applications (ids of customactions.yaml)')
      .addOption(new Option('--env <where>', 'Local: on this machine, through the local harness; Test: on the server, after pushing main.ts').default('Local'))
      .addOption(new Option('--reporter <name>', 'summary on the terminal, or junit XML (to --output)').choices(['summary', 'junit']).default('summary'))
      .option('-o, --output <file>', 'write the report there (junit XML), or to stdout with -; the summary still goes to the terminal')
      .addHelpText(
        'after',
        `
Examples:
  custom-actions test                                   every input set, locally
  custom-actions test add --env Test                    the cases of "add" on the server's Test environment
  custom-actions test --reporter junit --output test-results/custom-actions.xml`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const where = String(options.env).toLowerCase();
    if (where !== 'local' && where !== 'test') throw new CliError(EXIT.usage, `--env must be Local or Test, not "${String(options.env)}".`);
    const output = options.output;
    // `-o -`: the report is stdout (as curl and tar read `-`); the case lines go to stderr beside the summary.
    const toStdout = output === '-';
    if (toStdout && context.out.json) throw new CliError(EXIT.usage, '--output - and --json both want stdout: choose one, or write the report to a file.');
    if (options.reporter === 'junit' && !output && !context.out.json)
      throw new CliError(EXIT.usage, '--reporter junit needs --output <file>.', 'The terminal gets the summary; the XML goes to the file CI reads.');
    const project = await context.loadProject();
    if (
      where === 'test' &&
      !(await confirmTargetWrite(context, project.target.target, "The Test environment runs main.ts as pushed: each action's code is deployed first.", {
        // test has no dry run of its own: what it would deploy first is deploy's.
        check: `custom-actions deploy --dry-run --target ${project.target.target.name}`,
        again: `custom-actions test --env Test --target ${project.target.target.name} --yes`,
      }))
    )
      return EXIT.no;
    const actions = await localActions(context, operands, options.application);
    const cases = await readCases(actions, project.root);
    const started = new Date();
    const results: CaseResult[] = [];
    const abort = new AbortController();
    const release = context.io.interrupts.on(() => abort.abort());
    const progress = context.out.progress(cases.length, 'Testing');
    const onResult = (r: CaseResult) => {
      results.push(r);
      progress.tick(`${r.action} › ${r.name}`);
      if (!context.out.json) printResult(context, r, toStdout);
    };
    let exits: ExitCode[] = [];
    try {
      if (where === 'local') await runCasesLocally(cases, project.root, onResult, abort.signal);
      else exits = await runCasesOnServer(context, cases, project, onResult, abort.signal);
    } finally {
      release();
      progress.done();
    }
    // In the order of the workspace, whatever order they ended in.
    const order = new Map(cases.map((c, i) => [`${c.action.application.id}/${c.action.key}\u0000${c.name}`, i]));
    results.sort((a, b) => order.get(`${a.action}\u0000${a.name}`)! - order.get(`${b.action}\u0000${b.name}`)!);
    const t = totals(results);
    const environment = where === 'local' ? 'Local' : 'Test';
    if (toStdout) context.io.stdout.write(junitXml(results, { name: 'custom-actions', timestamp: started, environment }));
    else if (output) {
      const file = path.resolve(context.io.cwd, output);
      // Inside the project, by the project's rule; elsewhere the folder named is the one the user chose.
      const inside = !path.relative(project.root, file).startsWith('..') && !path.isAbsolute(path.relative(project.root, file));
      await writeInProject(inside ? project.root : path.dirname(file), file, junitXml(results, { name: 'custom-actions', timestamp: started, environment }));
    }
    if (abort.signal.aborted) exits.push(EXIT.interrupted);
    const { errColor: c } = context.out;
    const parts = [
      c.green(`${t.passed} passed`),
      t.failed > 0 ? c.red(`${t.failed} failed`) : undefined,
      t.errors > 0 ? c.red(`${t.errors} could not run`) : undefined,
    ];
    if (cases.length === 0) context.out.info(`No input sets to test (inputs/*.json beside action.yaml).`);
    else
      context.out.info(`${count(t.tests, 'test')} on ${environment}: ${parts.filter(Boolean).join(', ')} (${formatDuration(Date.now() - started.getTime())})`);
    context.out.result({ ok: t.failed + t.errors === 0, environment, summary: t, cases: results });
    if (abort.signal.aborted) return EXIT.interrupted;
    return worstExit([...exits, t.failed + t.errors > 0 ? EXIT.no : EXIT.ok]);
  },
};

/** One line per case on stdout (stderr when the report is stdout), PASS/FAIL/ERROR first so a log can be grepped, the reason indented under it. */
function printResult(context: CommandContext, r: CaseResult, toStderr: boolean): void {
  const c = toStderr ? context.out.errColor : context.out.color;
  const out = { line: (text: string): void => (toStderr ? context.out.info(text) : context.out.line(text)) };
  const mark = r.status === 'passed' ? c.green('PASS ') : r.status === 'failed' ? c.red('FAIL ') : c.red('ERROR');
  const time = r.duration === undefined ? '' : c.dim(` (${formatDuration(r.duration)})`);
  out.line(`${mark} ${r.action} › ${r.name}${time}`);
  if (r.status === 'passed') return;
  for (const line of (r.message ?? '').split('\n')) out.line(`      ${line}`);
  if (r.detail && r.status === 'failed') for (const line of r.detail.split('\n').slice(0, 20)) out.line(`      ${c.dim(line)}`);
  if (r.logs.length > 0) {
    out.line(`      ${c.dim('logs:')}`);
    for (const line of r.logs.slice(0, 20)) out.line(`        ${c.dim(line)}`);
  }
}
