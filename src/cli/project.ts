import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ApplicationEntry, type ActionMetadata, formatProblem, isHttpUrl, type ProjectFile } from '../core/schema';
import {
  ACTION_FILE,
  applicationsOn,
  chooseTarget,
  findTarget,
  folderAction,
  isTargetProblem,
  MAIN_FILE,
  parseProjectFile,
  type PositionedProblem,
  PROJECT_FILE,
  type ProjectTarget,
  type TargetAsk,
  type TargetChoice,
} from '../core/workspace';
import { CliError, EXIT } from './exitCodes';
import { findProjectRoot } from './projectRoot';

/**
 * An application of customactions.yaml on the target a command works on: `id` is its id on that
 * target's server, `projectId` the id the applications list gives it; its folder as a path of this machine.
 */
export interface CliApplication extends ApplicationEntry {
  readonly projectId: string;
  readonly label: string;
  readonly folderPath: string;
  /** The target it is on (its keys are that target's: keys.ts). */
  readonly target: ProjectTarget;
}

export interface CliProject {
  /** The folder holding customactions.yaml. */
  readonly root: string;
  readonly file: ProjectFile;
  /**
   * The base URL requests go to: customactions.yaml's, or the one given on the command line. It may
   * be `local-sandbox`, which only commands that need no server accept (`CommandContext.client` refuses it).
   */
  readonly baseUrl: string;
  readonly applications: readonly CliApplication[];
  /** The target the command works on, and why it was chosen (docs/environments.md). */
  readonly target: TargetChoice;
}

/**
 * customactions.yaml of `start` or the nearest folder above it (as git finds its repository), read
 * and checked by the same core code as the extension. An invalid file is a usage error that names
 * each problem as `file:line:column`.
 */
export async function loadProject(start: string, baseUrlOverride: string | undefined, ask: (file: ProjectFile) => TargetAsk = () => ({})): Promise<CliProject> {
  const root = findProjectRoot(start);
  if (root === undefined)
    throw new CliError(
      EXIT.usage,
      `No ${PROJECT_FILE} in ${start} or any folder above it.`,
      'Run the command in the project, or name its folder with --project; custom-actions init writes a new one.',
    );
  const file = path.join(root, PROJECT_FILE);
  const text = await readFile(file, 'utf8');
  const parsed = parseProjectFile(text);
  if (!parsed.project) {
    const where = path.relative(start, file) || PROJECT_FILE;
    throw new CliError(EXIT.usage, `${PROJECT_FILE} is invalid:\n${parsed.problems.map((p) => `  ${problemAt(where, p)}`).join('\n')}`);
  }
  const project = parsed.project;
  if (baseUrlOverride !== undefined && !isHttpUrl(baseUrlOverride))
    throw new CliError(EXIT.usage, `--base-url must be an http(s) URL, not "${baseUrlOverride}".`);
  const choice = chooseTarget(project, ask(project));
  if (isTargetProblem(choice)) throw new CliError(EXIT.usage, `${choice.problem}.`, `Its targets: ${choice.known.join(', ')}.`);
  return projectOn(root, project, choice, baseUrlOverride);
}

/** The project as it is on one target: its server (or the one given on the command line) and the ids there. */
export function projectOn(root: string, file: ProjectFile, choice: TargetChoice, baseUrlOverride?: string): CliProject {
  const target = choice.target;
  return {
    root,
    file,
    baseUrl: baseUrlOverride ?? target.baseUrl,
    target: choice,
    applications: applicationsOn(target, file.applications).map((app) => ({
      ...app,
      label: app.name ?? app.id,
      folderPath: path.join(root, ...app.folder.split(/[\\/]/).filter(Boolean)),
      target,
    })),
  };
}

/** The same project on the target named `name` (promote's --from and --to): a usage error when the file has none. */
export function projectOnTarget(project: CliProject, name: string, flag: string): CliProject {
  const target = findTarget(project.file, name);
  if (!target) throw new CliError(EXIT.usage, `${flag} names the target "${name}", which ${PROJECT_FILE} does not have.`);
  return projectOn(project.root, project.file, { target, why: { source: 'flag' } });
}

/** `file:line:column: path: message`, lines and columns from 1 as editors and CI annotations read them. */
export function problemAt(file: string, problem: PositionedProblem | { readonly message: string; readonly range: PositionedProblem['range'] }): string {
  const where = `${file}:${problem.range.start.line + 1}:${problem.range.start.character + 1}`;
  return `${where}: ${'path' in problem ? formatProblem(problem) : problem.message}`;
}

/** An action folder of the workspace: a sub-folder of the application's folder holding action.yaml. */
export interface LocalActionFolder {
  readonly application: CliApplication;
  readonly folder: string;
  /** From action.yaml when it says, else the folder's name (`folderAction`, as the extension). */
  readonly key: string;
  /** action.yaml's text. */
  readonly yamlText: string;
  /** Present only when action.yaml is valid. */
  readonly metadata: ActionMetadata | undefined;
  readonly problems: readonly PositionedProblem[];
  /** main.ts's text, undefined when there is none. */
  readonly code: string | undefined;
}

/** The action folders of an application, by key; an application folder that does not exist holds none. */
export async function scanApplication(app: CliApplication): Promise<LocalActionFolder[]> {
  return parseActionFolders(app, await readActionFolders(app));
}

/** The files of an action folder as read, before action.yaml is parsed. */
export interface ActionFiles {
  readonly folder: string;
  readonly yamlText: string;
  /** main.ts's text, undefined when there is none. */
  readonly code: string | undefined;
}

/**
 * An application's action folders' files, unparsed: what a deploy needs to know whether some code
 * changed, a good while before the action.yaml files are parsed (the slower part).
 */
export async function readActionFolders(app: CliApplication): Promise<ActionFiles[]> {
  let entries;
  try {
    entries = await readdir(app.folderPath, { withFileTypes: true });
  } catch {
    return [];
  }
  return (
    entries
      .filter((e) => e.isDirectory())
      // By name, which is the key but where action.yaml says otherwise: the order actions are deployed in.
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((e) => readActionFiles(path.join(app.folderPath, e.name)))
      .filter((a): a is ActionFiles => a !== undefined)
  );
}

/**
 * The folders of readActionFolders, parsed a slice at a time, letting the event loop turn between
 * slices: a request made before (the deploy's list) is written, and its answer read, meanwhile.
 */
export async function parseActionFolders(app: CliApplication, found: readonly ActionFiles[]): Promise<LocalActionFolder[]> {
  const parsed: LocalActionFolder[] = [];
  for (let i = 0; i < found.length; i += PARSE_SLICE) {
    if (i > 0) await new Promise<void>((resolve) => setImmediate(resolve));
    for (const files of found.slice(i, i + PARSE_SLICE)) parsed.push(parseActionFolder(app, files));
  }
  return parsed.sort((a, b) => a.key.localeCompare(b.key));
}

/** action.yaml files parsed between two turns of the event loop: about 10 ms of work. */
const PARSE_SLICE = 10;

function readActionFiles(folder: string): ActionFiles | undefined {
  const yamlText = readOptional(path.join(folder, ACTION_FILE));
  return yamlText === undefined ? undefined : { folder, yamlText, code: readOptional(path.join(folder, MAIN_FILE)) };
}

function parseActionFolder(app: CliApplication, { folder, yamlText, code }: ActionFiles): LocalActionFolder {
  const parsed = folderAction(path.basename(folder), yamlText);
  return { application: app, folder, key: parsed.key, yamlText, metadata: parsed.metadata, problems: parsed.problems, code };
}

/**
 * A file's text, or undefined when there is none (or a file stands where a folder should). Read at
 * once: for the small files of an action, the thread pool's round trips of an asynchronous read
 * (open, stat, read, close) cost more than the read, and a deploy reads two per action.
 */
export function readOptional(file: string): string | undefined {
  try {
    return readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR') return undefined;
    throw error;
  }
}
