import { type ActionMetadata, type PropertyType } from '../schema/metadata';
import { docComment, quote, typeKey } from '../typegen';
import { GENERATED_FILE } from './files';

/**
 * The metadata New Action starts from: one text parameter and a text result, each described, and a
 * description that says what to write there (an empty one reads as if it were forgotten, and the
 * platform shows it to the people who pick the action).
 */
export function newActionMetadata(key: string, name: string, developerEmail: string): ActionMetadata {
  return {
    key,
    name,
    description: `Describe what ${name} does, for the people who use it.`,
    developerEmail,
    parameters: [{ name: 'input', type: 'text', description: 'What the action works on' }],
    result: { type: 'text', description: 'What the action returns' },
  };
}

/** The first main.ts of a new action: typed by the generated file, one argument per parameter, in order. */
export function newActionTemplate(metadata: ActionMetadata): string {
  const module = './' + GENERATED_FILE.replace(/\.ts$/, '');
  const params = metadata.parameters.map((p) => `${p.name}: Inputs[${quote(p.name)}]`).join(', ');
  const imports = metadata.parameters.length > 0 ? 'Inputs, Result' : 'Result';
  const first = metadata.parameters[0]?.name;
  return [
    `import type { ${imports} } from ${quote(module)};`,
    '',
    docComment([metadata.name, metadata.description], '')!,
    `export async function main(${params}): Promise<Result> {`,
    `  console.log(${quote(`${metadata.key} running`)}${first ? `, ${first}` : ''});`,
    `  return ${emptyResult(metadata)};`,
    '}',
    '',
  ].join('\n');
}

/** A value of the result's type, so the template compiles before the author writes anything. */
function emptyResult(metadata: ActionMetadata): string {
  const type = metadata.result.type;
  if (typeof type === 'string' || type.type === 'collection') return emptyOf(type);
  return `{ ${Object.entries(type.properties)
    .map(([name, p]) => `${typeKey(name)}: ${emptyOf(p.type)}`)
    .join(', ')} }`;
}

function emptyOf(type: PropertyType): string {
  if (typeof type === 'object') return '[]';
  return type === 'number' ? '0' : "''";
}
