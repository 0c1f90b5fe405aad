/**
 * The core's SHA-256, both twins (Node's, and the browser's own implementation), against node:crypto's
 * digest of the UTF-8 bytes, byte for byte: every length across the block boundaries, every kind of
 * character, lone surrogates (which both encode as U+FFFD), and a large text.
 */
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { sha256Hex as nodeTwin } from '../../src/core/contentHash/sha256';
import { sha256Hex as browserTwin } from '../../src/core/contentHash/sha256.browser';

const nodeSha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

for (const [twin, sha256Hex] of [
  ['Node', nodeTwin],
  ['browser', browserTwin],
] as const)
  describe(`SHA-256 of the core (${twin}) agrees with node:crypto`, () => {
    it('the standard vectors', () => {
      assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
      assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
      assert.equal(sha256Hex('abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq'), '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1');
    });

    it('every length from 0 to 300 characters, ASCII and multi-byte', () => {
      for (const unit of ['a', 'é', '€', '😀', '\u0000']) {
        for (let n = 0; n <= 300; n++) {
          const text = unit.repeat(n);
          assert.equal(sha256Hex(text), nodeSha256(text), `${JSON.stringify(unit)} × ${n}`);
        }
      }
    });

    it('random texts, lone surrogates and a BOM included', () => {
      let seed = 42;
      const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
      for (let i = 0; i < 500; i++) {
        const length = next() % 200;
        let text = '';
        for (let j = 0; j < length; j++) text += String.fromCharCode(next() % 0x10000);
        assert.equal(sha256Hex(text), nodeSha256(text), JSON.stringify(text));
      }
      for (const text of ['\uD800', 'a\uDFFFb', '\uFEFFexport {}', '\r\n\t']) assert.equal(sha256Hex(text), nodeSha256(text));
    });

    it('a text of several megabytes', () => {
      const text = 'export const x = "ü";\n'.repeat(200_000);
      assert.equal(sha256Hex(text), nodeSha256(text));
    });
  });
