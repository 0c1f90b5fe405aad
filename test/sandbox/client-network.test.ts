/**
 * The extension's requests behind a company network: VS Code's settings (http.proxy, http.noProxy,
 * http.proxyStrictSSL, http.proxySupport, http.systemCertificates) turned into the Node transport's
 * options by src/extension/networkOptions.ts, and the client sending through them to the sandbox
 * over TLS, with a certificate authority of the test's own, through a real forwarding proxy.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApiError, createClient } from '../../src/core/client';
import { createNodeTransport } from '../../src/core/client/nodeTransport';
import { type NetworkConfig, nodeTransportOptions, systemCertificates } from '../../src/extension/networkOptions';
import { type Sandbox, startSandbox } from '../../src/sandbox';
import { type ForwardProxy, startForwardProxy } from '../support/forwardProxy';
import { makeTestCertificates, type TestCertificates } from '../support/testCertificates';

const SETTINGS: NetworkConfig = { proxy: '', noProxy: [], proxyStrictSSL: true, proxySupport: 'override', systemCertificates: true };

describe('the extension’s requests by VS Code’s network settings', function () {
  this.timeout(60_000);
  let dir: string;
  let certificates: TestCertificates;
  let sandbox: Sandbox;
  let proxy: ForwardProxy;
  const closing: (() => Promise<void>)[] = [];

  before(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'client-network-'));
    certificates = makeTestCertificates(dir, ['sandbox.test', 'localhost', '127.0.0.1']);
    sandbox = await startSandbox({
      applications: [{ id: 'net', name: 'Net' }],
      log: () => undefined,
      tls: { cert: readFileSync(certificates.certFile), key: readFileSync(certificates.keyFile) },
    });
    proxy = await startForwardProxy({ hosts: { 'sandbox.test': '127.0.0.1' } });
  });
  afterEach(async () => {
    await Promise.all(closing.splice(0).map((close) => close()));
  });
  after(async () => {
    await Promise.all([sandbox?.close(), proxy?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  /** Lists the sandbox's actions at `host` with the transport these settings make; the error when it fails. */
  async function list(host: string, settings: Partial<NetworkConfig>, env: Record<string, string> = {}, trustTestCa = true): Promise<ApiError | 'ok'> {
    // The test's authority stands for the system's; without it, Node's default store, which does not hold it.
    const options = nodeTransportOptions({ ...SETTINGS, ...settings }, env, () => (trustTestCa ? [readFileSync(certificates.caFile, 'utf8')] : undefined));
    const transport = createNodeTransport(options);
    closing.push(() => transport.close());
    const key = sandbox.applications[0]!.key;
    const client = createClient({ baseUrl: `https://${host}:${new URL(sandbox.url).port}`, getKey: () => Promise.resolve(key), transport, retries: 0 });
    try {
      await client.listActions('net');
      return 'ok';
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
  }

  it('sends through http.proxy, in a tunnel to the base URL’s origin, trusting the authorities it is given', async () => {
    const mark = proxy.saw.length;
    assert.equal(await list('sandbox.test', { proxy: proxy.url }), 'ok');
    assert.deepEqual(
      new Set(proxy.saw.slice(mark).map((s) => `${s.method} ${s.target} ${s.status}`)),
      new Set([`CONNECT sandbox.test:${new URL(sandbox.url).port} 200`]),
    );
    assert.ok(!proxy.tunnelled().includes(sandbox.applications[0]!.key));
  });

  it('falls back to HTTPS_PROXY as VS Code does, and honours http.noProxy and NO_PROXY', async () => {
    const mark = proxy.saw.length;
    assert.equal(await list('sandbox.test', {}, { HTTPS_PROXY: proxy.url }), 'ok');
    assert.equal(proxy.saw.length, mark + 1);
    // A name only the proxy knows: going directly, it is not found.
    for (const [settings, env] of [
      [{ proxy: proxy.url, noProxy: ['.test'] }, {}],
      [{}, { HTTPS_PROXY: proxy.url, NO_PROXY: 'sandbox.test' }],
      [{ proxy: proxy.url, proxySupport: 'off' }, {}],
    ] as const) {
      const error = await list('sandbox.test', settings, env);
      assert.ok(error instanceof ApiError && error.kind === 'network', String(error));
      assert.match(error.message, /ENOTFOUND|EAI_AGAIN/, JSON.stringify(settings));
    }
    assert.equal(proxy.saw.length, mark + 1, 'a bypassed request reached the proxy');
  });

  it('refuses a server whose authority is not trusted, naming the fix; http.proxyStrictSSL off lets one through the proxy only', async () => {
    const untrusted = await list('localhost', {}, {}, false);
    assert.ok(untrusted instanceof ApiError && untrusted.code === 'untrusted-certificate', String(untrusted));
    assert.equal(untrusted.retryable, false);
    assert.match(untrusted.hint ?? '', /NODE_EXTRA_CA_CERTS/);
    assert.equal(await list('sandbox.test', { proxy: proxy.url, proxyStrictSSL: false }, {}, false), 'ok');
    const direct = await list('localhost', { proxyStrictSSL: false }, {}, false);
    assert.ok(direct instanceof ApiError && direct.code === 'untrusted-certificate', 'proxyStrictSSL turned off a direct connection’s checks');
  });

  it('trusts Node’s store and the system’s: the system store when Node reads it, else the Linux bundle with NODE_EXTRA_CA_CERTS', () => {
    const files = (present: Record<string, string>) => ({
      existsSync: (file: string) => file in present,
      readFileSync: (file: string) => {
        if (!(file in present)) throw new Error('ENOENT');
        return present[file]!;
      },
    });
    const store = { rootCertificates: ['ROOT'] };
    assert.deepEqual(
      systemCertificates(
        { NODE_EXTRA_CA_CERTS: '/company.pem' },
        'linux',
        store,
        files({ '/etc/ssl/certs/ca-certificates.crt': 'SYSTEM', '/company.pem': 'COMPANY' }),
      ),
      ['ROOT', 'SYSTEM', 'COMPANY'],
    );
    assert.deepEqual(systemCertificates({}, 'linux', store, files({ '/etc/pki/tls/certs/ca-bundle.crt': 'RHEL' })), ['ROOT', 'RHEL']);
    assert.equal(systemCertificates({}, 'darwin', store, files({})), undefined, "elsewhere Node's default store stays");
    const newer = { rootCertificates: ['ROOT'], getCACertificates: (type: 'default' | 'system') => (type === 'default' ? ['ROOT', 'EXTRA'] : ['OS']) };
    assert.deepEqual(systemCertificates({}, 'win32', newer, files({})), ['ROOT', 'EXTRA', 'OS']);
    // http.systemCertificates off: Node's default store, whatever the system holds.
    assert.equal(nodeTransportOptions({ ...SETTINGS, systemCertificates: false }, {}, () => ['OS']).ca, undefined);
  });
});
