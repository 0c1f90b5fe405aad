/**
 * The part of a changed deploy no design can skip, as a process of its own (cli.ts bundles and times
 * it): Node's start, the compiler loaded through the command line's code cache, and one action's code
 * checked against its metadata, since no code may be written before its check. Nothing is read,
 * parsed, listed or sent, and no thread is started.
 *
 * Arguments: the analysis bundle, the code cache's folder, a folder to treat as the workspace.
 */
import { loadCached } from '../../src/cli/codeCache';
import type * as Analysis from '../../src/core/analysis';
import { codeProblemsOfMany } from '../../src/core/deploy/checks';
import { actionMetadata } from '../../test/support/metadata';

const [bundle, cache, workspace] = process.argv.slice(2);
const analysis = loadCached<typeof Analysis>(bundle!, { env: { CUSTOM_ACTIONS_CODE_CACHE: cache }, workspace: [workspace!] });
if (analysis.state !== 'used') throw new Error(`the code cache was not used (${analysis.state})`);
// The deploy bench's actions: one number in, one number out.
const metadata = actionMetadata({ key: 'a', parameters: [{ name: 'n', type: 'number' }], result: { type: 'number' } });
const [problems] = codeProblemsOfMany(analysis.exports, [
  { text: `export async function main(n: number): Promise<number> {\n  return n + ${Date.now()};\n}\n`, metadata },
]);
if (problems!.length > 0) throw new Error(`unexpected problems: ${problems!.map((p) => p.message).join('; ')}`);
