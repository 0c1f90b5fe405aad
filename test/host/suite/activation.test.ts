import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, eventually, EXTENSION_ID, workspaceRoot } from '../support';

describe('Activation in a real VS Code', () => {
  it('loads the extension under development and activates it', async () => {
    const extension = vscode.extensions.getExtension(EXTENSION_ID);
    assert.ok(extension, 'extension present');
    await api();
    assert.equal(extension.isActive, true);
  });

  it('opens the test workspace with its project file', async () => {
    const root = workspaceRoot();
    const stat = await vscode.workspace.fs.stat(vscode.Uri.joinPath(root, 'customactions.yaml'));
    assert.equal(stat.type, vscode.FileType.File);
  });

  it('registers every contributed command', async () => {
    const all = new Set(await vscode.commands.getCommands(true));
    const contributed = (vscode.extensions.getExtension(EXTENSION_ID)?.packageJSON as { contributes: { commands: { command: string }[] } }).contributes
      .commands;
    const missing = contributed.map((c) => c.command).filter((id) => !all.has(id));
    assert.deepEqual(missing, []);
  });

  it('exposes its internals only because this is a test run', async () => {
    const { services } = await api();
    assert.equal(services.context.extensionMode, vscode.ExtensionMode.Test);
  });

  it("round-trips a secret through its context's SecretStorage and hears the change", async () => {
    const { secrets } = (await api()).services.context;
    const name = `host-test/${Date.now()}`;
    const changed = new Promise<string>((resolve) => {
      const listener = secrets.onDidChange((e) => {
        if (e.key !== name) return;
        listener.dispose();
        resolve(e.key);
      });
    });
    await secrets.store(name, 'sécret ✓');
    assert.equal(await changed, name);
    assert.equal(await secrets.get(name), 'sécret ✓');
    await secrets.delete(name);
    assert.equal(await secrets.get(name), undefined);
  });

  it('keeps keys in SecretStorage: store, read back, delete', async () => {
    const { services } = await api();
    await services.keys.set('https://example.invalid', 'app-1', 'secret-value-123');
    assert.equal(await services.keys.get('https://example.invalid', 'app-1'), 'secret-value-123');
    await services.keys.delete('https://example.invalid', 'app-1');
    assert.equal(await services.keys.get('https://example.invalid', 'app-1'), undefined);
  });

  it('reads a key changed behind its back (another window) afresh, though it remembers keys it has read', async () => {
    const { services } = await api();
    const { secrets } = services.context;
    await services.keys.set('https://example.invalid', 'app-2', 'first-key-123456');
    assert.equal(await services.keys.get('https://example.invalid', 'app-2'), 'first-key-123456');
    // Straight into SecretStorage under the key store's name (the server's identity), as another window of the same profile would.
    const name = `customActions.key/${encodeURIComponent('https://example.invalid/')}/app-2`;
    const heard = new Promise<void>((resolve) => {
      const listener = secrets.onDidChange((e) => e.key === name && (listener.dispose(), resolve()));
    });
    await secrets.store(name, 'second-key-654321');
    await heard;
    assert.equal(await services.keys.get('https://example.invalid', 'app-2'), 'second-key-654321');
    await secrets.delete(name);
    await eventually(async () => ((await services.keys.get('https://example.invalid', 'app-2')) === undefined ? true : undefined), 'the deleted key forgotten');
  });
});
