import path from 'node:path';
import { type Command } from 'commander';
import { type ApplicationEntry, applicationSpec, formatProblem, type ProjectFile } from '../../core/schema';
import { parseProjectFile, PROJECT_FILE, serializeProjectFile } from '../../core/workspace';
import { type CommandContext } from '../context';
import { writeInProject } from '../projectWrite';
import { CliError, EXIT, type ExitCode } from '../exitCodes';
import { applicationKeyVariable } from '../keys';
import { type CommandDefinition } from './command';

/**
 * A new project's customactions.yaml, written by the core's serializer and read back by the core's
 * parser, the one the extension and every command read it with: what init writes, both accept.
 */
export const init: CommandDefinition = {
  name: 'init',
  summary: 'write the customactions.yaml of a new project: its server and its applications',
  configure(command: Command) {
    command
      // Not commander's required option: `-a` is also the program's (before or after the command), so
      // commander would not see it here; run checks it.
      .option(
        '-a, --application <app...>',
        'the applications on the server, each id or id:name (the name shown for it); the actions of each go in a folder named after its id',
      )
      .addHelpText(
        'after',
        `
The server is the global --base-url (or CUSTOM_ACTIONS_BASE_URL), written into the file. The file goes
in the current folder (or --project's) and never over one already there. No key is written: each
command reads CUSTOM_ACTIONS_KEY or CUSTOM_ACTIONS_KEY_<APPLICATION_ID> from its environment.

Examples:
  custom-actions init --base-url https://platform.example.com -a 5f2c9a:Billing
  custom-actions init --base-url http://127.0.0.1:4000 -a shop:Shop -a crm
  custom-actions pull      # then: the server's actions into the application folders`,
      );
  },
  async run(context: CommandContext, _operands, options): Promise<ExitCode> {
    const baseUrl = context.baseUrlOverride;
    if (baseUrl === undefined)
      throw new CliError(EXIT.usage, 'init needs the server the project deploys to.', 'Name it with --base-url <url> (or CUSTOM_ACTIONS_BASE_URL).');
    const folder = context.startFolder;
    const file = path.join(folder, PROJECT_FILE);
    const given = options.application ?? [];
    if (given.length === 0)
      throw new CliError(EXIT.usage, "init needs the project's applications: -a, --application <app...>.", 'Name each with -a <id> or -a <id>:<name>.');
    const project: ProjectFile = { baseUrl, applications: given.map(applicationEntry) };
    const text = serializeProjectFile(project);
    // The same rules as a file read from disk: what init writes, every command (and the editor) reads.
    const problems = parseProjectFile(text).problems;
    if (problems.length > 0)
      throw new CliError(EXIT.usage, `That would not be a valid ${PROJECT_FILE}:\n${problems.map((p) => `  ${formatProblem(p)}`).join('\n')}`);
    try {
      // Through the write guard, created, never replaced: 'wx' fails on any file already there, a link included.
      await writeInProject(folder, file, text, { exclusive: true });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'EEXIST')
        throw new CliError(EXIT.usage, `${file} exists already; init never writes over it.`, 'Edit it to add an application, or run init in another folder.');
      if (code === 'ENOENT') throw new CliError(EXIT.usage, `No folder ${folder} to write ${PROJECT_FILE} in.`);
      throw error;
    }
    const apps = project.applications.map((a) => `${a.id} (${a.folder}/)`).join(', ');
    context.out.info(`Wrote ${file}: ${baseUrl}, with ${apps}.`);
    context.out.info(
      `Next: give each application its key (${project.applications.map((a) => applicationKeyVariable(a.id)).join(', ')}, or CUSTOM_ACTIONS_KEY for all), then custom-actions pull brings the server's actions here.`,
    );
    context.out.result({ ok: true, file, project });
    return EXIT.ok;
  },
};

/** `id` or `id:name`, its actions in a folder named after the id (the schema refuses an id that is no folder name). */
function applicationEntry(value: string): ApplicationEntry {
  const { id, name } = applicationSpec(value);
  return { id, ...(name ? { name } : {}), folder: id };
}
