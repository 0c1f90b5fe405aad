// `custom-actions test`, run as the built process: local verdicts, the JUnit report CI reads, the Test environment.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createClient } from '../../src/core/client';
import { keyOf, putCode, runCli, type Scratch, writeAction, writeProject, suiteSandbox } from './support';
import { actionMetadata, twoNumbers } from '../support/metadata';
import { PushProxy } from '../support/pushProxy';
import { parseXml, TERMINAL_CONTROLS, writeInputSet, type XmlElement } from './server';

const ADD = actionMetadata({ key: 'add', name: 'Add', parameters: twoNumbers(), result: { type: 'number' } });

/** Adds, logs (with a terminal escape in the log), and throws on a negative `a`. */
const ADD_MAIN = `export async function main(a: number, b: number): Promise<number> {
  console.log("adding \\u001b[31m" + a + "\\u001b[0m");
  if (a < 0) throw new RangeError("a is negative");
  return a + b;
}
`;

/** A project with `add` (or another key, for an action of its own on the shared sandbox) and its cases: two that pass, two that fail (a wrong result, a throw), one that cannot run. */
function projectWithCases(scratch: Scratch, baseUrl: string, key = ADD.key): string {
  const dir = scratch.dir();
  writeProject(dir, baseUrl);
  const folder = writeAction(dir, 'app-a', { ...ADD, key }, ADD_MAIN);
  writeInputSet(folder, 'adds', { inputs: { a: 1, b: 2 }, expect: { result: 3 } });
  writeInputSet(folder, 'rejects-negative', { inputs: { a: -1, b: 2 }, expect: { error: { name: 'RangeError', message: 'negative' } } });
  writeInputSet(folder, 'wrong-sum', { inputs: { a: 1, b: 2 }, expect: { result: 4 } });
  writeInputSet(folder, 'throws', { inputs: { a: -1, b: 0 }, expect: { result: -1 } });
  writeInputSet(folder, 'bad-input', '{\n  "inputs": { "a": "one", "b": 2 }\n}\n');
  return dir;
}

function only(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((c) => c.name === name);
}

describe('custom-actions test', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  it('runs every input set locally with the Testing view’s verdicts, says which failed and why, and exits 1', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url);
    const result = await runCli(['test'], { cwd: dir });
    assert.equal(result.code, 1, result.output);
    const lines = result.stdout.split('\n');
    assert.ok(
      lines.some((l) => /^PASS +app-a\/add › adds /.test(l)),
      result.stdout,
    );
    assert.ok(
      lines.some((l) => /^PASS +app-a\/add › rejects-negative /.test(l)),
      result.stdout,
    );
    assert.ok(
      lines.some((l) => /^FAIL +app-a\/add › wrong-sum /.test(l)),
      result.stdout,
    );
    assert.match(result.stdout, /the result differs from the expected one\n\s+expected: 4\n\s+actual: +3/);
    assert.ok(
      lines.some((l) => /^FAIL +app-a\/add › throws /.test(l)),
      result.stdout,
    );
    assert.match(result.stdout, /RangeError: a is negative \(app-a\/add\/main\.ts:3:\d+\)/);
    assert.ok(
      lines.some((l) => /^ERROR app-a\/add › bad-input$/.test(l)),
      result.stdout,
    );
    assert.match(result.stdout, /app-a\/add\/inputs\/bad-input\.json:2:\d+: inputs\.a: a: must be a number/);
    assert.match(result.stderr, /5 tests on Local: 2 passed, 2 failed, 1 could not run/);
    // main's log carried an escape sequence: it is shown, not obeyed.
    assert.match(result.stdout, /adding \\u001B\[31m1\\u001B\[0m/);
    assert.doesNotMatch(result.stdout, TERMINAL_CONTROLS);
  });

  it('--output - writes the JUnit report to stdout (no file named -), and the case lines to stderr', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url);
    const result = await runCli(['test', '--reporter', 'junit', '--output', '-'], { cwd: dir });
    assert.equal(result.code, 1, result.output);
    assert.ok(!existsSync(path.join(dir, '-')), 'a file named - was written');
    const root = parseXml(result.stdout);
    assert.equal(root.name, 'testsuites');
    assert.equal(root.attributes.tests, '5');
    assert.match(result.stderr, /^FAIL {2}app-a\/add › /m);
    assert.match(result.stderr, /5 tests on Local/);
    const both = await runCli(['test', '--json', '-o', '-'], { cwd: dir });
    assert.equal(both.code, 2, both.output);
    assert.match(both.stderr, /--output - and --json both want stdout/);
  });

  it('writes a JUnit report in the shape CI reporters read: suites per action, a failure or an error per case that did not pass, the counts', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url);
    const result = await runCli(['test', '--reporter', 'junit', '--output', 'reports/junit.xml'], { cwd: dir });
    assert.equal(result.code, 1, result.output);
    const root = parseXml(readFileSync(path.join(dir, 'reports', 'junit.xml'), 'utf8'));
    assert.equal(root.name, 'testsuites');
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['5', '2', '1']);
    const [suite, ...others] = only(root, 'testsuite');
    assert.equal(others.length, 0);
    assert.equal(suite!.attributes.name, 'app-a/add');
    assert.deepEqual([suite!.attributes.tests, suite!.attributes.failures, suite!.attributes.errors, suite!.attributes.skipped], ['5', '2', '1', '0']);
    assert.match(suite!.attributes.timestamp!, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    const cases = new Map(only(suite!, 'testcase').map((c) => [c.attributes.name!, c]));
    assert.deepEqual([...cases.keys()].sort(), ['adds', 'bad-input', 'rejects-negative', 'throws', 'wrong-sum']);
    for (const c of cases.values()) {
      assert.equal(c.attributes.classname, 'app-a.add');
      assert.match(c.attributes.time!, /^\d+\.\d{3}$/);
      assert.match(c.attributes.file!, /^app-a\/add\/inputs\/[\w-]+\.json$/);
    }
    assert.deepEqual(only(cases.get('adds')!, 'failure'), []);
    const failure = only(cases.get('wrong-sum')!, 'failure')[0]!;
    assert.equal(failure.attributes.message, 'the result differs from the expected one');
    assert.match(failure.text, /expected: 4/);
    assert.match(only(cases.get('throws')!, 'failure')[0]!.attributes.message!, /^RangeError: a is negative/);
    assert.match(only(cases.get('bad-input')!, 'error')[0]!.attributes.message!, /bad-input\.json:2:\d+/);
    // The log line's escape reached the XML as text (XML 1.0 cannot carry the character itself).
    assert.match(only(cases.get('adds')!, 'system-out')[0]!.text, /adding \\u001B\[31m1/);
    // The summary still went to the terminal.
    assert.match(result.stdout, /^FAIL +app-a\/add › wrong-sum/m);
  });

  it('exits 0 when every case passes, with --json giving each verdict', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url);
    const result = await runCli(['test', 'app-a/add', '--json', '--reporter', 'junit', '--output', 'junit.xml'], { cwd: dir });
    assert.equal(result.code, 1);
    const json = JSON.parse(result.stdout) as { ok: boolean; summary: { tests: number }; cases: { name: string; status: string }[] };
    assert.deepEqual([json.ok, json.summary.tests], [false, 5]);
    assert.deepEqual(
      json.cases.map((c) => `${c.name}:${c.status}`),
      ['adds:passed', 'bad-input:error', 'rejects-negative:passed', 'throws:failed', 'wrong-sum:failed'],
    );
    const passing = scratch.dir();
    writeProject(passing, fixture.sandbox.url);
    writeInputSet(writeAction(passing, 'app-a', ADD, ADD_MAIN), 'adds', { inputs: { a: 2, b: 2 }, expect: { result: 4 } });
    const green = await runCli(['test', '--reporter', 'junit', '-o', 'junit.xml'], { cwd: passing });
    assert.equal(green.code, 0, green.output);
    const root = parseXml(readFileSync(path.join(passing, 'junit.xml'), 'utf8'));
    assert.deepEqual([root.attributes.tests, root.attributes.failures, root.attributes.errors], ['1', '0', '0']);
  });

  it('names an unknown action and a junit reporter without a file as usage errors (exit 2)', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url);
    const unknown = await runCli(['test', 'nope'], { cwd: dir });
    assert.equal(unknown.code, 2, unknown.output);
    assert.match(unknown.stderr, /No action "nope" in the workspace/);
    const noFile = await runCli(['test', '--reporter', 'junit'], { cwd: dir });
    assert.equal(noFile.code, 2, noFile.output);
    assert.match(noFile.stderr, /--reporter junit needs --output/);
  });

  it('on the Test environment: no key exits 3 and a wrong key exits 3 without printing it', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url);
    const none = await runCli(['test', '--env', 'Test'], { cwd: dir });
    assert.equal(none.code, 3, none.output);
    assert.match(none.stderr, /CUSTOM_ACTIONS_KEY_APP_A/);
    const wrong = 'not-the-key-0123456789';
    const refused = await runCli(['test', '--env', 'Test'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: wrong } });
    assert.equal(refused.code, 3, refused.output);
    assert.ok(!refused.output.includes(wrong));
  });

  it('on the Test environment deploys main.ts against the lock’s base first, records the new base, then judges each run’s event', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url, 'add-pushed');
    const key = keyOf(fixture.sandbox, 'app-a');
    const env = { CUSTOM_ACTIONS_KEY: key };
    const main = path.join(dir, 'app-a', 'add-pushed', 'main.ts');
    writeFileSync(main, 'export async function main(a: number, b: number): Promise<number> {\n  return 0;\n}\n');
    const first = await runCli(['deploy'], { cwd: dir, env });
    assert.equal(first.code, 0, first.output);
    writeFileSync(main, ADD_MAIN);
    const result = await runCli(['test', '--env', 'Test', '--reporter', 'junit', '-o', 'junit.xml'], { cwd: dir, env });
    assert.equal(result.code, 1, result.output);
    assert.match(result.stderr, /app-a\/add-pushed: deployed before its tests ran \(updated: code\)/);
    assert.match(result.stderr, /5 tests on Test: 2 passed, 2 failed, 1 could not run/);
    assert.ok(!result.output.includes(key));
    const client = createClient({ baseUrl: fixture.sandbox.url, getKey: () => Promise.resolve(key) });
    const listed = (await client.listActions('app-a')).find((a) => a.key === 'add-pushed')!;
    assert.equal(await client.getImplementation(listed.id), ADD_MAIN);
    const events = await client.listEvents(listed.eventsUrls.Test!);
    assert.equal(events.events.length, 4, 'one event per runnable case');
    const root = parseXml(readFileSync(path.join(dir, 'junit.xml'), 'utf8'));
    assert.equal(only(root, 'testsuite')[0]!.children.find((c) => c.name === 'properties')!.children[0]!.attributes.value, 'Test');
    // The lock holds the pushed code as the base: neither a deploy nor another test sends it again.
    const deployed = await runCli(['deploy', '--json'], { cwd: dir, env });
    assert.equal(deployed.code, 0, deployed.output);
    assert.deepEqual(
      (JSON.parse(deployed.stdout) as { actions: { result: string }[] }).actions.map((a) => a.result),
      ['unchanged'],
    );
    const again = await runCli(['test', 'add-pushed', '--env', 'Test'], { cwd: dir, env });
    assert.doesNotMatch(again.stderr, /deployed before/);
  });

  it('on the Test environment lists each application once, however many of its actions have cases', async () => {
    const proxy = new PushProxy(new URL(fixture.sandbox.url));
    try {
      const dir = scratch.dir();
      writeProject(dir, await proxy.start());
      for (const key of ['once-a', 'once-b', 'once-c']) {
        const folder = writeAction(dir, 'app-a', { ...ADD, key }, ADD_MAIN);
        writeInputSet(folder, 'adds', { inputs: { a: 1, b: 2 }, expect: { result: 3 } });
      }
      const env = { CUSTOM_ACTIONS_KEY: keyOf(fixture.sandbox, 'app-a') };
      assert.equal((await runCli(['deploy'], { cwd: dir, env })).code, 0);
      const mark = proxy.requests.length;
      const result = await runCli(['test', '--env', 'Test'], { cwd: dir, env });
      assert.equal(result.code, 0, result.output);
      assert.match(result.stderr, /3 tests on Test: 3 passed/);
      const lists = proxy.requests.slice(mark).filter((r) => r.method === 'GET' && r.path.startsWith('/api/application/app-a/actions'));
      assert.equal(lists.length, 1, JSON.stringify(proxy.requests.slice(mark)));
    } finally {
      await proxy.close();
    }
  });

  it('on the Test environment refuses code changed on the server since the base: exit 4, the change named, nothing written, no run', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url, 'add-held');
    const key = keyOf(fixture.sandbox, 'app-a');
    const env = { CUSTOM_ACTIONS_KEY: key };
    const first = await runCli(['deploy'], { cwd: dir, env });
    assert.equal(first.code, 0, first.output);
    const client = createClient({ baseUrl: fixture.sandbox.url, getKey: () => Promise.resolve(key) });
    const listed = (await client.listActions('app-a')).find((a) => a.key === 'add-held')!;
    const theirs = 'export async function main(a: number, b: number): Promise<number> {\n  return a * b;\n}\n';
    await putCode(fixture.sandbox, key, listed.id, theirs, 'the-web-editor/1.0');
    writeFileSync(path.join(dir, 'app-a', 'add-held', 'main.ts'), ADD_MAIN.replace('a + b', 'b + a'));
    const lockBefore = readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8');
    const eventsBefore = (await client.listEvents(listed.eventsUrls.Test!)).events.length;
    const result = await runCli(['test', '--env', 'Test', '--json'], { cwd: dir, env });
    assert.equal(result.code, 4, result.output);
    assert.match(result.stderr, /app-a\/add-held: not deployed, held: code changed on the server since the base \(version \d+, .*by the-web-editor\/1\.0\)/);
    assert.match(result.stderr, /deploy --force/);
    const json = JSON.parse(result.stdout) as { ok: boolean; cases: { status: string; message?: string }[] };
    assert.equal(json.ok, false);
    assert.deepEqual(
      json.cases.map((c) => c.status),
      ['error', 'error', 'error', 'error', 'error'],
    );
    assert.match(json.cases.find((c) => c.message?.includes('held'))!.message!, /code changed on the server since the base/);
    assert.equal(await client.getImplementation(listed.id), theirs, 'the colleague’s code is still there');
    assert.equal((await client.listEvents(listed.eventsUrls.Test!)).events.length, eventsBefore, 'no case ran');
    assert.equal(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8'), lockBefore, 'the base is not moved');
  });
  it('on the Test environment refuses code that disagrees with its metadata at file:line (exit 6), sending nothing and running nothing', async () => {
    const dir = projectWithCases(scratch, fixture.sandbox.url, 'add-refused');
    const key = keyOf(fixture.sandbox, 'app-a');
    const env = { CUSTOM_ACTIONS_KEY: key };
    const first = await runCli(['deploy'], { cwd: dir, env });
    assert.equal(first.code, 0, first.output);
    const client = createClient({ baseUrl: fixture.sandbox.url, getKey: () => Promise.resolve(key) });
    const listed = (await client.listActions('app-a')).find((a) => a.key === 'add-refused')!;
    const onServer = await client.getImplementation(listed.id);
    const eventsBefore = (await client.listEvents(listed.eventsUrls.Test!)).events.length;
    writeFileSync(path.join(dir, 'app-a', 'add-refused', 'main.ts'), 'export async function main(a: string, b: number): Promise<number> {\n  return b;\n}\n');
    const result = await runCli(['test', '--env', 'Test'], { cwd: dir, env });
    assert.equal(result.code, 6, result.output);
    assert.match(result.stderr, /not deployed, refused: the code disagrees with its metadata\n\s+app-a\/add-refused\/main\.ts:1:\d+: /);
    assert.equal(await client.getImplementation(listed.id), onServer);
    assert.equal((await client.listEvents(listed.eventsUrls.Test!)).events.length, eventsBefore, 'no case ran');
  });
});
