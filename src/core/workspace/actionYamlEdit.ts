import { Document } from 'yaml';
import { METADATA_ORDER } from './files';
import { sameData } from './lcs';
import { readYaml } from './yamlDocument';
import { applyValue, editYaml } from './yamlEdit';

// Writing action.yaml, apart from reading it (actionYaml.ts): the form, a pull, a quick fix and a new
// action write it, none of them at the extension's activation, which then does not load the editing.

/**
 * The text of action.yaml after changing its value to `value`, keeping comments, key order and
 * formatting of everything that did not change. Text that is not valid YAML is replaced whole.
 */
export function updateActionYaml(text: string, value: unknown): string {
  const parsed = readYaml(text);
  if (parsed.syntaxProblems.length > 0 || parsed.value == null) return serializeActionYaml(value);
  // The form sends its value on every edit; an unchanged value must leave the text alone.
  if (sameData(parsed.value, value)) return text;
  return editYaml(parsed, text, (doc) => applyValue(doc, value));
}

/** A new action.yaml: the spec's field order first, then any other fields. */
export function serializeActionYaml(value: unknown): string {
  const record = (typeof value === 'object' && value !== null ? value : {}) as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const key of METADATA_ORDER) if (key in record) ordered[key] = record[key];
  for (const [key, v] of Object.entries(record)) if (!(key in ordered)) ordered[key] = v;
  return new Document(ordered).toString({ lineWidth: 0 });
}
