import { type ActionMetadata } from '../schema/metadata';
import { validateMetadata } from '../schema/validate';
import { METADATA_ORDER } from './files';
import { type PositionedProblem, rangeOf } from './positions';
import { positionProblems, readYaml } from './yamlDocument';

export interface ParsedAction {
  /** Present only when the file is valid YAML and valid metadata. */
  readonly metadata: ActionMetadata | undefined;
  /** The file's plain value whenever the YAML could be read, valid metadata or not. */
  readonly value: unknown;
  readonly problems: PositionedProblem[];
}

/** action.yaml to metadata; bad YAML and invalid metadata come back as positioned problems, never thrown. */
export function parseActionYaml(text: string): ParsedAction {
  const parsed = readYaml(text);
  if (parsed.syntaxProblems.length > 0) return { metadata: undefined, value: undefined, problems: parsed.syntaxProblems };
  if (parsed.value == null) {
    const problem = {
      path: [],
      message: `empty: expected the fields ${METADATA_ORDER.join(', ')}`,
      range: rangeOf(parsed.lines, 0, 0),
      severity: 'error',
    } as const;
    return { metadata: undefined, value: parsed.value, problems: [problem] };
  }
  const checked = validateMetadata(parsed.value);
  if (checked.ok) return { metadata: checked.value, value: parsed.value, problems: [] };
  return { metadata: undefined, value: parsed.value, problems: positionProblems(parsed, text, checked.problems) };
}

/** An action folder as its action.yaml names it: the key and name the file gives, valid metadata or not. */
export interface FolderAction extends ParsedAction {
  /** From action.yaml when it says, else the folder's name: a folder with a broken file still has a name. */
  readonly key: string;
  readonly name: string | undefined;
}

/** The action of the folder `folderName` whose action.yaml is `text`: the one rule of the editor and the command line. */
export function folderAction(folderName: string, text: string): FolderAction {
  const parsed = parseActionYaml(text);
  const value = (parsed.value ?? {}) as { key?: unknown; name?: unknown };
  return {
    ...parsed,
    key: typeof value.key === 'string' && value.key ? value.key : folderName,
    name: typeof value.name === 'string' ? value.name : undefined,
  };
}
