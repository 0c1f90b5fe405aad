import { Document, isMap, isSeq } from 'yaml';
import { type ApplicationEntry, type ProjectFile } from '../schema/project';
import { type ParsedYaml, readYaml } from './yamlDocument';
import { editYaml } from './yamlEdit';

// Writing customactions.yaml, apart from reading it (projectFile.ts): a command or `custom-actions
// init` writes it, never the extension's activation, which then does not load the editing.

/** The text of a new customactions.yaml, fields in the order docs/workspace.md shows them. */
export function serializeProjectFile(project: ProjectFile): string {
  const { baseUrl, sandbox, applications, ...rest } = project;
  const doc = new Document({ baseUrl, ...(sandbox ? { sandbox } : {}), applications: applications.map(entryValue), ...rest });
  return doc.toString({ lineWidth: 0 });
}

/**
 * The project file with the application `entry`, its comments and layout kept. An application
 * already listed under the same id is updated in place rather than listed twice.
 * Throws when the text is not valid YAML: the caller shows the file's problems instead of editing it.
 */
export function addApplication(text: string, entry: ApplicationEntry): string {
  const parsed = readOrThrow(text);
  return editYaml(parsed, text, (doc) => {
    if (!isMap(doc.contents)) doc.contents = doc.createNode({});
    const apps = doc.get('applications', true);
    if (!isSeq(apps)) {
      doc.set('applications', doc.createNode([entryValue(entry)]));
      return;
    }
    const index = apps.items.findIndex((item) => isMap(item) && item.get('id') === entry.id);
    const existing = index >= 0 ? apps.items[index] : undefined;
    if (isMap(existing)) {
      for (const [key, value] of Object.entries(entryValue(entry))) existing.set(key, value);
      if (entry.name === undefined) existing.delete('name');
      return;
    }
    // An empty list is usually written `[]`; the first entry turns it into a block list.
    apps.flow = false;
    apps.add(doc.createNode(entryValue(entry)));
  });
}

/** The project file without the application `id`; other applications and comments are kept. Throws on invalid YAML. */
export function removeApplication(text: string, id: string): string {
  const parsed = readOrThrow(text);
  return editYaml(parsed, text, (doc) => {
    const apps = doc.get('applications', true);
    if (!isSeq(apps)) return;
    const index = apps.items.findIndex((item) => isMap(item) && item.get('id') === id);
    if (index >= 0) apps.delete(index);
  });
}

function entryValue(entry: ApplicationEntry): Record<string, unknown> {
  const { id, name, folder, ...rest } = entry;
  return { id, ...(name === undefined ? {} : { name }), folder, ...rest };
}

function readOrThrow(text: string): ParsedYaml {
  const parsed = readYaml(text);
  if (parsed.syntaxProblems.length > 0) throw new Error(`customactions.yaml is not valid YAML (${parsed.syntaxProblems[0]!.message}); fix it first.`);
  return parsed;
}
