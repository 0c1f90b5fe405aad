// The extension's requests follow VS Code's own network settings, the user's only: http.proxy through a
// real forwarding proxy, http.noProxy around it, http.proxyStrictSSL for a server behind it.
import * as assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import { type AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { type ForwardProxy, startForwardProxy } from '../../support/forwardProxy';
import { makeTestCertificates } from '../../support/testCertificates';
import { api, eventually, fixtureApplication, workspaceRoot } from '../support';
import { keepProjectFile, projectFile, sandboxKeyAt, writeText } from '../suiteFixture';

/** A name no resolver knows: only the proxy maps it to this machine, so a request that reaches a server by it went through the proxy. */
const PROXIED = 'actions.proxied.test';
const SECURE = 'secure.proxied.test';

describe("Network: VS Code's proxy settings (user settings only)", function () {
  this.timeout(120_000);
  let services: Services;
  let proxy: ForwardProxy;
  let tlsServer: Server;
  let certDir: string;
  /** The fixture sandbox's port, which the proxy reaches by the name only it knows. */
  let sandboxPort: string;
  const http = () => vscode.workspace.getConfiguration('http');
  const workspaceSettings = () => vscode.Uri.joinPath(workspaceRoot(), '.vscode', 'settings.json');

  before(async () => {
    services = (await api()).services;
    await fixtureApplication(services, 'test-app');
    sandboxPort = new URL((await services.connections.baseUrl()).actual).port;
    proxy = await startForwardProxy({ hosts: { [PROXIED]: '127.0.0.1', [SECURE]: '127.0.0.1' } });
    // A TLS server whose certificate no authority on the machine signed: only proxyStrictSSL false lets it through the proxy.
    certDir = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-proxy-'));
    const certificates = makeTestCertificates(certDir, [SECURE]);
    tlsServer = createServer({ cert: readFileSync(certificates.certFile), key: readFileSync(certificates.keyFile) }, (req, res) => {
      if (req.method === 'GET' && req.url === '/api/application/test-app/actions') res.writeHead(200, { 'content-type': 'application/json' }).end('[]');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => tlsServer.listen(0, '127.0.0.1', resolve));
  });

  after(async () => {
    for (const key of ['proxy', 'noProxy', 'proxyStrictSSL']) await http().update(key, undefined, vscode.ConfigurationTarget.Global);
    await vscode.workspace.fs.delete(workspaceSettings()).then(undefined, () => undefined);
    await proxy?.close();
    await new Promise((resolve) => tlsServer?.close(resolve));
    rmSync(certDir, { recursive: true, force: true });
  });

  // Put back after the settings are.
  const project = keepProjectFile();

  /** The project on `baseUrl` (a target of its own, the default), with test-app's sandbox key there. */
  async function projectOn(baseUrl: string): Promise<Application> {
    await sandboxKeyAt(services, baseUrl, 'test-app');
    const targets = `\ntargets:\n  proxied:\n    baseUrl: ${baseUrl}\n    default: true\n    applications:\n      test-app: test-app\n`;
    await writeText(projectFile(), project.text + targets);
    await services.project.reload();
    const state = await services.project.only();
    assert.ok(state.kind === 'ok' && state.baseUrl === baseUrl, 'the project is on the proxied name');
    return state.applications.find((a) => a.id === 'test-app')!;
  }

  /** Lists test-app's actions as the extension does: the list, or the error's message. */
  async function list(app: Application): Promise<{ ok: true; count: number } | { ok: false; message: string }> {
    try {
      const actions = await services.connections.call(app, (c) => c.listActions('test-app'));
      return { ok: true, count: actions.length };
    } catch (error) {
      return { ok: false, message: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Sets a user setting and checks VS Code reads it back (the extension's transport is remade on the change). */
  async function set(key: string, value: unknown): Promise<void> {
    await http().update(key, value, vscode.ConfigurationTarget.Global);
    assert.deepEqual(http().inspect(key)?.globalValue, value);
  }

  it('http.proxy in the user settings carries the requests through the proxy (a tunnel, the key inside it); http.noProxy goes around it', async () => {
    const port = sandboxPort;
    const app = await projectOn(`http://${PROXIED}:${port}`);
    await set('proxy', undefined);
    const direct = await list(app);
    assert.equal(direct.ok, false, 'the name resolves only through the proxy');

    await set('proxy', proxy.url);
    const mark = proxy.saw.length;
    const through = await list(app);
    assert.ok(through.ok, `through the proxy: ${JSON.stringify(through)}`);
    const seen = proxy.saw.slice(mark);
    assert.ok(
      seen.some((s) => s.method === 'CONNECT' && s.target === `${PROXIED}:${port}` && s.status === 200),
      JSON.stringify(seen.map((s) => [s.method, s.target])),
    );
    // A hop, not a destination: the proxy was asked for a tunnel, never handed the key.
    for (const s of seen) assert.equal(s.headers.authorization, undefined);

    await set('noProxy', [PROXIED]);
    const around = proxy.saw.length;
    const bypassed = await list(app);
    assert.equal(bypassed.ok, false, 'http.noProxy sends it directly, where the name does not resolve');
    assert.equal(proxy.saw.length, around, 'the proxy saw nothing of a host in http.noProxy');
    await set('noProxy', undefined);
  });

  it("a workspace's http.proxy is not used: a cloned repository does not choose where requests go", async () => {
    const app = await projectOn(`http://${PROXIED}:${sandboxPort}`);
    await set('proxy', undefined);
    // As a cloned repository would hold it: VS Code refuses to write http.proxy there itself.
    await vscode.workspace.fs.writeFile(
      workspaceSettings(),
      new TextEncoder().encode(JSON.stringify({ 'http.proxy': proxy.url, 'customActions.tree.recentEvents': 21 })),
    );
    // The file has been read once a plain setting of it shows.
    await eventually(
      () => (vscode.workspace.getConfiguration('customActions').get('tree.recentEvents') === 21 ? true : undefined),
      'the workspace settings file read',
    );
    const mark = proxy.saw.length;
    const result = await list(app);
    assert.equal(result.ok, false, 'a workspace value must not route requests');
    assert.equal(proxy.saw.length, mark, "the workspace's proxy saw nothing");
    await vscode.workspace.fs.delete(workspaceSettings());
  });

  it('http.proxyStrictSSL false lets a server whose certificate no authority signed through the proxy; true (the default) refuses it', async () => {
    const port = (tlsServer.address() as AddressInfo).port;
    const app = await projectOn(`https://${SECURE}:${port}`);
    await set('proxy', proxy.url);
    await set('proxyStrictSSL', undefined);
    const strict = await list(app);
    assert.equal(strict.ok, false);
    assert.match((strict as { message: string }).message, /certificate/i);
    await set('proxyStrictSSL', false);
    const lax = await list(app);
    assert.deepEqual(lax, { ok: true, count: 0 });
    await set('proxyStrictSSL', undefined);
  });
});
