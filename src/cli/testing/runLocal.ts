import path from 'node:path';
import { type RunOutcome } from '../../core/testing';
import { visibleLine } from '../../core/text';
import { HarnessPool, harnessParallelism, LOCAL_CASE_TIMEOUT_MS } from '../../sandbox/runner/local/harnessPool';
import { type TestCase } from './cases';
import { type CaseResult } from './results';
import { caseError, caseResult } from './verdict';

/**
 * Every runnable case through the local harness (the sandbox's runner processes, confined as the
 * sandbox confines them), main.ts as it is on disk, a few processes side by side as the Local profile
 * runs them. `onResult` gets each case as
 * it ends; `signal` ends the processes (cases not ended are left out).
 */
export async function runCasesLocally(
  cases: readonly TestCase[],
  projectRoot: string,
  onResult: (result: CaseResult) => void,
  signal: AbortSignal,
): Promise<void> {
  const runnable = cases.filter((c) => c.unrunnable === undefined);
  for (const c of cases) if (c.unrunnable !== undefined) onResult(caseError(c, c.unrunnable));
  if (runnable.length === 0) return;
  // With none of this process's environment (keys included), nor a way to read it (harnessPool.ts).
  const pool = new HarnessPool(harnessParallelism(runnable.length));
  const cancel = () => pool.cancel();
  signal.addEventListener('abort', cancel);
  try {
    await Promise.all(
      runnable.map(async (c) => {
        const logs: string[] = [];
        const request = {
          mainPath: path.join(c.action.folder, 'main.ts'),
          code: c.action.code!,
          metadata: c.metadata!,
          inputs: c.parsed.inputs,
          timeoutMs: LOCAL_CASE_TIMEOUT_MS,
        };
        const outcome = await pool.run(request, (entry) => logs.push(...entry.message.split(/\r?\n/).map((l) => `${entry.level}: ${visibleLine(l)}`)));
        if (!outcome) return;
        onResult(caseResult(c, outcome satisfies RunOutcome, outcome.duration, logs, projectRoot));
      }),
    );
  } finally {
    signal.removeEventListener('abort', cancel);
    pool.close();
  }
}
