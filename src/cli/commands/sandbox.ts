import { spawn } from 'node:child_process';
import { DATABASE_URL_VARIABLE, sandboxBackend } from '../../core/sandbox/backend';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { Argument, type Command } from 'commander';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode } from '../exitCodes';
import { terminalSafeJson } from '../jsonText';
import { applicationKeyVariable } from '../keys';
import { loadProject } from '../project';
import { type CommandDefinition } from './command';

interface Ready {
  readonly url: string;
  readonly applications: readonly { readonly id: string; readonly name: string; readonly key: string }[];
}

/**
 * The local sandbox the editor starts (dist/sandbox.js beside this bundle, with PGlite's files in
 * dist/pglite/), started for a pipeline's integration tests. It runs until Ctrl+C or SIGTERM.
 */
export const sandbox: CommandDefinition = {
  name: 'sandbox',
  summary: 'start the local sandbox server (for integration tests); prints its URL and keys',
  configure(command: Command) {
    command
      .addArgument(new Argument('<subcommand>', 'what to do with the sandbox').choices(['start']))
      .option('--port <port>', 'the port on 127.0.0.1 (default: a free one)')
      .option(
        '--data <dir>',
        'keep the data in this folder (default: in memory, gone when it stops; on the database server CUSTOM_ACTIONS_DATABASE_URL names, when set, which --data refuses)',
      )
      .option('--ensure-app <app...>', "create these applications, each id or id:name (or rename them), with a new key each; default: customactions.yaml's")
      .option('--demo', 'create the demo applications, with example actions and events')
      .option('--cors-origins <list>', "origins a browser may call it from (default: VS Code for the Web's and loopback; none: no CORS)")
      .addHelpText(
        'after',
        `
When it is ready it prints, on stdout, lines a pipeline can source or pass to --key-file:
  CUSTOM_ACTIONS_BASE_URL=http://127.0.0.1:<port>
  CUSTOM_ACTIONS_KEY_<APPLICATION_ID>=<a key of this sandbox>
(with --json, one line {"url", "applications": [{"id", "name", "key"}]}); messages go to stderr.
The keys are the sandbox's own, made for this run; they give access to nothing else.

Examples:
  custom-actions sandbox start --port 4000 --data .sandbox > sandbox.env &
  custom-actions sandbox start --ensure-app billing:Billing --json`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const args = ['--json'];
    if (options.port !== undefined) {
      const port = Number(options.port);
      if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(EXIT.usage, `--port must be a port number, not "${String(options.port)}".`);
      args.push('--port', String(port));
    }
    // Which store, by the rule the sandbox and `sandbox admin` follow (a data directory with
    // CUSTOM_ACTIONS_DATABASE_URL set is refused, not quietly one of the two).
    const chosen = sandboxBackend({ data: options.data === undefined ? undefined : String(options.data) }, context.io.env);
    if (!chosen.ok) throw new CliError(EXIT.usage, `${chosen.reason[0]!.toUpperCase()}${chosen.reason.slice(1)}.`);
    const backend = chosen.backend;
    if (backend.kind === 'directory') args.push('--data', path.resolve(context.io.cwd, backend.dir));
    if (options.demo) args.push('--demo');
    if (options.corsOrigins !== undefined) args.push('--cors-origins', String(options.corsOrigins));
    const ensure = options.ensureApp ?? (options.demo ? [] : await projectApplications(context));
    if (ensure.length === 0 && !options.demo)
      throw new CliError(EXIT.usage, 'The sandbox would have no application: name one with --ensure-app <id>, or start it in a project.');
    for (const app of ensure) args.push('--ensure-app', app);
    return serve(context, args);
  },
};

/** The applications of the project around the current folder, if there is one. */
async function projectApplications(context: CommandContext): Promise<string[]> {
  const start = context.options.project ? path.resolve(context.io.cwd, context.options.project) : context.io.cwd;
  try {
    // Its baseUrl does not matter here (it may name the sandbox itself).
    const project = await loadProject(start, 'http://127.0.0.1');
    return project.applications.map((a) => (a.name ? `${a.id}:${a.name}` : a.id));
  } catch {
    return [];
  }
}

function serve(context: CommandContext, args: string[]): Promise<ExitCode> {
  // Only what the sandbox needs of this environment (no keys of the pipeline), as the extension starts it.
  const env: Record<string, string> = {};
  // The database server's URL by the environment only: on the command line its password would be in the process list.
  for (const name of ['TMPDIR', 'TMP', 'TEMP', 'SystemRoot', 'CUSTOM_ACTIONS_SANDBOX_CORS_ORIGINS', DATABASE_URL_VARIABLE]) {
    const value = context.io.env[name];
    if (value !== undefined) env[name] = value;
  }
  // An IPC channel, so the sandbox ends with this process whichever way it ends.
  const child = spawn(process.execPath, [path.join(context.io.bundles, 'sandbox.js'), ...args], { env, stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
  return new Promise<ExitCode>((resolve) => {
    let ready = false;
    let stopping = false;
    const stop = () => {
      if (stopping) return;
      stopping = true;
      context.out.info('Stopping the sandbox.');
      child.kill('SIGTERM');
    };
    // Ctrl+C and SIGTERM both come through here (main.ts).
    const release = context.io.interrupts.on(stop);
    child.stderr!.setEncoding('utf8').on('data', (text: string) => {
      // Before it is ready the sandbox prints only its failures; afterwards, only its own notices.
      if (!ready || !/^sandbox: SIG/m.test(text)) context.io.stderr.write(text);
    });
    createInterface({ input: child.stdout! }).on('line', (line) => {
      if (ready) return;
      ready = true;
      const state = JSON.parse(line) as Ready;
      // The keys of this throwaway sandbox are what these lines are for: the one output that keeps key shapes.
      if (context.out.json) context.out.keyLine(terminalSafeJson(line));
      else {
        context.out.keyLine(`CUSTOM_ACTIONS_BASE_URL=${state.url}`);
        for (const app of state.applications) context.out.keyLine(`${applicationKeyVariable(app.id)}=${app.key}`);
      }
      context.out.info(`The sandbox is listening on ${state.url} with ${state.applications.map((a) => a.id).join(', ')}; Ctrl+C to stop.`);
    });
    child.on('exit', (code, signal) => {
      release();
      if (!ready) context.out.error(`The sandbox did not start (${signal ? `stopped by ${signal}` : `exit code ${code ?? '?'}`}).`);
      resolve(ready && (stopping || code === 0) ? EXIT.ok : EXIT.failed);
    });
  });
}
