// The command line behind a company network, run as the built process: through a real forwarding
// proxy (test/support/forwardProxy.ts) that alone knows the name `sandbox.test`, so a request that
// reached the sandbox by that name went through it; NO_PROXY and this machine going directly; and
// the sandbox over TLS with a certificate authority of the test's own, trusted only through
// NODE_EXTRA_CA_CERTS.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { type Sandbox, startSandbox } from '../../src/sandbox';
import { type ForwardProxy, startForwardProxy } from '../support/forwardProxy';
import { actionMetadata } from '../support/metadata';
import { makeTestCertificates, type TestCertificates } from '../support/testCertificates';
import { cliSandbox, keyOf, Scratch, spawnCli, textMain, writeAction, writeProject } from './support';

describe('custom-actions behind a company network', function () {
  this.timeout(120_000);
  const scratch = new Scratch();
  let plain: Sandbox;
  let secure: Sandbox;
  let certificates: TestCertificates;
  let proxy: ForwardProxy;
  let guarded: ForwardProxy;
  const port = (sandbox: Sandbox) => new URL(sandbox.url).port;

  before(async () => {
    certificates = makeTestCertificates(scratch.dir(), ['sandbox.test', 'localhost', '127.0.0.1']);
    plain = await cliSandbox();
    secure = await startSandbox({
      applications: [{ id: 'app-a', name: 'App A' }],
      log: () => undefined,
      tls: { cert: readFileSync(certificates.certFile), key: readFileSync(certificates.keyFile) },
    });
    proxy = await startForwardProxy({ hosts: { 'sandbox.test': '127.0.0.1' } });
    guarded = await startForwardProxy({ hosts: { 'sandbox.test': '127.0.0.1' }, credentials: 'proxyuser:proxy-secret' });
  });
  after(async () => {
    await Promise.all([plain?.close(), secure?.close(), proxy?.close(), guarded?.close()]);
    scratch.cleanup();
  });

  /** A project on `baseUrl` with one action, and the built command run in it with `env`. */
  function project(baseUrl: string, key: string): { dir: string; run: (args: string[], env?: Record<string, string>) => ReturnType<typeof spawnCli> } {
    const dir = scratch.dir();
    writeProject(dir, baseUrl);
    writeAction(dir, 'app-a', actionMetadata({ key: `net${Math.random().toString(36).slice(2, 8)}` }), textMain('through the network'));
    return { dir, run: (args, env = {}) => spawnCli(args, { cwd: dir, env: { CUSTOM_ACTIONS_KEY: key, ...env } }) };
  }

  it('deploys through HTTP_PROXY in a tunnel to the base URL’s origin: the proxy is asked for nothing else, and never given the key', async () => {
    const key = keyOf(plain, 'app-a');
    const mark = proxy.saw.length;
    const { run } = project(`http://sandbox.test:${port(plain)}`, key);
    const deploy = await run(['deploy'], { HTTP_PROXY: proxy.url });
    assert.equal(deploy.code, 0, deploy.output);
    assert.match(deploy.stdout, /^created\s+app-a\/net/m);
    const saw = proxy.saw.slice(mark);
    assert.ok(saw.length > 0, 'the proxy saw nothing');
    assert.deepEqual(new Set(saw.map((s) => `${s.method} ${s.target} ${s.status}`)), new Set([`CONNECT sandbox.test:${port(plain)} 200`]));
    for (const s of saw) {
      assert.equal(s.headers.authorization, undefined);
      assert.equal(s.headers['proxy-authorization'], undefined);
      assert.ok(!JSON.stringify(s.headers).includes(key), 'the key in a header the proxy read');
    }
  });

  it('goes directly to a host NO_PROXY names, and to this machine whatever the proxy settings', async () => {
    const mark = proxy.saw.length;
    // sandbox.test is a name only the proxy resolves: going directly, the command cannot find it.
    const bypassed = project(`http://sandbox.test:${port(plain)}`, keyOf(plain, 'app-a'));
    const status = await bypassed.run(['status'], { HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,.test' });
    assert.equal(status.code, 5, status.output);
    assert.match(status.stderr, /ENOTFOUND|EAI_AGAIN/);
    assert.doesNotMatch(status.stderr, /through the proxy/);
    const local = project(plain.url, keyOf(plain, 'app-a'));
    const deploy = await local.run(['deploy'], { HTTP_PROXY: proxy.url, HTTPS_PROXY: proxy.url, http_proxy: proxy.url });
    assert.equal(deploy.code, 0, deploy.output);
    assert.equal(proxy.saw.length, mark, `the proxy saw ${JSON.stringify(proxy.saw.slice(mark))}`);
  });

  it('trusts the sandbox’s TLS certificate only through NODE_EXTRA_CA_CERTS, and says so when it is missing', async () => {
    const { run } = project(`https://localhost:${port(secure)}`, keyOf(secure, 'app-a'));
    const refused = await run(['deploy']);
    assert.equal(refused.code, 5, refused.output);
    assert.match(refused.stderr, /certificate is not signed by a certificate authority this process trusts \(UNABLE_TO_VERIFY_LEAF_SIGNATURE\)/);
    assert.match(refused.stderr, /set NODE_EXTRA_CA_CERTS to the file of that authority's certificate/);
    const trusted = await run(['deploy'], { NODE_EXTRA_CA_CERTS: certificates.caFile });
    assert.equal(trusted.code, 0, trusted.output);
    assert.match(trusted.stdout, /^created\s+app-a\/net/m);
  });

  it('reaches the TLS sandbox through HTTPS_PROXY, the proxy seeing only the tunnel’s ciphertext', async () => {
    const key = keyOf(secure, 'app-a');
    const mark = proxy.saw.length;
    const { run } = project(`https://sandbox.test:${port(secure)}`, key);
    const deploy = await run(['deploy'], { HTTPS_PROXY: proxy.url, NODE_EXTRA_CA_CERTS: certificates.caFile });
    assert.equal(deploy.code, 0, deploy.output);
    assert.deepEqual(new Set(proxy.saw.slice(mark).map((s) => `${s.method} ${s.target}`)), new Set([`CONNECT sandbox.test:${port(secure)}`]));
    assert.ok(!proxy.tunnelled().includes(key), 'the key crossed the proxy readable');
  });

  it('gives a proxy the credentials of its URL only, and names the proxy, not them, when it refuses', async () => {
    const key = keyOf(secure, 'app-a');
    const mark = guarded.saw.length;
    const { run } = project(`https://sandbox.test:${port(secure)}`, key);
    const env = { NODE_EXTRA_CA_CERTS: certificates.caFile };
    const refused = await run(['status'], { ...env, HTTPS_PROXY: guarded.url });
    assert.equal(refused.code, 5, refused.output);
    assert.match(refused.stderr, new RegExp(`the proxy ${guarded.url} refused the tunnel to sandbox\\.test:${port(secure)} \\(HTTP 407\\)`));
    assert.match(refused.stderr, /HTTPS_PROXY \(or HTTP_PROXY\): http:\/\/user:password@host:port/);
    const withCredentials = guarded.url.replace('http://', 'http://proxyuser:proxy-secret@');
    const status = await run(['status'], { ...env, HTTPS_PROXY: withCredentials });
    assert.equal(status.code, 1, status.output);
    assert.match(status.stdout, /only here/);
    assert.ok(!status.output.includes('proxy-secret'), 'the proxy password was printed');
    const sent = guarded.saw.slice(mark).map((s) => s.headers['proxy-authorization']);
    assert.deepEqual(new Set(sent), new Set([undefined, `Basic ${Buffer.from('proxyuser:proxy-secret').toString('base64')}`]));
    assert.ok(!sent.some((value) => value?.includes(key)));
  });

  it('names a proxy setting that is no proxy URL, without its password', async () => {
    const { run } = project(`https://sandbox.test:${port(secure)}`, keyOf(secure, 'app-a'));
    const result = await run(['status'], { https_proxy: 'socks5://me:hidden-word@proxy.test:1080' });
    assert.equal(result.code, 5, result.output);
    assert.match(result.stderr, /HTTPS_PROXY names a socks5 proxy; only http:\/\/ and https:\/\/ proxies are supported/);
    assert.ok(!result.output.includes('hidden-word'));
  });
});
