// Round three (docs/security.md): a key given under any option name, or as the value of --key-file,
// is refused without being quoted, and nothing shaped like a key reaches the output.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { runCli, suiteSandbox, writeProject } from './support';

/** A key of the sandbox's shape, and one of no known shape but long and random, as a platform's may be. */
const KEYS = ['ca_sk_Q2hlY2tNZUlmWW91Q2FuXzEyMzQ1Njc4OTBhYmNkZWZn', 'pk9fA3xQ7mZ2rT8vB4nK6wY1cEa5'];

/** Whether any eight characters of `key` in a row appear in `text`. */
function quotesPartOf(text: string, key: string): boolean {
  for (let i = 0; i + 8 <= key.length; i++) if (text.includes(key.slice(i, i + 8))) return true;
  return false;
}

describe('custom-actions refuses a key given as an argument, under any name, and never quotes it', function () {
  const suite = suiteSandbox();

  for (const key of KEYS)
    for (const args of [
      [`--api-token=${key}`],
      ['--access-token', key],
      [`--token=${key}`],
      ['--key', key],
      [`--secret=${key}`],
      ['--password', key],
      ['--key-file', key],
      [`--key-file=${key}`],
      [`--frobnicate=${key}`],
      ['--frobnicate', key],
      [key],
    ])
      it(`status ${args.join(' ').replace(key, key.startsWith('ca_') ? '<sandbox key>' : '<random key>')}: refused, no part of the key in the output or the --json document`, async () => {
        for (const json of [false, true]) {
          const result = await runCli(['status', ...args, ...(json ? ['--json'] : [])], { cwd: suite.scratch.dir() });
          assert.equal(result.code, 2, result.output);
          assert.ok(!quotesPartOf(result.output, key), result.output);
          if (json) assert.equal((JSON.parse(result.stdout) as { ok: boolean }).ok, false, result.stdout);
        }
      });

  it('takes the key from a file named by --key-file, and from the right variable, and scrubs it from what it prints', async () => {
    const dir = suite.scratch.dir();
    writeProject(dir, suite.sandbox.url);
    const file = path.join(dir, 'keys.env');
    writeFileSync(file, `CUSTOM_ACTIONS_KEY=${suite.env.CUSTOM_ACTIONS_KEY}\n`);
    const fromFile = await runCli(['status', '--key-file', file], { cwd: dir });
    assert.equal(fromFile.code, 0, fromFile.output);
    const fromEnv = await runCli(['status', '--json'], { cwd: dir, env: suite.env });
    assert.equal(fromEnv.code, 0, fromEnv.output);
    JSON.parse(fromEnv.stdout);
    for (const result of [fromFile, fromEnv]) assert.ok(!quotesPartOf(result.output, suite.env.CUSTOM_ACTIONS_KEY!), result.output);
  });
});
