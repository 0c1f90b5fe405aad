import { type ActionMetadata, type PropertyType } from '../schema/metadata';
import { docComment, quote, typeKey } from '../typegen';
import { GENERATED_FILE } from './files';

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
