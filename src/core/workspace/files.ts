/** The names of the workspace's files; the layout is described in docs/workspace.md. */
export const PROJECT_FILE = 'customactions.yaml';
export const ACTION_FILE = 'action.yaml';
export const MAIN_FILE = 'main.ts';
export const GENERATED_FILE = 'action.generated.ts';
export const INPUTS_FOLDER = 'inputs';

/** An input set is a `.json` file of an action's inputs folder (any case of the extension). */
export function isInputSetFileName(fileName: string): boolean {
  return /\.json$/i.test(fileName);
}

/** An input set's name, as the Testing view, Run and the command line show it: its file's, without `.json`. */
export function inputSetName(fileName: string): string {
  return fileName.replace(/\.json$/i, '');
}

/** Field order of a new action.yaml: the order the spec lists them in. */
export const METADATA_ORDER = ['key', 'name', 'description', 'developerEmail', 'parameters', 'result'] as const;
