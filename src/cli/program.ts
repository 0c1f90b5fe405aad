import { statSync } from 'node:fs';
import { failureDocument } from '../core/commandLine';
import path from 'node:path';
import { Command, CommanderError, Option, type OutputConfiguration } from 'commander';
import { type Transport } from '../core/client';
import { createNodeTransport } from '../core/client/nodeTransport';
import { proxySettingsFromEnv } from '../core/client/proxy';
import { looksLikeKey } from '../core/client/redact';
import { type CommandDefinition } from './commands/command';
import { COMMANDS } from './commands/table';
import { CommandContext, describeFailure } from './context';
import { commandOptions, globalOptions } from './options';
import { CliError, EXIT, type ExitCode } from './exitCodes';
import { type CliIo } from './io';
import { guardIo, guardOf, Output } from './output';
import { DEFAULT_KEY_VARIABLE } from './keys';
import { REPOSITORY, VERSION } from './version';

const EXIT_HELP = `
Exit codes:
  0  done, or in step              4  changed on the server since the base; nothing written
  1  not in step, tests failed     5  server unreachable, timed out or failing
  2  usage, invalid project        6  refused before sending (code disagrees with metadata)
  3  no key, or key refused        7  the server refused a request
  130  interrupted (Ctrl+C, or SIGTERM); a deploy records what went through

Keys come from the environment (${DEFAULT_KEY_VARIABLE}, or ${DEFAULT_KEY_VARIABLE}_<APPLICATION_ID> for one
application) or from a file named by --key-file; never from an argument. A named target's keys are
${DEFAULT_KEY_VARIABLE}_<TARGET>_<APPLICATION_ID> and ${DEFAULT_KEY_VARIABLE}_<TARGET> (docs/environments.md).
Colour only on a terminal (NO_COLOR, FORCE_COLOR and --no-color decide too).
More: docs/cli.md in ${REPOSITORY}`;

/** Option names that say "a key": an option of that name that the program does not declare is refused unread. */
const KEY_NAMED = /key|token|secret|passw|pwd|credential|bearer|auth/i;

/**
 * The whole command line as main.ts runs it: `runCli` with its last resort, an error no command
 * caught written as one line (through the terminal guard) with exit code 1. The in-process tests call
 * this, with an io of their own.
 */
export async function runCommandLine(argv: readonly string[], rawIo: CliIo): Promise<ExitCode> {
  // One guard for the whole run (output.ts): the last resort below writes through it too.
  const io = guardIo(rawIo);
  try {
    return await runCli(argv, io);
  } catch (error) {
    io.stderr.write(`custom-actions: ${error instanceof Error ? error.message : String(error)}\n`);
    return EXIT.failed;
  }
}

/** Runs `custom-actions` with `argv` (the arguments after the program's name) and returns its exit code. */
export async function runCli(givenArgv: readonly string[], rawIo: CliIo): Promise<ExitCode> {
  // `--json=a,b` picks fields (as gh's `--json a,b`); a bare `--json` takes no value, so a word after it
  // stays an operand (`status --json greet` is the status of greet).
  let fields: string[] | undefined;
  const argv = givenArgv.map((a) => {
    const match = /^--json=(.*)$/.exec(a);
    if (!match) return a;
    fields = splitIds(match[1]!);
    return '--json';
  });
  // Every byte written from here on goes through the terminal guard (output.ts), commander's own included.
  const io = guardIo(rawIo);
  for (const value of argumentValues(argv)) if (looksLikeKey(value)) guardOf(io).addSecret(value);
  let exitCode: ExitCode = EXIT.ok;
  // The run's own transport, made on the first request (so `--help` opens nothing) and closed at its
  // end: no default of the process, so runs in one process share no connection nor proxy. A company's
  // proxy comes from the environment (docs/cli.md, *Behind a company network*); its certificate
  // authority from NODE_EXTRA_CA_CERTS, which Node itself reads at start into the store undici uses.
  let transport: Transport | undefined;
  const connect = (): Transport => (transport ??= createNodeTransport({ proxy: proxySettingsFromEnv(io.env) }));
  const program = buildProgram(io, connect, (code) => (exitCode = code), fields);
  const refusal = keyArgument(program, argv, io.cwd);
  if (refusal !== undefined) {
    const out = new Output(io, argv.includes('--json'));
    out.error(refusal, `Set ${DEFAULT_KEY_VARIABLE} (or ${DEFAULT_KEY_VARIABLE}_<APPLICATION_ID>) in the environment, or name a file with --key-file.`);
    out.result(failureDocument(EXIT.usage, refusal));
    return EXIT.usage;
  }
  if (argv.length === 0) {
    io.stderr.write(program.helpInformation());
    return EXIT.usage;
  }
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      if (error.code === 'commander.helpDisplayed' || error.code === 'commander.version' || error.code === 'commander.help') return EXIT.ok;
      // Commander has said what was wrong on stderr; a pipeline that asked for JSON gets its document too.
      new Output(io, argv.includes('--json')).result(failureDocument(EXIT.usage, usageMessage(error)));
      return EXIT.usage;
    }
    throw error;
  } finally {
    await transport?.close();
  }
  return exitCode;
}

function buildProgram(io: CliIo, transport: () => Transport, setExit: (code: ExitCode) => void, fields: readonly string[] | undefined): Command {
  const program = new Command('custom-actions')
    .description('Custom Actions from the command line: the workspace of customactions.yaml checked, deployed and pulled, as the editor does.')
    .version(VERSION, '-V, --version')
    .option('-C, --project <dir>', 'the project folder (holding customactions.yaml, or below it); default: the current folder')
    .option('-t, --target <name>', "the target of customactions.yaml to work on (also CUSTOM_ACTIONS_TARGET; in CI, else the branch's)")
    .option('--base-url <url>', "the server to use instead of the target's baseUrl (also CUSTOM_ACTIONS_BASE_URL)")
    .option('--key-file <file>', `a file of keys: NAME=key lines (${DEFAULT_KEY_VARIABLE}, ${DEFAULT_KEY_VARIABLE}_<APP>) or one bare key`)
    .option('--json', 'print the result as JSON on stdout (messages stay on stderr); --json=a,b: only these fields of each item listed')
    .option('--no-color', 'no colour, even on a terminal (also NO_COLOR)')
    .addOption(new Option('--timeout <seconds>', 'how long a command may wait for the server, retries included').default('30'))
    .option('-a, --application <id>', 'only this application (repeat it, or give ids with commas); also after the command', collectIds)
    .option('-y, --yes', 'answer yes to the confirmations: a write to a protected target, what deletes or overwrites on the server (needed without a terminal)')
    .option('-q, --quiet', 'do not name the target and server on stderr (a server other than the project names is still a warning)')
    .addHelpText('after', EXIT_HELP)
    .showHelpAfterError('(add --help for usage)')
    .configureOutput(commanderOutput(io))
    .exitOverride();
  program.helpCommand('help [command]', 'show the help of a command');
  for (const definition of COMMANDS) {
    const command = program.command(definition.name).summary(definition.summary).description(definition.summary).exitOverride();
    command.configureOutput(commanderOutput(io));
    definition.configure(command);
    command.addHelpText('after', EXIT_HELP);
    command.action(async (...args: unknown[]) => {
      const self = args[args.length - 1] as Command;
      // Read once into typed values (options.ts); the command's own -a shadows the global one in optsWithGlobals.
      const globals = globalOptions(program.opts());
      const own = commandOptions(self.opts());
      const context = new CommandContext(io, { ...globalOptions(self.optsWithGlobals()), application: globals.application }, transport);
      // -a before the command's name and after it are one list.
      const application = [...(globals.application ?? []), ...(own.application ?? [])];
      try {
        if (fields !== undefined) context.out.picked = pickedFields(definition, fields);
        setExit(await definition.run(context, self.args, { ...own, ...(application.length > 0 ? { application } : {}) }));
      } catch (error) {
        setExit(report(context, error, definition.listFields?.list === 'lines'));
      } finally {
        await context.finish();
        io.afterCommand?.();
      }
    });
  }
  return program;
}

/** The fields `--json=a,b` asks of a command, checked before it does anything. */
function pickedFields(definition: CommandDefinition, fields: readonly string[]): { list: string; fields: readonly string[] } {
  const listing = definition.listFields;
  if (!listing) throw new CliError(EXIT.usage, `${definition.name} lists nothing to pick fields of: use --json alone.`);
  const unknown = fields.filter((f) => !listing.fields.includes(f));
  if (unknown.length > 0 || fields.length === 0)
    throw new CliError(
      EXIT.usage,
      fields.length === 0 ? '--json= names no field.' : `Unknown field${unknown.length === 1 ? '' : 's'} for ${definition.name} --json: ${unknown.join(', ')}.`,
      `Available fields: ${listing.fields.join(', ')}.`,
    );
  return { list: listing.list, fields };
}

/** `-a x -a y,z`: every id, in order. */
function collectIds(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), ...splitIds(value)];
}

function splitIds(value: string): string[] {
  return value
    .split(',')
    .map((id) => id.trim())
    .filter(Boolean);
}

/** Commander's message without its `error: ` prefix, and without what was given after an `=`. */
function usageMessage(error: CommanderError): string {
  return unquoteValues(error.message.replace(/^error: /, ''));
}

/**
 * Commander quotes an option it does not know as it was given (`unknown option '--api-token=…'`):
 * the name is kept, what follows an `=` is not, in whatever it says.
 */
function unquoteValues(message: string): string {
  return message.replace(/'(-[^'=\s]*)=[^']*'/g, "'$1=…'");
}

function commanderOutput(io: CliIo): OutputConfiguration {
  return {
    writeOut: (s) => io.stdout.write(s),
    writeErr: (s) => io.stderr.write(s),
    outputError: (s, write) => write(unquoteValues(s)),
  };
}

/** Each argument, and what follows the `=` of an `--option=value`. */
function argumentValues(argv: readonly string[]): string[] {
  return argv.flatMap((a) => (a.startsWith('-') && a.includes('=') ? [a, a.slice(a.indexOf('=') + 1)] : [a]));
}

/**
 * Why the arguments put a key on the command line (shell history and process lists keep those), or
 * undefined. Refused, never quoted: an option the program does not declare whose name says key, token,
 * secret, password or the like, whatever its value; and a `--key-file` whose value is no file but looks
 * like a key itself.
 */
function keyArgument(program: Command, argv: readonly string[], cwd: string): string | undefined {
  const declared = new Set([program, ...program.commands].flatMap((c) => c.options.flatMap((o) => [o.long, o.short])));
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (!arg.startsWith('-')) continue;
    const name = arg.split('=')[0]!;
    if (!declared.has(name) && KEY_NAMED.test(name))
      return `${looksLikeKey(name) ? 'an option' : name}: a key is never taken from an argument (shell history and process lists keep those).`;
    if (name === '--key-file') {
      const value = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[i + 1];
      if (value !== undefined && looksLikeKey(value) && !isFile(path.resolve(cwd, value)))
        return '--key-file names a file of keys, and no such file is there: its value looks like a key itself, which is never taken from an argument.';
    }
  }
  return undefined;
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** A failure as a message on stderr (and, with --json, as a document on stdout) with its exit code. */
/** `lines`: the command streams one JSON document per line (events), so its failure is one line too. */
function report(context: CommandContext, error: unknown, lines = false): ExitCode {
  const failure = describeFailure(error);
  if (!(error instanceof CliError) && !(failure.kind !== undefined)) {
    // Not one of ours: the stack helps a bug report; the message is scrubbed like everything else.
    context.out.error(failure.message, context.io.env.CUSTOM_ACTIONS_DEBUG ? (error as Error).stack : undefined);
  } else context.out.error(failure.message, failure.hint);
  const document = failureDocument(failure.exitCode, failure.message, failure.kind);
  if (lines && context.out.json) context.out.jsonLine(document);
  else context.out.result(document);
  return failure.exitCode;
}
