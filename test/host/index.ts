/**
 * Runs inside the real VS Code extension host (code-server, or desktop VS Code through
 * @vscode/test-electron): mocha over every suite bundled in. Output goes to the file the runner
 * names in CUSTOM_ACTIONS_TEST_OUTPUT (the host's own stdout does not reach the terminal) and to stdout.
 */
import { appendFileSync } from 'node:fs';
import Mocha from 'mocha';
import { suites } from 'virtual:host-test-suites';
import { UnexpectedErrors } from '../support/unexpectedErrors';

export async function run(): Promise<void> {
  const output = process.env.CUSTOM_ACTIONS_TEST_OUTPUT;
  const write = (line: string) => {
    if (output) appendFileSync(output, line + '\n');
    else process.stdout.write(line + '\n');
  };
  const mocha = new Mocha({ ui: 'bdd', timeout: 60_000, color: false, reporter: lineReporter(write) });
  const grep = process.env.CUSTOM_ACTIONS_TEST_GREP;
  if (grep) mocha.grep(grep);
  if (suites.length === 0) throw new Error('No suite in test/host/suite/*.test.ts was bundled');
  // A listener or a dispose of the extension that threw fails the test it happened in (its reporters
  // are shared by every bundle of this extension host); one reported between tests, the next test.
  const unexpected = new UnexpectedErrors();
  mocha.suite.afterEach(function (this: Mocha.Context) {
    unexpected.check(`"${this.currentTest?.fullTitle() ?? 'a test'}"`);
  });
  for (const load of suites) {
    mocha.suite.emit('pre-require', globalThis, 'suite', mocha);
    load();
  }
  const failures = await new Promise<number>((resolve) => mocha.run(resolve));
  const late = unexpected.take();
  unexpected.dispose();
  if (late.length > 0) write(`\n✗ ${late.length} unexpected error(s) reported after the last test:\n${indent(late.join('\n'))}`);
  if (failures > 0) throw new Error(`${failures} extension-host test(s) failed`);
  if (late.length > 0) throw new Error(`${late.length} unexpected error(s) reported after the last test`);
}

function lineReporter(write: (line: string) => void) {
  return class implements Mocha.reporters.Base {
    stats: Mocha.Stats = { suites: 0, tests: 0, passes: 0, pending: 0, failures: 0 };
    failures: Mocha.Test[] = [];
    runner: Mocha.Runner;
    constructor(runner: Mocha.Runner) {
      this.runner = runner;
      const { EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END, EVENT_SUITE_BEGIN } = Mocha.Runner.constants;
      let passes = 0;
      let failures = 0;
      let pending = 0;
      runner.on(EVENT_SUITE_BEGIN, (suite: Mocha.Suite) => suite.title && write(`\n${suite.fullTitle()}`));
      runner.on(EVENT_TEST_PASS, (test: Mocha.Test) => {
        passes++;
        write(`  ✓ ${test.title} (${test.duration ?? 0} ms)`);
      });
      runner.on(EVENT_TEST_PENDING, (test: Mocha.Test) => {
        pending++;
        write(`  - ${test.title} (skipped)`);
      });
      // Failures are told where they happen and again after the count: a CI system that keeps only
      // the end of a long output still shows which test failed, and why.
      const recap: string[] = [];
      runner.on(EVENT_TEST_FAIL, (test: Mocha.Test, error: Error) => {
        failures++;
        write(`  ✗ ${test.title}\n${indent(error.stack ?? error.message)}`);
        recap.push(`  ${failures}) ${test.fullTitle()}\n${indent(firstLines(error.stack ?? error.message, 12))}`);
      });
      runner.once(EVENT_RUN_END, () => {
        write(`\nhost: ${passes} passed, ${failures} failed${pending ? `, ${pending} skipped` : ''}`);
        if (recap.length > 0) write(`\nfailed:\n${recap.join('\n')}`);
      });
    }
    epilogue(): void {}
    done?(failures: number, fn?: (failures: number) => void): void {
      fn?.(failures);
    }
  };
}

function firstLines(text: string, n: number): string {
  const lines = text.split('\n');
  return lines.length > n ? [...lines.slice(0, n), `… ${lines.length - n} more line(s) where the test failed, above`].join('\n') : text;
}

function indent(text: string): string {
  return text
    .split('\n')
    .map((l) => `      ${l}`)
    .join('\n');
}
