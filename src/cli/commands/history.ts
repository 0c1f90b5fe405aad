import { type Command } from 'commander';
import { type VersionEntry } from '../../core/client';
import { type Part } from '../../core/deploy/decide';
import { isBase, type VersionRow, versionRef, versionRows } from '../../core/deploy/versionRows';
import { serverText } from '../../core/text';
import { serverActions } from '../actions';
import { type CommandContext } from '../context';
import { CliError, EXIT, type ExitCode } from '../exitCodes';
import { readLock } from '../lockFile';
import { type CommandDefinition } from './command';

/**
 * An action's versions, newest first, as the editor's Deploy History lists them (core versionRows):
 * the server's kept versions of its code and metadata, each with its number, time and writer, and
 * the one customactions.lock.json names as the base. `rollback` redeploys one.
 */
export const history: CommandDefinition = {
  name: 'history',
  summary: "list an action's versions on the server (code and metadata), newest first, the base marked",
  listFields: { list: 'versions', fields: ['ref', 'part', 'version', 'createdAt', 'client', 'size', 'etag', 'base'] },
  configure(command: Command) {
    command
      .argument('<action>', 'the action, by key or <application-id>/<key>')
      .option('-a, --application <id...>', 'the application, when several could hold the key')
      .option('--part <part>', 'only this part: code or metadata')
      .addHelpText(
        'after',
        `
One line per version the server keeps (a server with the versions extension, as the sandbox):
its name for rollback (code@3, metadata@2), when, who wrote it (the writer's client), and "base" for
the version customactions.lock.json names (what this repository last deployed or pulled).

Examples:
  custom-actions history greet
  custom-actions history billing/greet --part code --json=ref,createdAt,client
  custom-actions rollback greet code@3 --dry-run`,
      );
  },
  async run(context: CommandContext, operands, options): Promise<ExitCode> {
    const parts = partsOption(options.part);
    const project = await context.loadProject();
    const [action] = await serverActions(context, operands, options.application);
    const { application, listed } = action!;
    const client = await context.client(application);
    if (!(await client.capabilities()).versions)
      throw new CliError(
        EXIT.failed,
        `${(await context.server()).url} keeps no versions of its actions (it offers no versions extension): there is no history to list.`,
        'The local sandbox keeps them; a platform server may not.',
      );
    const base = (await readLock(project.root)).get(project.baseUrl, application.id, listed.key);
    const ofThis = base && base.id === listed.id ? base : undefined;
    const rows = versionRows([], await client.listVersions(listed.id), parts);
    const { color } = context.out;
    for (const row of rows) {
      const v = row.version!;
      context.out.line(
        [
          versionRef(row.part, v.version).padEnd(12),
          (v.createdAt ?? '').padEnd(25),
          v.client ? `by ${serverText(v.client, 80)}` : '',
          isBase(row, ofThis) ? color.cyan('base') : '',
        ]
          .filter(Boolean)
          .join('  '),
      );
    }
    context.out.info(
      rows.length === 0
        ? `No versions of ${application.id}/${serverText(listed.key, 120)} are kept on the server.`
        : `${rows.length} version${rows.length === 1 ? '' : 's'} of ${application.id}/${serverText(listed.key, 120)}, newest first${
            rows.some((r) => isBase(r, ofThis)) ? '; base: the version customactions.lock.json names' : ''
          }. custom-actions rollback ${listed.key} <version> redeploys one.`,
    );
    context.out.result({
      ok: true,
      action: { application: application.id, key: listed.key, id: listed.id },
      versions: rows.map((row) => rowJson(row, isBase(row, ofThis))),
    });
    return EXIT.ok;
  },
};

function rowJson(row: VersionRow, base: boolean): unknown {
  const v: VersionEntry = row.version!;
  return {
    ref: versionRef(row.part, v.version),
    part: row.part,
    version: v.version,
    createdAt: v.createdAt,
    client: v.client,
    size: v.size,
    etag: v.etag,
    base,
  };
}

/** `--part code|metadata` (also main.ts, implementation, action.yaml), or both. */
export function partsOption(value: unknown): Part[] {
  if (value === undefined) return ['implementation', 'metadata'];
  const text = String(value).toLowerCase();
  if (['code', 'implementation', 'main.ts'].includes(text)) return ['implementation'];
  if (['metadata', 'action.yaml'].includes(text)) return ['metadata'];
  throw new CliError(EXIT.usage, `--part must be code or metadata, not "${String(value)}".`);
}
