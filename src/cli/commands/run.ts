import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { type Command, Option } from 'commander';
import { type NormalizedEvent, type RunInputs } from '../../core/client';
import { formatEvent, runInputProblems } from '../../core/events';
import { parseInputSetFile } from '../../core/testing';
import { INPUTS_FOLDER } from '../../core/workspace';
import { parseEnvironment, serverActions } from '../actions';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode } from '../exitCodes';
import { problemAt } from '../project';
import { type CommandDefinition } from './command';

/** Runs an action on an environment of the server and prints its event: result, logs, error. */
export const run: CommandDefinition = {
  name: 'run',
  summary: 'run an action on the server with inputs, and print its result and logs (exit 1 when the run failed)',
  configure(command: Command) {
    command
      .argument('<action>', 'the action: its key, or application/key')
      .addOption(new Option('--env <environment>', 'the environment to run on: Test or Live').default('Test'))
      .option('--inputs <json>', 'the inputs as a JSON object by parameter name (or an array in parameter order)')
      .option('--input-set <name>', "the inputs of a saved input set: inputs/<name>.json of the action's folder")
      .option('--inputs-file <file>', 'the inputs from a JSON file (an input set file or a plain object)')
      .addHelpText(
        'after',
        `
Examples:
  custom-actions run add --inputs '{"a": 1, "b": 2}'
  custom-actions run billing/invoice --env Live --input-set june
  custom-actions run add --inputs-file inputs.json --json`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const environment = parseEnvironment(String(options.env), '--env');
    const given = [options.inputs, options.inputSet, options.inputsFile].filter((o) => o !== undefined).length;
    if (given > 1) throw new CliError(EXIT.usage, 'Give the inputs one way: --inputs, --input-set or --inputs-file.');
    const [action] = await serverActions(context, operands);
    const { application, listed, local } = action!;
    const parameters = local?.metadata?.parameters;
    let inputs: unknown = {};
    if (options.inputs !== undefined) inputs = parseJson(String(options.inputs), '--inputs');
    if (options.inputsFile !== undefined) inputs = await readInputsFile(path.resolve(context.io.cwd, String(options.inputsFile)), parameters, context.io.cwd);
    if (options.inputSet !== undefined) {
      if (!local) throw new CliError(EXIT.usage, `--input-set needs the action's folder in the workspace; ${application.id}/${listed.key} has none.`);
      inputs = await readInputsFile(path.join(local.folder, INPUTS_FOLDER, `${String(options.inputSet)}.json`), parameters, context.io.cwd);
    }
    if (typeof inputs !== 'object' || inputs === null) throw new CliError(EXIT.usage, 'The inputs must be a JSON object by parameter name, or an array.');
    // The workspace's action.yaml says what main takes: inputs that do not fit are refused before anything is sent.
    if (parameters) {
      const problems = runInputProblems(parameters, inputs);
      if (problems.length > 0)
        throw new CliError(EXIT.usage, `The inputs do not fit the parameters of ${listed.key}:\n${problems.map((p) => `  ${p}`).join('\n')}`);
    }
    const client = await context.client(application);
    if (!(await client.capabilities()).run)
      throw new CliError(
        EXIT.failed,
        'This server offers no way to start a run: runs happen on the platform, each recorded as an event (custom-actions events).',
      );
    if (!listed.eventsUrls[environment]) throw new CliError(EXIT.failed, `The server lists no ${environment} environment for ${listed.key}.`);
    const event = await client.runAction(listed.eventsUrls, environment, inputs as RunInputs);
    for (const line of formatEvent(event, { environment, actionKey: `${application.id}/${listed.key}` })) context.out.line(line);
    context.out.result({ ok: event.ok, application: application.id, action: listed.key, environment, event: eventJson(event) });
    if (!event.ok) context.out.info(`The run of ${application.id}/${listed.key} on ${environment} failed.`);
    return event.ok ? EXIT.ok : EXIT.no;
  },
};

/** An event as --json gives it: the normalized fields (JSON escapes every control character a server sent). */
export function eventJson(event: NormalizedEvent): Record<string, unknown> {
  return {
    id: event.id,
    name: event.name,
    ok: event.ok,
    startTime: event.startTime === undefined ? null : new Date(event.startTime).toISOString(),
    duration: event.duration ?? null,
    result: event.result ?? null,
    error: event.error ?? null,
    logs: event.logs.map((l) => ({ time: l.time === undefined ? null : new Date(l.time).toISOString(), level: l.level, message: l.message })),
    logsOmitted: event.logsOmitted,
    ...(event.unreadable === undefined ? {} : { unreadable: event.unreadable }),
  };
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new CliError(EXIT.usage, `${where} is not valid JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
}

/** An input set file (plain, or a test case whose `inputs` are taken), its problems at file:line:column. */
async function readInputsFile(file: string, parameters: Parameters<typeof parseInputSetFile>[1], cwd: string): Promise<unknown> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    throw new CliError(EXIT.usage, `Cannot read ${path.relative(cwd, file)}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`);
  }
  const parsed = parseInputSetFile(text, parameters);
  if (parsed.problems.length > 0) throw new CliError(EXIT.usage, parsed.problems.map((p) => problemAt(path.relative(cwd, file), p)).join('\n'));
  return parsed.inputs;
}
