import { type ProjectFile, ProjectFileSchema } from '../schema/project';
import { validateWith } from '../schema/validate';
import { type PositionedProblem } from './positions';
import { positionProblems, readYaml } from './yamlDocument';

export interface ParsedProject {
  readonly project: ProjectFile | undefined;
  readonly problems: PositionedProblem[];
}

export function parseProjectFile(text: string): ParsedProject {
  const parsed = readYaml(text);
  if (parsed.syntaxProblems.length > 0) return { project: undefined, problems: parsed.syntaxProblems };
  const checked = validateWith(ProjectFileSchema, parsed.value);
  if (checked.ok) return { project: checked.value, problems: [] };
  return { project: undefined, problems: positionProblems(parsed, text, checked.problems) };
}
