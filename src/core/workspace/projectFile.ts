import { isMap, isSeq } from 'yaml';
import { type ApplicationEntry, type ProjectFile, ProjectFileSchema } from '../schema/project';
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

/** The project file with one more application, its comments and layout kept. */
export function addApplication(text: string, entry: ApplicationEntry): string {
  const { doc, syntaxProblems } = readYaml(text);
  if (syntaxProblems.length > 0) throw new Error('customactions.yaml is not valid YAML; fix it first.');
  if (!isMap(doc.contents)) doc.contents = doc.createNode({});
  const apps = doc.get('applications', true);
  const node = doc.createNode({ id: entry.id, name: entry.name, folder: entry.folder });
  if (isSeq(apps)) {
    apps.flow = false;
    apps.add(node);
  } else doc.set('applications', doc.createNode([node]));
  return doc.toString({ lineWidth: 0 });
}

/** The project file without the application `id`; other applications and comments are kept. */
export function removeApplication(text: string, id: string): string {
  const { doc, syntaxProblems } = readYaml(text);
  if (syntaxProblems.length > 0) throw new Error('customactions.yaml is not valid YAML; fix it first.');
  const apps = doc.get('applications', true);
  if (!isSeq(apps)) return text;
  const index = apps.items.findIndex((item) => isMap(item) && item.get('id') === id);
  if (index < 0) return text;
  apps.delete(index);
  return doc.toString({ lineWidth: 0 });
}
