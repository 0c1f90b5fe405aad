import path from 'node:path';
import { mainFrameOf } from '../../core/events';
import { diffText, errorTitle, judgeCase, type RunOutcome } from '../../core/testing';
import { visibleLine } from '../../core/text';
import { type TestCase } from './cases';
import { type CaseResult } from './results';

/**
 * A case's run judged by the core's `judgeCase`, the same verdict as the Testing view's (a result
 * that does not fit the declared type fails, then the expectation decides). A failed expectation
 * carries expected and actual; an error main threw names its main.ts line, as the editor shows it.
 */
export function caseResult(c: TestCase, outcome: RunOutcome, duration: number | undefined, logs: readonly string[], projectRoot: string): CaseResult {
  const base = identity(c, logs);
  const verdict = judgeCase(c.parsed.expect, outcome, c.metadata?.result.type);
  const timed = duration === undefined ? {} : { duration };
  if (verdict.pass) return { ...base, status: 'passed', ...timed };
  if (!outcome.ok && c.parsed.expect?.kind !== 'error') {
    const mainPath = path.join(c.action.folder, 'main.ts');
    const frame = mainFrameOf(outcome.error.stack, mainPath) ?? mainFrameOf(outcome.error.stack);
    const where = frame ? ` (${relative(projectRoot, mainPath)}:${frame.line}:${frame.column})` : '';
    return {
      ...base,
      status: 'failed',
      message: safe(`${errorTitle(outcome.error)}${where}`),
      ...(frames(outcome.error.stack) ? { detail: safe(frames(outcome.error.stack)!) } : {}),
      ...timed,
    };
  }
  const detail =
    verdict.expected !== undefined || verdict.actual !== undefined
      ? `expected: ${diffText(verdict.expected)}\nactual:   ${diffText(verdict.actual)}`
      : undefined;
  return { ...base, status: 'failed', message: safe(verdict.message), ...(detail ? { detail: safe(detail) } : {}), ...timed };
}

/** A case that could not run, and why. */
export function caseError(c: TestCase, message: string, logs: readonly string[] = []): CaseResult {
  return { ...identity(c, logs), status: 'error', message: safe(message) };
}

function identity(c: TestCase, logs: readonly string[]): Pick<CaseResult, 'action' | 'application' | 'key' | 'name' | 'file' | 'logs'> {
  return {
    action: `${c.action.application.id}/${c.action.key}`,
    application: c.action.application.id,
    key: c.action.key,
    name: c.name,
    file: c.relativeFile,
    logs,
  };
}

/** Text from main or a server, each line with its control characters shown, not obeyed. */
export function safe(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => visibleLine(line))
    .join('\n');
}

/** The frames of a stack (its `at …` lines): the message is shown already. */
function frames(stack: string | undefined): string | undefined {
  const lines = (stack ?? '').split('\n').filter((l) => /^\s*at\s/.test(l));
  return lines.length > 0 ? lines.map((l) => l.trim()).join('\n') : undefined;
}

function relative(root: string, file: string): string {
  return path.relative(root, file).split(path.sep).join('/');
}
