import { type Command } from 'commander';
import { ApiError } from '../../core/client';
import { count } from '../../core/text';
import { type CommandContext, describeFailure, serverLine } from '../context';
import { CliError, EXIT, type ExitCode, worstExit } from '../exitCodes';
import { keyOriginText } from '../keys';
import { type CommandDefinition } from './command';

/** How the server took an application's key. */
type KeyState = 'accepted' | 'refused' | 'no-key' | 'unreachable' | 'failed';

interface Row {
  readonly id: string;
  readonly name: string | null;
  readonly keyVariable: string | null;
  readonly keyFrom: string | null;
  readonly state: KeyState;
  readonly actions?: number;
  readonly message?: string;
  readonly exit: ExitCode;
}

/**
 * Who am I here (as `gh auth status`): the server and who named it (and which target, when the file names targets), and per application the variable
 * its key comes from (never the key) and whether the server accepts it. One read per application,
 * its list of actions, which needs the key and changes nothing.
 */
export const whoami: CommandDefinition = {
  name: 'whoami',
  summary: 'which target and server, which applications, which key variable each uses, and whether the server accepts it',
  listFields: { list: 'applications', fields: ['id', 'name', 'keyVariable', 'keyFrom', 'state', 'actions', 'message'] },
  configure(command: Command) {
    command.option('-a, --application <id...>', 'only these applications').addHelpText(
      'after',
      `
Reads each application's list of actions with its key, and writes nothing. Exit 0 when the server
accepts every key, 3 when a key is missing or refused, 5 when the server cannot be reached.

Examples:
  custom-actions whoami
  custom-actions whoami --json=id,keyVariable,state`,
    );
  },
  async run(context: CommandContext, _operands, options): Promise<ExitCode> {
    const apps = await context.applications(options.application);
    const server = await context.server();
    context.out.server = server;
    const rows = await Promise.all(
      apps.map(async (app): Promise<Row> => {
        const origin = await context.keyOrigin(app);
        const base = { id: app.id, name: app.name ?? null, keyVariable: origin?.variable ?? null, keyFrom: origin?.from ?? null };
        if (!origin) return { ...base, state: 'no-key', exit: EXIT.auth, message: await context.missingKeyHint(app) };
        try {
          const client = await context.client(app, { quiet: true });
          const listed = await client.listActions(app.id);
          return { ...base, state: 'accepted', actions: listed.length, exit: EXIT.ok };
        } catch (error) {
          const failure = describeFailure(await context.ofApplication(app, error));
          const state: KeyState =
            failure.exitCode === EXIT.auth ? 'refused' : error instanceof ApiError && failure.exitCode === EXIT.network ? 'unreachable' : 'failed';
          if (error instanceof CliError && error.exitCode === EXIT.usage) throw error;
          return { ...base, state, exit: failure.exitCode, message: failure.message };
        }
      }),
    );
    const { color } = context.out;
    context.out.line(serverLine(server));
    for (const row of rows) {
      const origin = row.keyVariable === null ? 'no key' : `key ${keyOriginText({ variable: row.keyVariable, from: row.keyFrom! })}`;
      const state =
        row.state === 'accepted'
          ? color.green(`accepted (${count(row.actions ?? 0, 'action')})`)
          : // A missing key's message is the variables to set; "no key" is said once, by origin.
            color.red(row.state === 'no-key' ? (row.message ?? '') : `${row.state}: ${row.message ?? ''}`);
      context.out.line(`  ${row.id}${row.name ? ` (${row.name})` : ''}: ${origin}: ${state}`);
    }
    const exit = worstExit(rows.map((r) => r.exit));
    const refused = rows.filter((r) => r.state !== 'accepted').length;
    context.out.info(
      refused === 0
        ? `The server accepts the key of ${count(rows.length, 'application')}.`
        : `${refused} of ${count(rows.length, 'application')} cannot be used.`,
    );
    context.out.result({ ok: exit === EXIT.ok, applications: rows.map(({ exit: _exit, ...row }) => row) });
    return exit;
  },
};
