import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type HostMessage } from '../../../src/core/webview';
import { FormSession } from '../../../src/extension/form/session';
import { workspaceRoot } from '../support';

const ODD = `# values JSON cannot carry, in fields the form does not show
key: keeps
name: Keeps # the name the test edits
description: ""
developerEmail: dev@example.com
x-weight: .inf
x-floor: -.inf
x-unknown: .nan
x-big: 12345678901234567890123
x-defaults: &text-type
  type: text
parameters:
  - name: who
    type: *text-type
    x-score: .nan
result:
  type: text
`;

/**
 * The metadata form's edit path on a real document, with a stand-in webview that carries messages
 * as VS Code does: serialised as JSON both ways. The unit tests (test/unit/form-preservation.test.ts)
 * cover the YAML rule itself.
 */
describe('Metadata form keeps what it did not edit (host)', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('an edit of the name leaves .inf, .nan, an integer beyond 2^53 and an alias as written', async () => {
    const uri = vscode.Uri.joinPath(workspaceRoot(), 'form-preservation', 'keeps', 'action.yaml');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(ODD));
    const document = await vscode.workspace.openTextDocument(uri);
    const posted: HostMessage[] = [];
    const incoming = new vscode.EventEmitter<unknown>();
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined };
    const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;
    const form = new FormSession(
      document,
      { postMessage: (m) => (posted.push(throughJson(m)), Promise.resolve(true)), onDidReceiveMessage: incoming.event },
      { log, openText: () => Promise.resolve() },
    );
    try {
      form.receive({ type: 'ready' });
      const state = posted[posted.length - 1];
      assert.ok(state?.type === 'state');
      assert.equal(state.value['x-weight'], null, 'JSON carried .inf to the form as null');
      form.receive(throughJson({ type: 'edit', version: document.version, seq: 1, value: { ...state.value, name: 'Kept' } }));
      await form.whenIdle();
      assert.equal(document.getText(), ODD.replace('name: Keeps #', 'name: Kept #'));
      await vscode.commands.executeCommand('workbench.action.files.revert', uri).then(undefined, () => undefined);
    } finally {
      form.dispose();
      incoming.dispose();
    }
  });
});
