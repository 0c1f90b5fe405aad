import path from 'node:path';
import { type WorkspaceAction } from '../core/deploy/pipeline';
import { formatProblem } from '../core/schema';
import { ACTION_FILE, MAIN_FILE } from '../core/workspace';
import { CliError, EXIT } from './exitCodes';
import { type CliProject, type LocalActionFolder } from './project';

/** A workspace action folder as the pipeline reads it, its files named relative to the project. */
export function workspaceAction(project: CliProject, folder: LocalActionFolder): WorkspaceAction {
  const relative = (name: string) => path.relative(project.root, path.join(folder.folder, name)).split(path.sep).join('/');
  return {
    key: folder.key,
    metadataFile: relative(ACTION_FILE),
    codeFile: relative(MAIN_FILE),
    metadata: folder.metadata,
    metadataProblems: folder.problems.map((p) => ({ range: p.range, message: formatProblem(p) })),
    code: folder.code,
  };
}

/**
 * Which actions the operands name: `key` (in any application that has it) or `application/key`.
 * None named means all. An operand that names nothing is a usage error, so a typo never deploys
 * nothing and reports success.
 */
export class ActionSelection {
  private readonly wanted: { app: string | undefined; key: string; used: boolean }[];

  constructor(operands: readonly string[]) {
    this.wanted = operands.map((o) => {
      const slash = o.lastIndexOf('/');
      return slash < 0 ? { app: undefined, key: o, used: false } : { app: o.slice(0, slash), key: o.slice(slash + 1), used: false };
    });
  }

  get all(): boolean {
    return this.wanted.length === 0;
  }

  includes(app: string, key: string): boolean {
    if (this.all) return true;
    let hit = false;
    for (const w of this.wanted) {
      if (w.key === key && (w.app === undefined || w.app === app)) {
        w.used = true;
        hit = true;
      }
    }
    return hit;
  }

  /** Throws for operands that named no action. */
  checkAllUsed(): void {
    const unused = this.wanted.filter((w) => !w.used).map((w) => (w.app ? `${w.app}/${w.key}` : w.key));
    if (unused.length > 0) throw new CliError(EXIT.usage, `No such action: ${unused.join(', ')}.`, 'Name an action by its key, or as <application-id>/<key>.');
  }
}
