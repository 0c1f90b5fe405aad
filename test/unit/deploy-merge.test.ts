import * as assert from 'node:assert/strict';
import { codeHash } from '../../src/core/deploy/base';
import { hasConflictMarkers, mergeTexts, trustedBase } from '../../src/core/deploy/merge';

const labels = { local: 'local', base: 'base', server: 'server' };
const merge = (base: string, server: string, local: string) => mergeTexts(base, server, local, labels);

describe('three-way merge of deploys (base ↔ server ↔ local)', () => {
  const base = 'a\nb\nc\nd\ne\n';

  it('takes a change made on one side only, from either side', () => {
    assert.deepEqual(merge(base, 'a\nB\nc\nd\ne\n', base), { text: 'a\nB\nc\nd\ne\n', conflicts: 0 });
    assert.deepEqual(merge(base, base, 'a\nb\nc\nD\ne\n'), { text: 'a\nb\nc\nD\ne\n', conflicts: 0 });
  });

  it('combines changes of different lines made on both sides', () => {
    assert.deepEqual(merge(base, 'server first\na\nB\nc\nd\ne\n', 'a\nb\nc\nD\ne\nlocal last\n'), {
      text: 'server first\na\nB\nc\nD\ne\nlocal last\n',
      conflicts: 0,
    });
  });

  it('takes the same change once when both sides made it', () => {
    assert.deepEqual(merge(base, 'a\nX\nc\nd\ne\n', 'a\nX\nc\nd\ne\n'), { text: 'a\nX\nc\nd\ne\n', conflicts: 0 });
  });

  it('marks a line both sides changed differently the way git does with diff3, and only that line', () => {
    const result = merge(base, 'a\nserver\nc\nd\ne\n', 'a\nlocal\nc\nd\nE\n');
    assert.equal(result.conflicts, 1);
    assert.equal(result.text, 'a\n<<<<<<< local\nlocal\n||||||| base\nb\n=======\nserver\n>>>>>>> server\nc\nd\nE\n');
    assert.ok(hasConflictMarkers(result.text));
  });

  it('keeps a last line without a line break, and closes it before a marker', () => {
    assert.deepEqual(merge('x\ny', 'x\ny', 'x\nz'), { text: 'x\nz', conflicts: 0 });
    const result = merge('x\ny', 'x\ns', 'x\nl');
    assert.equal(result.text, 'x\n<<<<<<< local\nl\n||||||| base\ny\n=======\ns\n>>>>>>> server\n');
  });

  it('with no base (unknown), text both sides hold differently is one conflict, text they share is kept', () => {
    const result = merge('', 'same\nserver\n', 'same\nlocal\n');
    assert.equal(result.conflicts, 1);
    assert.ok(result.text.includes('<<<<<<< local\nsame\nlocal\n'));
    assert.deepEqual(merge('', 'same\n', 'same\n'), { text: 'same\n', conflicts: 0 });
  });

  it('keeps CRLF line endings as they are', () => {
    assert.deepEqual(merge('a\r\nb\r\nc\r\n', 'a\r\nb\r\nC\r\n', 'A\r\nb\r\nc\r\n'), { text: 'A\r\nb\r\nC\r\n', conflicts: 0 });
  });

  it('marks changes of adjacent lines as one conflict, as git does', () => {
    assert.equal(merge('a\nb\n', 'a\nB\n', 'A\nb\n').conflicts, 1);
  });

  it('finds markers only at the start of lines, all three of them', () => {
    assert.ok(!hasConflictMarkers('const s = "<<<<<<< x";\n'));
    assert.ok(!hasConflictMarkers('<<<<<<< a\nno middle or end\n'));
    assert.ok(hasConflictMarkers('<<<<<<< a\nx\n=======\ny\n>>>>>>> b\n'));
    assert.ok(hasConflictMarkers('<<<<<<< a\r\nx\r\n=======\r\ny\r\n>>>>>>> b\r\n'));
  });

  it('merges large texts without a quadratic table beyond its bound', () => {
    const many = Array.from({ length: 5000 }, (_, k) => `line ${k}\n`);
    const server = [...many];
    server[10] = 'server\n';
    const local = [...many];
    local[4000] = 'local\n';
    const result = merge(many.join(''), server.join(''), local.join(''));
    assert.equal(result.conflicts, 0);
    assert.ok(result.text.includes('server\n') && result.text.includes('local\n'));
  });
});

describe('the base a merge trusts', () => {
  const recorded = { text: 'a\nb\nc\n', hash: codeHash('a\nb\nc\n') };

  it('is the fetched text when its hash is the one recorded here', () => {
    assert.equal(trustedBase(recorded.hash, recorded), recorded.text);
  });

  it("is empty when the server hands another text: the user's change shows as a conflict, never silently dropped", () => {
    // The server makes up a base equal to the user's text: merged against it, the user's change would vanish.
    const local = 'a\nMINE\nc\n';
    const server = 'a\nb\nc\nTHEIRS\n';
    const madeUp = { text: local, hash: codeHash(local) };
    const base = trustedBase(recorded.hash, madeUp);
    assert.equal(base, '');
    const merged = merge(base, server, local);
    assert.ok(merged.conflicts > 0 && merged.text.includes('MINE'), merged.text);
  });

  it('is empty without a recorded hash (an Overwrite records none) or without a fetched base', () => {
    assert.equal(trustedBase(undefined, recorded), '');
    assert.equal(trustedBase('', recorded), '');
    assert.equal(trustedBase(recorded.hash, undefined), '');
  });
});
