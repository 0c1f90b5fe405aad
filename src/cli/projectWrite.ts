import { checkLocalWrite, OutsideFolderError, writeInsideFolder } from '../core/workspace/localWrite';
import { CliError, EXIT } from './exitCodes';

/**
 * Every write of the command line goes through here: the core's write guard, the rule the extension
 * writes by (src/core/workspace/writeGuard.ts, docs/security.md, *Round three*), on temporary files of
 * random names created exclusively and renamed. A refusal is an error that names the file and the link.
 */
export async function writeInProject(root: string, file: string, text: string, options: { readonly exclusive?: boolean } = {}): Promise<void> {
  try {
    await writeInsideFolder(root, file, text, { ...options, place: 'the project' });
  } catch (error) {
    if (error instanceof OutsideFolderError) throw new CliError(EXIT.usage, error.message);
    throw error;
  }
}

/** Why a write of `file` would leave `root`, or undefined: for a command that checks every file before it writes any. */
export async function writeRefusal(root: string, file: string): Promise<string | undefined> {
  const check = await checkLocalWrite(root, file, 'the project');
  return check.ok ? undefined : check.reason;
}
