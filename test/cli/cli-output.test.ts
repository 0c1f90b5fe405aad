// The progress line: only for a person at a terminal, never in CI logs or under --json (docs/cli.md, *Output*).
import assert from 'node:assert/strict';
import { Interrupts } from '../../src/cli/interrupt';
import { type CliIo, type Stream } from '../../src/cli/io';
import { guardIo, Output } from '../../src/cli/output';

function io(stderrIsTTY: boolean): { io: CliIo; stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  const stream = (into: string[], isTTY: boolean): Stream => ({ write: (text) => void into.push(text), isTTY, columns: 80 });
  return {
    io: {
      stdout: stream(stdout, false),
      stderr: stream(stderr, stderrIsTTY),
      stdinIsTTY: false,
      env: {},
      cwd: '/',
      interrupts: new Interrupts(() => undefined),
      bundles: '/',
    },
    stdout,
    stderr,
  };
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

/* eslint-disable no-control-regex -- control characters are what these tests look for */
describe('custom-actions output: the terminal guard (docs/security.md, Round three)', () => {
  const hostile = 'a\u001b]52;c;eA==\u0007b\u009b2Jc\u007fd\re\u202ef\u{E0041}g';

  it('escapes outside text on every path, keeps its own colours, and cannot be handed a forged colour', () => {
    const t = io(true);
    const out = new Output({ ...t.io, env: { FORCE_COLOR: '1' } }, false);
    out.line(`${out.color.red('failed')} ${hostile}`);
    out.error(hostile);
    out.info(out.errColor.dim(`inside ${out.errColor.bold(hostile)} colour`));
    // A library's text, written straight to the guarded stream.
    guardIo(t.io).stderr.write(hostile);
    const written = [...t.stdout, ...t.stderr].join('');
    const plain = written.replace(/\u001b\[\d+m/g, '');
    assert.doesNotMatch(plain, /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e]|\u{E0041}/u);
    assert.ok(
      t.stdout.join('').startsWith('\u001b[31mfailed\u001b[39m a\\u001B]52;c;eA==\\u0007b\\u009B2Jc\\u007Fd\\re\\u202Ef\\u{E0041}g'),
      t.stdout.join(''),
    );
    assert.ok(t.stderr.join('').includes('\u001b[31merror:\u001b[39m a\\u001B'), JSON.stringify(t.stderr));
    // The marks of a colour are of this process: a server's copy of one is text.
    const forged = out.color.red('x').replace('x', '').slice(0, 5);
    const t2 = io(false);
    new Output(t2.io, false).line(`${forged}red\u0001`);
    assert.doesNotMatch(t2.stdout.join(''), /\u001b/);
  });

  it('writes --json as ASCII-safe JSON: C1, bidi and tag characters escaped, the value the same', () => {
    const t = io(false);
    const out = new Output(t.io, true);
    out.result({ message: hostile, emoji: '👩‍💻' });
    const text = t.stdout.join('');
    assert.doesNotMatch(text, /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]|\u{E0041}/u);
    assert.deepEqual(JSON.parse(text), { message: hostile, emoji: '👩‍💻' });
  });

  it('scrubs the keys in use and every key shape, but keeps the keys a sandbox hands over where it says so', () => {
    const t = io(false);
    const out = new Output(t.io, false);
    out.addSecret('platform-key-in-use-0123');
    out.line('a platform-key-in-use-0123 b ca_sk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg c Bearer xyz.abc');
    out.keyLine('CUSTOM_ACTIONS_KEY_APP_A=ca_sk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg');
    assert.deepEqual(t.stdout, [
      'a <redacted> b <redacted> c Bearer <redacted>\n',
      'CUSTOM_ACTIONS_KEY_APP_A=ca_sk_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcdefg\n',
    ]);
  });
});
