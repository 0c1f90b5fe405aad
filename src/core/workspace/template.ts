import { type ActionMetadata } from '../schema/metadata';
import { GENERATED_FILE } from './files';

/** The first main.ts of a new action: typed by the generated file, one argument per parameter, in order. */
export function newActionTemplate(metadata: ActionMetadata): string {
  const module = './' + GENERATED_FILE.replace(/\.ts$/, '');
  const params = metadata.parameters.map((p) => `${p.name}: Inputs['${p.name}']`).join(', ');
  const imports = metadata.parameters.length > 0 ? 'Inputs, Result' : 'Result';
  const first = metadata.parameters[0]?.name;
  return [
    `import type { ${imports} } from '${module}';`,
    '',
    `/** ${metadata.name}${metadata.description ? `: ${metadata.description}` : ''} */`,
    `export async function main(${params}): Promise<Result> {`,
    `  console.log('${metadata.key} running'${first ? `, ${first}` : ''});`,
    `  ${defaultReturn(metadata)}`,
    '}',
    '',
  ].join('\n');
}

function defaultReturn(metadata: ActionMetadata): string {
  const type = metadata.result.type;
  if (type === 'number') return 'return 0;';
  if (typeof type === 'string') return "return '';";
  if (type.type === 'collection') return 'return [];';
  return `return { ${Object.entries(type.properties)
    .map(([name, p]) => `${/^[A-Za-z_$][\w$]*$/.test(name) ? name : JSON.stringify(name)}: ${p.type === 'number' ? '0' : typeof p.type === 'string' ? "''" : '[]'}`)
    .join(', ')} };`;
}
