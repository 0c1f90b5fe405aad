// The command line's words for a client's failure, and its warning of keys sent over plain http.
import assert from 'node:assert/strict';
import { ApiError } from '../../src/core/client';
import { cliHint, plainHttpWarning } from '../../src/cli/hints';

describe('command line hints', () => {
  it('warns of plain http to another machine only', () => {
    for (const url of ['http://platform.example.com', 'http://10.0.0.5:4000/', 'http://0.0.0.0:4000'])
      assert.match(plainHttpWarning(url) ?? '', /is plain http: the key and the code cross the network unencrypted/, url);
    for (const url of [
      'https://platform.example.com',
      'http://localhost:4000',
      'http://LOCALHOST',
      'http://app.localhost:1',
      'http://127.0.0.1:4000',
      'http://127.1.2.3',
      'http://[::1]:4000',
      'local-sandbox',
    ])
      assert.equal(plainHttpWarning(url), undefined, url);
  });

  it('speaks of commands, never of the editor', () => {
    const noCode = new ApiError({ kind: 'conflict', operation: 'runAction', status: 409, code: 'no-implementation' });
    assert.match(noCode.hint ?? '', /Push Implementation/, 'the client speaks to the editor');
    assert.match(cliHint(noCode) ?? '', /custom-actions deploy/);
    for (const kind of ['auth', 'timeout', 'network', 'validation'] as const) {
      const hint = cliHint(new ApiError({ kind, operation: 'updateAction' })) ?? '';
      assert.ok(hint.length > 0, kind);
      assert.doesNotMatch(hint, /Sign in|save again|customActions\./, kind);
    }
    assert.match(cliHint(new ApiError({ kind: 'not-found', operation: 'listActions', status: 404 })) ?? '', /no \/api/);
    assert.equal(cliHint(new ApiError({ kind: 'not-found', operation: 'getAction', status: 404 })), undefined, "the client's own hint stays");
  });
});
