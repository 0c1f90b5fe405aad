import * as assert from 'node:assert/strict';
import { documentState, minimalReplacement, parseHostMessage, parseWebviewMessage } from '../../src/core/webview';

describe('Metadata form protocol', () => {
  describe('messages from the webview', () => {
    it('accepts the three intents and the answer to a flush', () => {
      assert.deepEqual(parseWebviewMessage({ type: 'ready' }), { ok: true, message: { type: 'ready' } });
      assert.deepEqual(parseWebviewMessage({ type: 'openText' }), { ok: true, message: { type: 'openText' } });
      assert.deepEqual(parseWebviewMessage({ type: 'flushed', request: 2, seq: 0 }), { ok: true, message: { type: 'flushed', request: 2, seq: 0 } });
      const edit = {
        type: 'edit',
        version: 3,
        seq: 1,
        value: { key: 'greet', parameters: [{ name: 'a', type: 'text' }], 'x-owner': { nested: [1, null, true] } },
      };
      assert.deepEqual(parseWebviewMessage(edit), { ok: true, message: edit });
    });

    it('refuses anything else, with a reason for the log', () => {
      const bad: unknown[] = [
        undefined,
        null,
        'edit',
        [],
        {},
        { type: 'delete' },
        { type: 'edit', version: 1, seq: 1 },
        { type: 'edit', version: -1, seq: 1, value: {} },
        { type: 'edit', version: 1.5, seq: 1, value: {} },
        { type: 'edit', version: 1, seq: 0, value: {} },
        { type: 'edit', version: 1, seq: 1, value: [] },
        { type: 'edit', version: 1, seq: 1, value: 'key: x' },
        { type: 'edit', version: '1', seq: 1, value: {} },
        { type: 'flushed', request: 1 },
        { type: 'flushed', request: 0, seq: 1 },
        { type: 'flushed', request: 1, seq: -1 },
        { type: 'flushed', request: 1.5, seq: 1 },
        { type: 'flushed', request: '1', seq: 1 },
        { type: 'flush', request: 1 },
      ];
      for (const input of bad) {
        const parsed = parseWebviewMessage(input);
        assert.equal(parsed.ok, false, JSON.stringify(input));
        if (!parsed.ok) assert.ok(parsed.reason.length > 0);
      }
    });

    it('refuses values that are not plain JSON', () => {
      const cyclic: Record<string, unknown> = { key: 'a' };
      cyclic.self = cyclic;
      let deep: unknown = 'bottom';
      for (let i = 0; i < 40; i++) deep = [deep];
      const cases: [unknown, RegExp][] = [
        [cyclic, /cycle/],
        [{ when: new Date() }, /not plain data/],
        [{ n: Number.NaN }, /not finite/],
        [{ f: Infinity }, /not finite/],
        [{ big: 10n }, /bigint/],
        [{ deep }, /deeper/],
        [{ huge: 'x'.repeat(1_000_001) }, /too large/],
        [JSON.parse('{"__proto__": {"polluted": true}}') as unknown, /__proto__/],
      ];
      for (const [value, reason] of cases) {
        const parsed = parseWebviewMessage({ type: 'edit', version: 1, seq: 1, value });
        assert.equal(parsed.ok, false);
        if (!parsed.ok) assert.match(parsed.reason, reason);
      }
    });
  });

  describe('messages from the host', () => {
    it('validates states and unreadable documents', () => {
      assert.equal(
        parseHostMessage({ type: 'state', version: 1, seq: 0, origin: 'external', value: {}, problems: [{ path: ['key'], message: 'required' }] }).ok,
        true,
      );
      assert.equal(parseHostMessage({ type: 'unreadable', version: 1, seq: 0, message: 'bad', line: 2, column: 7 }).ok, true);
      assert.equal(parseHostMessage({ type: 'state', version: 1, seq: 0, origin: 'elsewhere', value: {}, problems: [] }).ok, false);
      assert.equal(parseHostMessage({ type: 'state', version: 1, seq: 0, origin: 'form', value: {}, problems: [{ path: [-1], message: 'x' }] }).ok, false);
    });

    it('validates a request to flush the typing held back before a save', () => {
      assert.deepEqual(parseHostMessage({ type: 'flush', request: 3 }), { ok: true, message: { type: 'flush', request: 3 } });
      for (const bad of [
        { type: 'flush' },
        { type: 'flush', request: 0 },
        { type: 'flush', request: 1.5 },
        { type: 'flush', request: '3' },
        { type: 'flushed', request: 3, seq: 1 },
      ]) {
        assert.equal(parseHostMessage(bad).ok, false, JSON.stringify(bad));
      }
    });
  });

  describe('document state', () => {
    it('gives the value and the core validator’s problems', () => {
      const state = documentState('key: greet\nname: Greet\ndescription: ""\ndeveloperEmail: nope\nparameters: []\nresult:\n  type: text\n');
      assert.equal(state.kind, 'value');
      if (state.kind !== 'value') return;
      assert.equal(state.value.key, 'greet');
      assert.deepEqual(state.problems, [{ path: ['developerEmail'], message: 'must be an e-mail address' }]);
    });

    it('lists every missing field of an empty file', () => {
      const state = documentState('');
      assert.equal(state.kind, 'value');
      if (state.kind === 'value')
        assert.deepEqual(
          state.problems.map((p) => p.path.join('.')),
          ['key', 'name', 'description', 'developerEmail', 'parameters', 'result'],
        );
    });

    it('calls YAML that cannot be read, or is not a mapping, unreadable with a place', () => {
      const broken = documentState('key: broken\nname: [unclosed\n');
      assert.equal(broken.kind, 'unreadable');
      if (broken.kind === 'unreadable') assert.ok(broken.line !== undefined && broken.line >= 2);
      assert.equal(documentState('- a\n- b\n').kind, 'unreadable');
      assert.equal(documentState('just text\n').kind, 'unreadable');
    });
  });

  describe('minimal replacement', () => {
    const apply = (before: string, after: string) => {
      const r = minimalReplacement(before, after);
      return r ? before.slice(0, r.start) + r.text + before.slice(r.end) : before;
    };

    it('replaces only what differs', () => {
      assert.equal(minimalReplacement('same', 'same'), undefined);
      assert.deepEqual(minimalReplacement('name: Greet\nkey: a\n', 'name: Greeting\nkey: a\n'), { start: 11, end: 11, text: 'ing' });
      assert.deepEqual(minimalReplacement('abc', 'ac'), { start: 1, end: 2, text: '' });
    });

    it('never splits a CRLF or a surrogate pair', () => {
      const crlf = minimalReplacement('a\r\nb', 'a\r\r\nb');
      assert.ok(crlf);
      assert.notEqual('a\r\nb'[crlf.start], '\n');
      const emoji = minimalReplacement('x\u{1F600}y', 'x\u{1F601}y');
      assert.ok(emoji);
      assert.equal(emoji.start, 1);
      assert.equal(emoji.text, '\u{1F601}');
    });

    it('always rebuilds the new text', () => {
      const samples = ['', 'a', 'abc', 'a\r\nb\r\n', 'x\u{1F600}y', 'key: a\n# c\n', 'aaaa'];
      for (const a of samples) for (const b of samples) assert.equal(apply(a, b), b, `${JSON.stringify(a)} → ${JSON.stringify(b)}`);
    });
  });
});
