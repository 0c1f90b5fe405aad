import { type Command } from 'commander';
import { type CommandContext } from '../context';
import { EXIT, type ExitCode } from '../exitCodes';
import { scanApplication } from '../project';
import { type CommandDefinition } from './command';

/** Per action: is it here, on the server, or both (the first cut; the content comparison follows). */
export const status: CommandDefinition = {
  name: 'status',
  summary: 'show, per action, how the workspace and the server differ (exit 1 when they do)',
  configure(command: Command) {
    command.option('-a, --application <id...>', 'only these applications (ids of customactions.yaml)');
  },
  async run(context: CommandContext, _operands, options): Promise<ExitCode> {
    const apps = await context.applications(options.application as string[] | undefined);
    const rows: { application: string; key: string; state: string }[] = [];
    for (const app of apps) {
      const client = await context.client(app);
      const [local, listed] = await Promise.all([scanApplication(app), client.listActions(app.id)]);
      const keys = new Set([...local.map((a) => a.key), ...listed.map((a) => a.key)]);
      for (const key of [...keys].sort()) {
        const here = local.some((a) => a.key === key);
        const there = listed.some((a) => a.key === key);
        rows.push({ application: app.id, key, state: here && there ? 'both' : here ? 'only-here' : 'only-on-server' });
      }
    }
    const { color } = context.out;
    for (const row of rows) context.out.line(`${row.state === 'both' ? color.green(row.state) : color.yellow(row.state)}\t${row.application}/${row.key}`);
    context.out.result({ actions: rows });
    return rows.every((r) => r.state === 'both') ? EXIT.ok : EXIT.no;
  },
};
