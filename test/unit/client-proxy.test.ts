import * as assert from 'node:assert/strict';
import { bypassesProxy, isLoopbackHost, parseProxyUrl, ProxySettingError, proxyFor, proxySettingsFromEnv, shownProxy } from '../../src/core/client/proxy';

const via = (url: string, settings: Parameters<typeof proxyFor>[1]) => proxyFor(new URL(url), settings)?.href;

describe('client: which proxy a request goes through (proxy.ts)', () => {
  it('reads the environment as curl and undici do: lower case first, an empty value is none', () => {
    assert.deepEqual(
      proxySettingsFromEnv({ HTTPS_PROXY: 'http://upper:1', https_proxy: 'http://lower:2', HTTP_PROXY: 'http://h:3', NO_PROXY: 'a.test, b.test c.test' }),
      {
        httpProxy: 'http://h:3',
        httpsProxy: 'http://lower:2',
        noProxy: ['a.test', 'b.test', 'c.test'],
      },
    );
    assert.deepEqual(proxySettingsFromEnv({ HTTPS_PROXY: '  ', no_proxy: '' }), { httpProxy: undefined, httpsProxy: undefined, noProxy: [] });
  });

  it('takes the proxy of the URL’s scheme, and none for a scheme without one', () => {
    const settings = { httpsProxy: 'http://proxy.corp:3128', httpProxy: 'http://plain.corp:8080' };
    assert.equal(via('https://platform.example.com/api', settings), 'http://proxy.corp:3128/');
    assert.equal(via('http://platform.example.com/api', settings), 'http://plain.corp:8080/');
    assert.equal(via('http://platform.example.com/api', { httpsProxy: 'http://proxy.corp:3128' }), undefined);
  });

  it('never sends this machine through a proxy', () => {
    const settings = { httpsProxy: 'http://proxy.corp:3128', httpProxy: 'http://proxy.corp:3128' };
    for (const url of [
      'http://127.0.0.1:4000',
      'http://localhost:4000',
      'https://LOCALHOST.',
      'http://[::1]:4000',
      'http://127.8.9.10',
      'http://app.localhost',
    ])
      assert.equal(via(url, settings), undefined, url);
    assert.ok(!isLoopbackHost('localhost.example.com'));
    assert.ok(!isLoopbackHost('128.0.0.1'));
  });

  it('goes directly to what NO_PROXY names: domains and below, ports, addresses, IPv4 blocks, *', () => {
    const direct = (url: string, ...noProxy: string[]) => bypassesProxy(new URL(url), noProxy);
    assert.ok(direct('https://example.com', 'example.com'));
    assert.ok(direct('https://api.Example.com', 'example.com'));
    assert.ok(direct('https://api.example.com', '.example.com'));
    assert.ok(direct('https://api.example.com', '*.example.com'));
    assert.ok(direct('https://example.com.', 'EXAMPLE.com'));
    assert.ok(!direct('https://notexample.com', 'example.com'));
    assert.ok(!direct('https://example.com.evil.test', 'example.com'));
    assert.ok(direct('https://example.com:8443', 'example.com:8443'));
    assert.ok(!direct('https://example.com', 'example.com:8443'));
    assert.ok(direct('https://example.com', 'example.com:443'));
    assert.ok(direct('http://10.1.2.3:8080', '10.0.0.0/8'));
    assert.ok(!direct('http://11.1.2.3', '10.0.0.0/8'));
    assert.ok(direct('http://192.0.2.7', '192.0.2.7'));
    assert.ok(!direct('http://1192.0.2.7.example', '192.0.2.7'));
    assert.ok(direct('http://[fd00::2]:4000', 'fd00::2'));
    assert.ok(direct('http://[fd00::2]:4000', '[fd00::2]:4000'));
    assert.ok(direct('https://anything.test', '*'));
    assert.ok(!direct('https://anything.test'));
  });

  it('assumes http:// for a proxy given without a scheme, and refuses what is no proxy URL, never echoing its credentials', () => {
    assert.equal(parseProxyUrl('proxy.corp:3128', 'HTTPS_PROXY').href, 'http://proxy.corp:3128/');
    assert.equal(shownProxy(parseProxyUrl('http://me:secret@proxy.corp:3128', 'HTTPS_PROXY')), 'http://proxy.corp:3128');
    for (const bad of ['socks5://me:secret@proxy.corp:1080', 'http://me:secret@proxy.corp:3128/path', 'http://me:secret@[oops']) {
      assert.throws(
        () => parseProxyUrl(bad, 'HTTPS_PROXY'),
        (error: unknown) => error instanceof ProxySettingError && error.setting === 'HTTPS_PROXY' && !error.message.includes('secret'),
        bad,
      );
    }
  });
});
