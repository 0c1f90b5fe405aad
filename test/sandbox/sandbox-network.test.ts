/**
 * The network edges of a sandbox a team shares: it is reachable from other machines only when asked
 * (and warns when asked without TLS), serves HTTPS itself, and limits request rates per key or per
 * client address with 429 and Retry-After, which the extension's client waits out.
 */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { networkInterfaces, tmpdir } from 'node:os';
import path from 'node:path';
import { ApiError, closeAllPools, createClient } from '../../src/core/client';
import { type Sandbox } from '../../src/sandbox';
import { networkOptions } from '../../src/sandbox/cliNetwork';
import { RateLimiter } from '../../src/sandbox/http/rateLimit';
import { isLoopback, urlHost } from '../../src/sandbox/network';
import { makeTestCertificates, type TestCertificates } from '../support/testCertificates';
import { assertMatchesSpec, ROOT, requester, withSandbox } from './support';

/** An address of this machine that is not loopback, if it has one; else one of 127/8 the default bind leaves out. */
function otherAddress(): string {
  for (const list of Object.values(networkInterfaces())) {
    for (const address of list ?? []) if (!address.internal && address.family === 'IPv4') return address.address;
  }
  return '127.0.0.2';
}

/** Whether a TCP connection to host:port is accepted. */
function accepts(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host, port });
    socket.once('connect', () => (socket.destroy(), resolve(true)));
    socket.once('error', () => resolve(false));
  });
}

const portOf = (url: string) => Number(new URL(url).port);

describe('sandbox network edges', function () {
  this.timeout(60_000);

  describe('where it listens', () => {
    it('answers on loopback only unless asked, and warns when asked without TLS', async () => {
      const address = otherAddress();
      const logged: string[] = [];
      const local = await withSandbox({ log: (m) => logged.push(m) });
      try {
        assert.match(local.url, /^http:\/\/127\.0\.0\.1:\d+$/);
        assert.equal(await accepts('127.0.0.1', portOf(local.url)), true);
        assert.equal(await accepts(address, portOf(local.url)), false, `the default sandbox must not answer on ${address}`);
        assert.equal(logged.length, 0, logged.join('\n'));
      } finally {
        await local.close();
      }
      const shared = await withSandbox({ host: '0.0.0.0', log: (m) => logged.push(m) });
      try {
        assert.match(shared.url, /^http:\/\/127\.0\.0\.1:\d+$/, 'the URL to reach every interface from this machine is loopback');
        assert.equal(await accepts(address, portOf(shared.url)), true);
        const reply = await requester(`http://${address}:${portOf(shared.url)}`)('GET', '/api/application/app-a/actions', { key: shared.applications[0]!.key });
        assert.equal(reply.status, 200);
        assert.equal(logged.length, 1);
        assert.match(logged[0]!, /listening on 0\.0\.0\.0 without TLS/);
      } finally {
        await shared.close();
      }
    });

    it('knows which addresses are loopback, and how each goes in a URL', () => {
      for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]', '::ffff:127.0.0.1']) assert.equal(isLoopback(host), true, host);
      for (const host of ['0.0.0.0', '::', '192.0.2.2', 'fd00::2', '::ffff:10.0.0.1', 'example.com', '128.0.0.1']) assert.equal(isLoopback(host), false, host);
      assert.equal(urlHost('0.0.0.0'), '127.0.0.1');
      assert.equal(urlHost('::'), '[::1]');
      assert.equal(urlHost('fd00::2'), '[fd00::2]');
      assert.equal(urlHost('sandbox.example.com'), 'sandbox.example.com');
    });
  });

  describe('TLS', () => {
    let dir: string;
    let files: TestCertificates;
    /** The authority that signed the server's certificate: what a client that trusts the server is given. */
    let ca: Buffer;
    let cert: Buffer;
    let key: Buffer;

    before(() => {
      dir = mkdtempSync(path.join(tmpdir(), 'sandbox-tls-'));
      // Certificates for this test only, signed by an authority nothing on the machine trusts.
      files = makeTestCertificates(dir, ['localhost', '127.0.0.1']);
      ca = readFileSync(files.caFile);
      cert = readFileSync(files.certFile);
      key = readFileSync(files.keyFile);
    });

    after(() => rmSync(dir, { recursive: true, force: true }));

    it('serves HTTPS with the certificate it was given, and nothing in clear text', async () => {
      const logged: string[] = [];
      const sandbox = await withSandbox({ host: '0.0.0.0', tls: { cert, key }, log: (m) => logged.push(m) });
      try {
        assert.match(sandbox.url, /^https:\/\/127\.0\.0\.1:\d+$/);
        assert.equal(logged.length, 0, 'TLS on every interface is what a team server should do: no warning');
        const trusted = await get(sandbox, { ca });
        assert.equal(trusted.status, 200);
        assert.equal(trusted.body, '[]');
        await assert.rejects(get(sandbox, {}), /self-signed|unable to verify|certificate/i, 'a client that does not trust the certificate refuses it');
        const plain = await requester(sandbox.url.replace('https:', 'http:'))('GET', '/api').catch((error: unknown) => error);
        assert.ok(plain instanceof Error, 'plain HTTP gets no answer from a TLS port');
      } finally {
        await sandbox.close();
      }
    });

    it("the extension's client reaches it over HTTPS when its process trusts the certificate (NODE_EXTRA_CA_CERTS)", async () => {
      const sandbox = await withSandbox({ tls: { cert, key } });
      try {
        // The client trusts what Node trusts, read when its process starts: so it runs in a child process.
        const script = `require('./src/core/client').createClient({ baseUrl: process.env.URL, getKey: async () => process.env.KEY })
          .listActions('app-a').then((list) => { console.log(JSON.stringify(list)); process.exit(0); }, (error) => { console.log(error.message); process.exit(1); });`;
        const run = (trust: boolean) =>
          new Promise<{ code: number | null; out: string }>((resolve) => {
            const env = {
              ...process.env,
              URL: sandbox.url,
              KEY: sandbox.applications[0]!.key,
              ...(trust ? { NODE_EXTRA_CA_CERTS: files.caFile } : {}),
            };
            if (!trust) delete env.NODE_EXTRA_CA_CERTS;
            const child = spawn(process.execPath, ['--require', 'tsx/cjs', '--require', './test/support/nodeTransport.ts', '-e', script], {
              cwd: ROOT,
              env,
              stdio: ['ignore', 'pipe', 'inherit'],
            });
            let out = '';
            child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
            child.once('exit', (code) => resolve({ code, out: out.trim() }));
          });
        const [trusted, untrusted] = await Promise.all([run(true), run(false)]);
        assert.deepEqual(trusted, { code: 0, out: '[]' });
        assert.equal(untrusted.code, 1, 'without the certificate trusted, the client refuses the server');
        assert.match(untrusted.out, /certificate|TLS/i);
      } finally {
        await sandbox.close();
      }
    });

    it('the command line reads the certificate and key from files, and refuses one without the other', () => {
      const options = networkOptions({ host: '0.0.0.0', 'tls-cert': files.certFile, 'tls-key': files.keyFile }, {});
      assert.equal(options.host, '0.0.0.0');
      assert.deepEqual(options.tls, { cert, key });
      assert.throws(() => networkOptions({ 'tls-cert': files.certFile }, {}), /--tls-cert and --tls-key go together/);
      assert.throws(() => networkOptions({}, { CUSTOM_ACTIONS_SANDBOX_TLS_KEY: files.keyFile }), /go together/);
      assert.throws(() => networkOptions({ 'tls-cert': path.join(dir, 'missing.pem'), 'tls-key': files.keyFile }, {}), /--tls-cert: cannot read .*ENOENT/);
    });

    function get(sandbox: Sandbox, tls: { ca?: Buffer }): Promise<{ status: number; body: string }> {
      return new Promise((resolve, reject) => {
        const req = httpsRequest(
          `${sandbox.url}/api/application/app-a/actions`,
          { ...tls, headers: { Authorization: `Bearer ${sandbox.applications[0]!.key}` } },
          (res) => {
            let body = '';
            res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.once('error', reject);
        req.end();
      });
    }
  });

  describe('limits from flags and the environment', () => {
    it('a flag wins over its variable, and a bad value is named', () => {
      const env = { CUSTOM_ACTIONS_SANDBOX_RATE_LIMIT: '600', CUSTOM_ACTIONS_SANDBOX_MAX_JSON_BYTES: '2048', CUSTOM_ACTIONS_SANDBOX_HOST: '::' };
      assert.deepEqual(networkOptions({}, env), { host: '::', limits: { requestsPerMinute: 600, jsonBodyBytes: 2048 } });
      assert.deepEqual(networkOptions({ 'rate-limit': '0', 'max-code-bytes': '4096' }, env), {
        host: '::',
        limits: { requestsPerMinute: 0, jsonBodyBytes: 2048, codeBytes: 4096 },
      });
      assert.deepEqual(networkOptions({}, {}), { limits: {} }, 'nothing asked: loopback, no TLS, the default limits');
      assert.throws(() => networkOptions({ 'rate-limit': '-1' }, {}), /--rate-limit must be a whole number of at least 0, not "-1"/);
      assert.throws(() => networkOptions({ 'max-json-bytes': '12' }, {}), /--max-json-bytes must be a whole number of at least 1024/);
      assert.throws(() => networkOptions({}, { CUSTOM_ACTIONS_SANDBOX_MAX_CODE_BYTES: '1e6' }), /CUSTOM_ACTIONS_SANDBOX_MAX_CODE_BYTES must be a whole number/);
    });

    it('the command line takes them, and says when it listens beyond loopback without TLS', async function () {
      this.timeout(60_000);
      const child = spawn(
        process.execPath,
        ['--require', 'tsx/cjs', path.join(ROOT, 'src/sandbox/cli.ts'), '--json', '--port', '0', '--ensure-app', 'cli-app', '--max-json-bytes', '2048'],
        {
          cwd: ROOT,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, CUSTOM_ACTIONS_SANDBOX_HOST: '0.0.0.0', CUSTOM_ACTIONS_SANDBOX_RATE_LIMIT: '1000' },
        },
      );
      let stdout = '';
      let stderr = '';
      child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
      const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
      try {
        await new Promise<void>((resolve, reject) => {
          child.stdout.on('data', () => stdout.includes('\n') && resolve());
          child.once('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
        });
        const ready = JSON.parse(stdout.trim()) as { url: string; applications: { key: string }[] };
        assert.match(stderr, /listening on 0\.0\.0\.0 without TLS/);
        const request = requester(`http://${otherAddress()}:${portOf(ready.url)}`);
        const big = await request('POST', '/api/application/cli-app/actions', { key: ready.applications[0]!.key, json: { padding: 'x'.repeat(3000) } });
        assert.equal(big.status, 413, 'the JSON limit of the flag holds');
      } finally {
        child.kill('SIGTERM');
        await exited;
      }
    });
  });

  describe('rate limit', () => {
    it('refills evenly up to a minute of requests, and says how long to wait', () => {
      let now = 0;
      const limiter = new RateLimiter(6, () => now);
      for (let i = 0; i < 6; i++) assert.equal(limiter.takeNow('a'), undefined, `request ${i + 1} of the burst`);
      assert.equal(limiter.takeNow('a'), 10, 'one request every 10 s at 6 a minute');
      assert.equal(limiter.takeNow('b'), undefined, 'another client has its own allowance');
      now += 5_000;
      assert.equal(limiter.takeNow('a'), 5);
      now += 5_000;
      assert.equal(limiter.takeNow('a'), undefined);
      assert.equal(limiter.takeNow('a'), 10);
      now += 10 * 60_000;
      for (let i = 0; i < 6; i++) assert.equal(limiter.takeNow('a'), undefined, 'a long pause refills to the burst, no more');
      assert.equal(limiter.takeNow('a'), 10);
    });

    it('answers 429 with Retry-After per key, and per address for requests without a known key', async () => {
      const sandbox = await withSandbox({ limits: { requestsPerMinute: 3 } });
      try {
        const [a, b] = sandbox.applications;
        for (let i = 0; i < 3; i++) assert.equal((await sandbox.request('GET', '/api/application/app-a/actions', { key: a!.key })).status, 200);
        const limited = await sandbox.request('GET', '/api/application/app-a/actions', { key: a!.key });
        assert.equal(limited.status, 429);
        assert.match(limited.headers.get('retry-after') ?? '', /^[1-9]\d*$/);
        assert.equal(limited.headers.get('content-type'), 'application/problem+json');
        assert.equal((limited.json as { code: string }).code, 'too-many-requests');
        assertMatchesSpec('GET', '/api/application/{applicationId}/actions', limited);
        assert.equal((await sandbox.request('GET', '/api/application/app-b/actions', { key: b!.key })).status, 200, "another key's allowance is its own");
        assert.equal((await sandbox.request('GET', '/api')).status, 200, 'the address without a key has its own allowance too');
        // Guessing keys counts against the address, whatever key is tried.
        assert.equal((await sandbox.request('GET', '/api/application/app-a/actions', { key: 'ca_sk_guess1' })).status, 401);
        assert.equal((await sandbox.request('GET', '/api/application/app-a/actions')).status, 401);
        const guessed = await sandbox.request('GET', '/api/application/app-a/actions', { key: 'ca_sk_guess2' });
        assert.equal(guessed.status, 429);
        assertMatchesSpec('GET', '/api/application/{applicationId}/actions', guessed);
        const index = await sandbox.request('GET', '/api');
        assert.equal(index.status, 429);
        assertMatchesSpec('GET', '/api', index);
      } finally {
        await sandbox.close();
      }
    });

    it("the extension's client waits out a 429 as Retry-After says, then succeeds", async () => {
      // 12 a minute: a burst of 12, then one every 5 s (Retry-After up to 5).
      const sandbox = await withSandbox({ limits: { requestsPerMinute: 12 } });
      try {
        const key = sandbox.applications[0]!.key;
        // The client itself uses up the allowance, so its refusal is the first moment the allowance is empty.
        const once = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(key), retries: 0 });
        let refused: unknown;
        for (let i = 0; i <= 12 && refused === undefined; i++)
          refused = await once.listActions('app-a').then(
            () => undefined,
            (error: unknown) => error,
          );
        assert.ok(refused instanceof ApiError, `the 13th request is refused, not ${String(refused)}`);
        assert.equal(refused.kind, 'rate-limited');
        assert.equal(refused.retryable, true);
        assert.ok(refused.retryAfterMs !== undefined && refused.retryAfterMs >= 1000 && refused.retryAfterMs <= 5000, String(refused.retryAfterMs));
        // Seconds before the allowance refills, the client with its usual retries meets the 429 too and waits it out.
        const client = createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(key) });
        assert.deepEqual(await client.listActions('app-a'), []);
      } finally {
        await closeAllPools();
        await sandbox.close();
      }
    });
  });
});
