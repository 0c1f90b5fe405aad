import * as vscode from 'vscode';
import { serverText, visibleLine } from '../../core/text';
import { mainFrameOf } from '../../core/events';
import { diffText, errorTitle, type Expectation, judgeCase, type RunOutcome } from '../../core/testing';
import { type ActionMetadata } from '../../core/schema';
import { toRange } from '../ranges';
import { type TestCase } from './cases';

/** One case ready to run: its item, the file read, the action's metadata, and where its main.ts is. */
export interface PreparedCase {
  readonly item: vscode.TestItem;
  readonly testCase: TestCase;
  readonly key: string;
  readonly folder: vscode.Uri;
  readonly metadata: ActionMetadata;
  readonly main: vscode.Uri;
  readonly inputs: unknown;
  readonly expect: Expectation | undefined;
}

/**
 * A run's end in the Testing view: passed with its duration, or failed with a message. A failed
 * expectation is a diff of expected and actual; an error main threw stands at its main.ts line.
 */
export function reportOutcome(run: vscode.TestRun, c: PreparedCase, outcome: RunOutcome, duration: number | undefined): void {
  const verdict = judgeCase(c.expect, outcome, c.metadata.result.type);
  if (verdict.pass) {
    run.passed(c.item, duration);
    return;
  }
  const threw = !outcome.ok && c.expect?.kind !== 'error';
  if (threw) {
    run.failed(c.item, errorMessage(c, outcome.error), duration);
    return;
  }
  const text = clean(`${c.testCase.name}: ${verdict.message}`);
  const message =
    verdict.expected !== undefined || verdict.actual !== undefined
      ? vscode.TestMessage.diff(text, diffText(verdict.expected), diffText(verdict.actual))
      : new vscode.TestMessage(text);
  message.location = new vscode.Location(c.testCase.uri, c.testCase.expectAt);
  run.failed(c.item, message, duration);
}

/** An error of main: its message at the main.ts line the stack names, the frames as the stack trace. */
function errorMessage(c: PreparedCase, error: { name?: string; message: string; stack?: string }): vscode.TestMessage {
  const message = new vscode.TestMessage(clean(errorTitle(error)));
  const frame = mainFrameOf(error.stack, c.main.fsPath) ?? mainFrameOf(error.stack);
  message.location = frame
    ? new vscode.Location(c.main, new vscode.Position(frame.line - 1, frame.column - 1))
    : new vscode.Location(c.testCase.uri, new vscode.Position(0, 0));
  if (error.stack) {
    message.stackTrace = error.stack
      .split('\n')
      .slice(1, 20)
      .map((line) => {
        const at = mainFrameOf(line, c.main.fsPath) ?? mainFrameOf(line);
        return new vscode.TestMessageStackFrame(clean(line.trim()), at ? c.main : undefined, at ? new vscode.Position(at.line - 1, at.column - 1) : undefined);
      });
  }
  return message;
}

/** Problems of the input set file, each at its place: the case is not run. */
export function reportProblems(run: vscode.TestRun, item: vscode.TestItem, testCase: TestCase): void {
  run.errored(
    item,
    testCase.file.problems.map((p) => {
      const message = new vscode.TestMessage(serverText(`${testCase.name}: ${p.message}`, 800));
      message.location = new vscode.Location(testCase.uri, toRange(p.range));
      return message;
    }),
  );
}

/** Lines for the run's output (a terminal): control characters shown, not obeyed; CRLF line ends. */
export function outputLines(prefix: string, text: string): string {
  return (
    text
      .split(/\r?\n/)
      .map((line, i) => (i === 0 ? prefix : ' '.repeat(prefix.length)) + visibleLine(line))
      .join('\r\n') + '\r\n'
  );
}

function clean(text: string): string {
  return text
    .split('\n')
    .map((line) => visibleLine(line))
    .join('\n');
}
