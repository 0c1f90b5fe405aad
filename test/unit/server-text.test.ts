import * as assert from 'node:assert/strict';
import { count, SERVER_TEXT_MAX, serverMarkdown, serverText } from '../../src/core/text';

/** VS Code's own rule for links in notifications (vs/base/common/linkedText.ts), to check against. */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/gi;

describe('Server text is text', () => {
  it('breaks notification links, command: links included, and keeps them readable', () => {
    const detail = 'Invalid field [click](command:workbench.action.quit) and [docs](https://evil.example/x "t")';
    const shown = serverText(detail);
    assert.equal(shown, 'Invalid field [click] (command:workbench.action.quit) and [docs] (https://evil.example/x "t")');
    assert.doesNotMatch(shown, NOTIFICATION_LINK);
  });

  it('breaks the $(icon) syntax of status bar items and quick picks', () => {
    assert.equal(serverText('$(alert) fake warning'), '$ (alert) fake warning');
  });

  it('shows control and invisible characters instead of obeying them', () => {
    assert.equal(serverText('a\u0000b\u001b[31mc\u007f'), 'a\\u0000b\\u001B[31mc\\u007F');
    assert.equal(serverText('evil\u202Etxt.exe'), 'evil\\u202Etxt.exe', 'a bidi override');
    assert.equal(serverText('pay\u200Bpal\uFEFF'), 'pay\\u200Bpal\\uFEFF', 'zero-width characters');
    assert.equal(serverText('lone \uD800 surrogate'), 'lone \\uD800 surrogate');
    assert.equal(serverText('tag\u{E0041}'), 'tag\\u{E0041}');
    assert.equal(serverText('family 👨\u200D👩\u200D👧'), 'family 👨\u200D👩\u200D👧', 'emoji sequences are how emoji are written');
    assert.equal(serverText('ok: ümlaut, 漢字, emoji 🚀'), 'ok: ümlaut, 漢字, emoji 🚀');
  });

  it('puts multi-line text on one line', () => {
    assert.equal(serverText('first\r\n\n  second\tthird\u2028fourth'), 'first   second third fourth');
  });

  it('caps the length with an ellipsis, never inside a surrogate pair or an escape', () => {
    const long = serverText('x'.repeat(10_000));
    assert.equal(long.length, SERVER_TEXT_MAX);
    assert.ok(long.endsWith('…'));
    assert.equal(serverText('abcdefgh', 5), 'abcd…');
    const emoji = serverText('abc🚀🚀', 5);
    assert.ok(!/[\uD800-\uDBFF]…$/.test(emoji), emoji);
    assert.equal(serverText('ab\u0000cd', 6), 'ab…', 'no half escape');
    assert.equal(serverText('\u202E'.repeat(5_000)).length <= SERVER_TEXT_MAX, true);
  });

  it('is the same applied twice, and takes what is not a string', () => {
    for (const raw of ['[a](command:x) $(b) \u0000 \u202E', 'x'.repeat(600), 'ab\u0000cd'.repeat(200)]) {
      assert.equal(serverText(serverText(raw)), serverText(raw));
    }
    assert.equal(serverText(undefined), '');
    assert.equal(serverText(42), '42');
    assert.equal(
      serverText({
        toString: () => {
          throw new Error('no');
        },
      }),
      '',
    );
  });

  it('for Markdown, escapes everything that could make a link, an image, HTML or an autolink', () => {
    const md = serverMarkdown('![x](https://evil.example/p.png) <img src=x> <https://a.b> www.evil.example a@b.co `code` **b** # h');
    assert.doesNotMatch(md, /(?<!\\)[[\]()<>!`*#]/, md);
    assert.doesNotMatch(md, /https?:\/\//);
    assert.doesNotMatch(md, /www\./);
    assert.ok(md.includes('https\\:\\/\\/evil\\.example'));
  });
});

describe('count', () => {
  it('says a number with its noun in the right number, never "application(s)"', () => {
    assert.equal(count(1, 'application'), '1 application');
    assert.equal(count(0, 'application'), '0 applications');
    assert.equal(count(3, 'application'), '3 applications');
    assert.equal(count(2, 'entry', 'entries'), '2 entries');
  });
});
