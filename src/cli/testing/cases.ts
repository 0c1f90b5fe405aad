import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { type ActionMetadata } from '../../core/schema';
import { type InputSetFile, parseInputSetFile } from '../../core/testing';
import { INPUTS_FOLDER, inputSetName, isInputSetFileName } from '../../core/workspace';
import { type LocalActionFolder, problemAt } from '../project';

/** An input set of an action (`inputs/<name>.json`) read as a test case, by the core's rules. */
export interface TestCase {
  readonly action: LocalActionFolder;
  /** The file's name without `.json`, as the Testing view names it. */
  readonly name: string;
  readonly file: string;
  /** The file relative to the project, for messages and the JUnit `file` attribute. */
  readonly relativeFile: string;
  readonly parsed: InputSetFile;
  /** Why the case cannot run (problems of the file or of action.yaml, each at file:line:column); undefined when it can. */
  readonly unrunnable: string | undefined;
  /** The action's metadata, when action.yaml is valid. */
  readonly metadata: ActionMetadata | undefined;
}

/** Every input set of these actions, by action then file name. */
export async function readCases(actions: readonly LocalActionFolder[], projectRoot: string): Promise<TestCase[]> {
  const perAction = await Promise.all(actions.map((action) => casesOf(action, projectRoot)));
  return perAction.flat();
}

async function casesOf(action: LocalActionFolder, projectRoot: string): Promise<TestCase[]> {
  const folder = path.join(action.folder, INPUTS_FOLDER);
  let names: string[];
  try {
    names = (await readdir(folder, { withFileTypes: true })).filter((e) => e.isFile() && isInputSetFileName(e.name)).map((e) => e.name);
  } catch {
    return [];
  }
  names.sort((a, b) => a.localeCompare(b));
  return Promise.all(
    names.map(async (fileName) => {
      const file = path.join(folder, fileName);
      const relativeFile = path.relative(projectRoot, file).split(path.sep).join('/');
      const parsed = parseInputSetFile(await readFile(file, 'utf8'), action.metadata?.parameters);
      const yamlFile = path.relative(projectRoot, path.join(action.folder, 'action.yaml')).split(path.sep).join('/');
      const unrunnable = !action.metadata
        ? `action.yaml has problems; fix them to run its tests:\n${action.problems.map((p) => problemAt(yamlFile, p)).join('\n')}`
        : action.code === undefined
          ? `${path.relative(projectRoot, action.folder).split(path.sep).join('/')} has no main.ts`
          : parsed.problems.length > 0
            ? parsed.problems.map((p) => problemAt(relativeFile, p)).join('\n')
            : undefined;
      return { action, name: inputSetName(fileName), file, relativeFile, parsed, unrunnable, metadata: action.metadata };
    }),
  );
}
