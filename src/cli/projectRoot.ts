/**
 * Where a command's project is, apart from the rest of project.ts so that the command line's
 * launcher (main.ts) can ask it before it loads the program, with nothing else bundled in.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_FILE } from '../core/workspace/files';
import { nearestProject } from '../core/workspace/projects';

/** The project of `start` by the editor's rule (src/core/workspace/projects.ts): the nearest folder at or above it holding customactions.yaml. */
export function findProjectRoot(start: string): string | undefined {
  return nearestProject(
    path.resolve(start),
    (dir) => existsSync(path.join(dir, PROJECT_FILE)),
    (dir) => (path.dirname(dir) === dir ? undefined : path.dirname(dir)),
  );
}
