import assert from 'node:assert/strict';
import { readListEntry } from '../../src/core/client/readers';

const BASE = new URL('https://platform.example/');
const entry = (etags: unknown) => readListEntry({ id: 'a1', key: 'greet', name: 'Greet', description: '', eventsUrls: {}, etags }, BASE);

describe("client: the list's version tags (an extension) are read as untrusted hints", () => {
  it('keeps strong tags, and null as "no code" for the code only', () => {
    assert.deepEqual(entry({ metadata: '"meta-3"', implementation: '"code-2"' })?.etags, { metadata: '"meta-3"', implementation: '"code-2"' });
    assert.deepEqual(entry({ metadata: '"meta-1"', implementation: null })?.etags, { metadata: '"meta-1"', implementation: null });
  });

  it('drops what a GET could not have sent: weak, joined, control characters, too long, not a string; no field at all is no tags', () => {
    const dropped = [
      { metadata: 'W/"meta-3"', implementation: 'W/"code-1"' },
      { metadata: '"a", "b"', implementation: '"x"\r\nSet-Cookie: k=v' },
      { metadata: `"${'m'.repeat(2000)}"`, implementation: 7 },
      { metadata: null, implementation: ['"code-1"'] },
    ];
    for (const etags of dropped) assert.equal(entry(etags)?.etags, undefined, JSON.stringify(etags).slice(0, 80));
    for (const etags of [undefined, null, 'meta-1', ['"meta-1"'], 42]) assert.equal(entry(etags)?.etags, undefined);
    assert.deepEqual(entry({ metadata: 'W/"weak"', implementation: '"code-5"' })?.etags, { implementation: '"code-5"' }, 'each tag stands alone');
  });
});
