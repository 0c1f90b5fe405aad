import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ProjectFileSchema, validateWith, formatProblem } from '../../core/schema';
import { ACTION_FILE, INPUTS_FOLDER, MAIN_FILE, parseActionYaml, PROJECT_FILE } from '../../core/workspace';
import { type DemoApplication } from './types';

/**
 * Reads the demo workspace (demo/ in the repository): the one source of the demo applications and
 * actions. The sandbox does not read it at run time (the bundle ships without it); generate.ts turns
 * it into demoWorkspace.generated.ts, and a test checks the two agree.
 */
export function readDemoWorkspace(root: string): DemoApplication[] {
  const project = validateWith(ProjectFileSchema, parse(readFileSync(path.join(root, PROJECT_FILE), 'utf8')));
  if (!project.ok) throw new Error(`${PROJECT_FILE}: ${project.problems.map(formatProblem).join('; ')}`);
  return project.value.applications.map((app) => {
    const folder = path.join(root, app.folder);
    const keys = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    return {
      id: app.id,
      name: app.name ?? app.id,
      folder: app.folder,
      actions: keys.map((key) => {
        const dir = path.join(folder, key);
        const parsed = parseActionYaml(readFileSync(path.join(dir, ACTION_FILE), 'utf8'));
        if (!parsed.metadata) throw new Error(`${app.folder}/${key}/${ACTION_FILE}: ${parsed.problems.map((p) => p.message).join('; ')}`);
        const inputsDir = path.join(dir, INPUTS_FOLDER);
        const runs = readdirSync(inputsDir)
          .filter((file) => file.endsWith('.json'))
          .sort()
          .map((file) => JSON.parse(readFileSync(path.join(inputsDir, file), 'utf8')) as Record<string, unknown>);
        return { metadata: parsed.metadata, code: readFileSync(path.join(dir, MAIN_FILE), 'utf8'), runs };
      }),
    };
  });
}

/** The text of demoWorkspace.generated.ts for the given demo applications. */
export function renderDemoModule(applications: DemoApplication[]): string {
  return [
    '// Generated from demo/ by src/sandbox/demo/generate.ts (npx tsx src/sandbox/demo/generate.ts). Do not edit.',
    "import { type DemoApplication } from './types';",
    '',
    `export const DEMO_WORKSPACE: DemoApplication[] = ${JSON.stringify(applications, null, 2)};`,
    '',
  ].join('\n');
}
