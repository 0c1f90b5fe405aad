// The progress line: only for a person at a terminal, never in CI logs or under --json (docs/cli.md, *Output*).
import assert from 'node:assert/strict';
import { type CliIo, type Stream } from '../../src/cli/io';
import { Output } from '../../src/cli/output';

function io(stderrIsTTY: boolean): { io: CliIo; stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stream = (into: string[], isTTY: boolean): Stream => ({ write: (text) => void into.push(text), isTTY, columns: 80 });
  return { io: { stdout: stream(stdout, false), stderr: stream(stderr, stderrIsTTY), stdinIsTTY: false, env: {}, cwd: '/' }, stdout, stderr };
}

function deployLike(out: Output): void {
  const progress = out.progress(3, 'Deploying');
  for (const key of ['a', 'b', 'c']) progress.tick(`app/${key}`);
  progress.done();
  out.line('updated        app/a');
}

describe('custom-actions output', () => {
  it('draws a progress line rewritten in place on a terminal, and clears it before the result lines', () => {
    const t = io(true);
    deployLike(new Output(t.io, false));
    assert.ok(t.stderr.join('').includes('\r\x1b[2KDeploying 3/3 app/c'), JSON.stringify(t.stderr));
    assert.ok(t.stderr.join('').endsWith('\r\x1b[2K'), 'the line is cleared');
    assert.deepEqual(t.stdout, ['updated        app/a\n']);
  });

  it('writes no progress and no control character when stderr is not a terminal, or under --json', () => {
    for (const [tty, json] of [
      [false, false],
      [true, true],
    ] as const) {
      const t = io(tty);
      deployLike(new Output(t.io, json));
      assert.deepEqual(t.stderr, [], `stderr ${tty ? 'a terminal' : 'not a terminal'}, json ${json}`);
      assert.ok(!t.stdout.join('').includes('\x1b'));
    }
  });
});
