/** The names of the workspace's files; the layout is described in docs/workspace.md. */
export const PROJECT_FILE = 'customactions.yaml';
export const ACTION_FILE = 'action.yaml';
export const MAIN_FILE = 'main.ts';
export const GENERATED_FILE = 'action.generated.ts';
export const INPUTS_FOLDER = 'inputs';

/** Field order of a new action.yaml: the order the spec lists them in. */
export const METADATA_ORDER = ['key', 'name', 'description', 'developerEmail', 'parameters', 'result'] as const;
