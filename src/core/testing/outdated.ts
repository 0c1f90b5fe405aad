import { ACTION_FILE, INPUTS_FOLDER, isInputSetFileName, MAIN_FILE } from '../workspace/files';

/**
 * Which verdicts of the Testing view a changed file makes outdated, from its path alone ('/'-separated,
 * as in a URI's path): every case of the action for its main.ts or action.yaml (a case runs that code
 * with those parameters and result type), one case for an input set. Other files change no verdict.
 */
export type OutdatedBy =
  | { readonly scope: 'action'; readonly folder: string }
  | { readonly scope: 'case'; readonly folder: string; readonly file: string }
  | undefined;

export function outdatedBy(path: string): OutdatedBy {
  const parts = path.split('/');
  const name = parts[parts.length - 1] ?? '';
  if (parts.length >= 2 && (name === MAIN_FILE || name === ACTION_FILE)) {
    const folder = parts.slice(0, -1).join('/');
    return folder === '' ? undefined : { scope: 'action', folder };
  }
  if (parts.length >= 4 && parts[parts.length - 2] === INPUTS_FOLDER && isInputSetFileName(name)) {
    const folder = parts.slice(0, -2).join('/');
    return folder === '' ? undefined : { scope: 'case', folder, file: path };
  }
  return undefined;
}
