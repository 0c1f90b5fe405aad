import path from 'node:path';
import { type WorkspaceAction } from '../core/deploy/pipeline';
import { formatProblem } from '../core/schema';
import { ACTION_FILE, type ActionName, describeNameProblems, MAIN_FILE, type NamedAction, parseActionName, selectActions } from '../core/workspace';
import { CliError, EXIT } from './exitCodes';
import { type CliProject, type LocalActionFolder } from './project';

/** A workspace action folder as the pipeline reads it, its files named relative to the project. */
export function workspaceAction(project: CliProject, folder: LocalActionFolder): WorkspaceAction {
  const relative = (name: string) => path.relative(project.root, path.join(folder.folder, name)).split(path.sep).join('/');
  return {
    key: folder.key,
    metadataFile: relative(ACTION_FILE),
    codeFile: relative(MAIN_FILE),
    metadata: folder.metadata,
    metadataProblems: folder.problems.map((p) => ({ range: p.range, message: formatProblem(p) })),
    code: folder.code,
  };
}

/**
 * The actions the operands name among `candidates`, by the core's rule of naming actions
 * (`selectActions`, src/core/workspace/actionNames.ts): `key` where one application holds it, or
 * `application/key`; none named means all. A name that finds nothing, or a key two applications
 * hold, is a usage error, so a typo never deploys nothing and reports success, and a key never
 * reaches the wrong application's action. `unknownIsFine`: a name that finds nothing is no error
 * (its application's key was refused, and that error says why).
 */
export function selectNamed<T>(operands: readonly string[], candidates: readonly T[], where: (candidate: T) => NamedAction, unknownIsFine = false): T[] {
  const { chosen, problems } = selectActions(actionNames(operands), candidates, where);
  const told = unknownIsFine ? problems.filter((p) => p.kind !== 'unknown') : problems;
  if (told.length > 0) throw new CliError(EXIT.usage, describeNameProblems(told), 'Name an action by its key, or as <application-id>/<key>.');
  return chosen;
}

/** The operands as action names; a usage error for one that is none. */
export function actionNames(operands: readonly string[]): ActionName[] {
  return operands.map((operand) => {
    const name = parseActionName(operand);
    if (!name) throw new CliError(EXIT.usage, `"${operand}" is not an action: give its key, or application/key.`);
    return name;
  });
}
