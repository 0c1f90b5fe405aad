// What a key looks like (src/core/client/redact.ts): the shape the command line refuses as an argument
// and every face scrubs from its output (docs/security.md, Round three).
import assert from 'node:assert/strict';
import { looksLikeKey, redactKey, scrubKeyShapes } from '../../src/core/client/redact';
import { mintKey } from '../../src/sandbox/keys';

describe('key shape', () => {
  it('knows the keys the sandbox mints, bearer tokens, JSON Web Tokens and long random tokens', () => {
    for (let i = 0; i < 50; i++) assert.ok(looksLikeKey(mintKey()));
    for (const key of [
      'Bearer abc',
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c',
      '3f9a1c7be2d84f06a5c1e9b7d3f2a8c4',
      'xK9mQ2vL7pR4tW8yZ3nB6cF1hJ5gD0sA',
      'AbCdEfGhIjKlMnOpQrStUvWxYz',
      '5f2c9a11-1234-4abc-8def-0123456789ab',
    ])
      assert.ok(looksLikeKey(key), key);
  });

  it('leaves paths, hosts, dates, names and short values alone', () => {
    for (const value of [
      'test-results/custom-actions.xml',
      'https://platform.example.com',
      'platform.example.com',
      '2026-11-28',
      'billing-eu-2026',
      'release_candidate_number_two',
      'hello',
      '30',
      '{"n": 4, "mode": "ok"}',
      'src/app-a/actions/hello-world/inputs/seven.json',
      'ThisIsAVeryLongCamelCaseName',
    ])
      assert.ok(!looksLikeKey(value), value);
  });

  it('scrubs key shapes wherever they stand in a text, and the key in use', () => {
    const key = mintKey();
    assert.equal(scrubKeyShapes(`got ${key}, and "Authorization: Bearer tok-123"`), 'got <redacted>, and "Authorization: Bearer <redacted>"');
    assert.equal(redactKey('the key opaque-4321 was refused', 'opaque-4321'), 'the key <redacted> was refused');
  });
});
