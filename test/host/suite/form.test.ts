import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type FlushMessage, type HostMessage } from '../../../src/core/webview';
import { METADATA_EDITOR_VIEW_TYPE } from '../../../src/extension/form';
import { FormSession } from '../../../src/extension/form/session';
import { formHtml, formResourceRoots } from '../../../src/extension/form/html';
import { eventually, workspaceRoot } from '../support';

const ACTION = `# comments survive
key: greet
name: Greet
description: Says hello
developerEmail: dev@example.com
parameters:
  - name: who # inline comment
    type: text
result:
  type: text
x-owner: team-a
`;

/** A session on a real document, with a stand-in webview that records what the host posts. */
async function session(text: string, name: string, webview: (message: HostMessage, form: FormSession) => void = () => undefined) {
  const uri = vscode.Uri.joinPath(workspaceRoot(), 'form-host', name, 'action.yaml');
  await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(text));
  const document = await vscode.workspace.openTextDocument(uri);
  const posted: HostMessage[] = [];
  const logged: string[] = [];
  const incoming = new vscode.EventEmitter<unknown>();
  const log = { info: (m: string) => logged.push(`info ${m}`), warn: (m: string) => logged.push(`warn ${m}`), error: (m: string) => logged.push(`error ${m}`) };
  // The stand-in webview answers on a later turn, as a real one does over postMessage.
  const post = (m: HostMessage) => (posted.push(m), setTimeout(() => webview(m, form)), Promise.resolve(true));
  const form: FormSession = new FormSession(document, { postMessage: post, onDidReceiveMessage: incoming.event }, { log, openText: () => Promise.resolve() });
  /** The last state the form was given (answers to the form's own requests aside). */
  const last = () => posted.filter((m): m is Exclude<HostMessage, FlushMessage> => m.type !== 'flush').at(-1);
  return { uri, document, posted, logged, form, last, send: (m: unknown) => form.receive(m), dispose: () => (form.dispose(), incoming.dispose()) };
}

describe('Metadata form host', () => {
  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  it('is the default editor of action.yaml', async () => {
    const uri = vscode.Uri.joinPath(workspaceRoot(), 'form-host', 'default', 'action.yaml');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(ACTION));
    await vscode.commands.executeCommand('vscode.open', uri);
    const input = await eventually(() => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return tab?.input instanceof vscode.TabInputCustom ? tab.input : undefined;
    }, 'the form tab');
    assert.equal(input.viewType, METADATA_EDITOR_VIEW_TYPE);
    assert.equal(input.uri.toString(), uri.toString());
  });

  it('opens through vscode.openWith with its view type, as Edit Metadata does', async () => {
    const uri = vscode.Uri.joinPath(workspaceRoot(), 'form-host', 'open-with', 'action.yaml');
    await vscode.workspace.fs.writeFile(uri, new TextEncoder().encode(ACTION));
    await vscode.commands.executeCommand('vscode.openWith', uri, METADATA_EDITOR_VIEW_TYPE);
    await eventually(() => {
      const tab = vscode.window.tabGroups.activeTabGroup.activeTab;
      return tab?.input instanceof vscode.TabInputCustom && tab.input.uri.toString() === uri.toString() ? true : undefined;
    }, 'the form tab');
  });

  it('serves a page whose CSP allows only its own nonce-bearing script and the extension’s styles', () => {
    const extensionUri = vscode.Uri.file('/ext');
    const webview = {
      cspSource: 'https://webview.test',
      asWebviewUri: (u: vscode.Uri) => u.with({ scheme: 'https', authority: 'webview.test' }),
    } as unknown as vscode.Webview;
    const first = formHtml(webview, extensionUri, 'a/<b>/action.yaml');
    const second = formHtml(webview, extensionUri, 'x');
    const csp = /http-equiv="Content-Security-Policy" content="([^"]+)"/.exec(first)?.[1] ?? '';
    const nonce = /script-src 'nonce-([^']+)'/.exec(csp)?.[1] ?? '';
    assert.match(csp, /^default-src 'none'; /);
    assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval|\*/);
    assert.equal(Buffer.from(nonce, 'base64').length, 16, 'a 128-bit nonce');
    assert.ok(first.includes(`<script nonce="${nonce}" src="https://webview.test/ext/dist/webview/form.js">`));
    assert.ok(!second.includes(nonce), 'a new nonce per page');
    assert.ok(first.includes('<title>a/&#60;b&#62;/action.yaml</title>'), 'the title is escaped');
    assert.doesNotMatch(first, /\son[a-z]+=/i, 'no inline handlers');
    assert.deepEqual(
      formResourceRoots(extensionUri).map((u) => u.path),
      ['/ext/dist/webview', '/ext/media/form'],
    );
  });

  it('answers ready with the value and the core validator’s problems', async () => {
    const s = await session(ACTION.replace('dev@example.com', 'not-an-address'), 'ready');
    assert.equal(s.posted.length, 0, 'nothing before the handshake');
    s.send({ type: 'ready' });
    const state = s.last();
    assert.equal(state?.type, 'state');
    if (state?.type !== 'state') return;
    assert.equal(state.version, s.document.version);
    assert.equal(state.value.key, 'greet');
    assert.deepEqual(state.problems, [{ path: ['developerEmail'], message: 'must be an e-mail address' }]);
    s.dispose();
  });

  it('applies an edit as a small WorkspaceEdit that keeps comments and unknown fields', async () => {
    const s = await session(ACTION, 'edit');
    s.send({ type: 'ready' });
    const value = {
      ...(s.last() as { value: Record<string, unknown> }).value,
      name: 'Greeter',
      parameters: [
        { name: 'who', type: 'text' },
        { name: 'times', type: 'number' },
      ],
    };
    s.send({ type: 'edit', version: s.document.version, seq: 1, value });
    await s.form.whenIdle();
    const text = s.document.getText();
    assert.match(text, /^# comments survive\n/);
    assert.match(text, /name: Greeter\n/);
    assert.match(text, /- name: who # inline comment\n/);
    assert.match(text, /- name: times\n\s+type: number\n/);
    assert.match(text, /x-owner: team-a\n/);
    assert.equal(s.document.isDirty, true, 'the form edits the document, it does not save it');
    const state = await eventually(
      () => (s.last()?.type === 'state' && s.last()?.version === s.document.version ? s.last() : undefined),
      'the state after the edit',
    );
    assert.equal(state.type === 'state' && state.origin, 'form');
    assert.equal(state.seq, 1);
    await vscode.commands.executeCommand('workbench.action.files.revert', s.uri).then(undefined, () => undefined);
    s.dispose();
  });

  it('ignores and logs malformed messages, never touching the document', async () => {
    const s = await session(ACTION, 'malformed');
    s.send({ type: 'ready' });
    const before = s.document.getText();
    const count = s.posted.length;
    for (const message of [
      null,
      'edit',
      { type: 'edit' },
      { type: 'edit', version: 1, seq: 1, value: ['x'] },
      { type: 'edit', version: 1, seq: 1, value: { when: new Date() } },
      { type: 'rm -rf' },
    ])
      s.send(message);
    await s.form.whenIdle();
    assert.equal(s.document.getText(), before);
    assert.equal(s.posted.length, count, 'no answer to a malformed message');
    assert.equal(s.logged.filter((l) => l.startsWith('warn') && l.includes('malformed')).length, 6);
    s.dispose();
  });

  it('refuses an edit made on a version older than a change from elsewhere', async () => {
    const s = await session(ACTION, 'stale');
    s.send({ type: 'ready' });
    const seen = s.document.version;
    const edit = new vscode.WorkspaceEdit();
    edit.insert(s.uri, new vscode.Position(0, 0), '# typed in the text editor\n');
    assert.ok(await vscode.workspace.applyEdit(edit));
    const external = s.last();
    assert.equal(external?.type === 'state' && external.origin, 'external', 'a change from elsewhere reaches the form');
    s.send({ type: 'edit', version: seen, seq: 1, value: { key: 'lost' } });
    await s.form.whenIdle();
    assert.match(s.document.getText(), /^# typed in the text editor\n# comments survive\nkey: greet\n/);
    assert.ok(s.logged.some((l) => l.includes('refused')));
    // Edits chained on the form's own versions are fine: the form's value includes its earlier edits.
    s.send({ type: 'edit', version: s.document.version, seq: 2, value: { ...(s.last() as { value: object }).value, name: 'One' } });
    s.send({ type: 'edit', version: s.document.version, seq: 3, value: { ...(s.last() as { value: object }).value, name: 'Two' } });
    await s.form.whenIdle();
    assert.match(s.document.getText(), /name: Two\n/);
    await vscode.commands.executeCommand('workbench.action.files.revert', s.uri).then(undefined, () => undefined);
    s.dispose();
  });

  it('brings the typing the form holds back into the document before a save, so the file has the last keystrokes', async () => {
    // The form holds typing back until a pause; asked to flush, it sends it, then answers.
    let heldBack: Record<string, unknown> | undefined;
    const s = await session(ACTION, 'flush', (m, form) => {
      if (m.type !== 'flush') return;
      if (heldBack) form.receive({ type: 'edit', version: s.document.version, seq: 2, value: heldBack });
      heldBack = undefined;
      form.receive({ type: 'flushed', request: m.request, seq: 2 });
    });
    s.send({ type: 'ready' });
    const value = (s.last() as { value: Record<string, unknown> }).value;
    s.send({ type: 'edit', version: s.document.version, seq: 1, value: { ...value, name: 'Greeting' } });
    await s.form.whenIdle();
    heldBack = { ...value, name: 'Greeting someone' };
    // Ctrl+S at once: the save must not write the text without the held-back keystrokes.
    assert.ok(await s.document.save());
    assert.equal(heldBack, undefined, 'the form was asked');
    assert.match(s.document.getText(), /^name: Greeting someone$/m);
    assert.equal(new TextDecoder().decode(await vscode.workspace.fs.readFile(s.uri)), s.document.getText(), 'the file holds the last keystrokes');
    assert.equal(s.document.isDirty, false, 'nothing arrives after the save to dirty it again');
    s.dispose();
  });

  it('saves without waiting long for a form that does not answer', async () => {
    const s = await session(ACTION, 'silent');
    s.send({ type: 'ready' });
    const value = (s.last() as { value: Record<string, unknown> }).value;
    s.send({ type: 'edit', version: s.document.version, seq: 1, value: { ...value, name: 'Unanswered' } });
    await s.form.whenIdle();
    const started = Date.now();
    assert.ok(await s.document.save());
    const took = Date.now() - started;
    assert.ok(
      s.posted.some((m) => m.type === 'flush'),
      'the form was asked',
    );
    assert.ok(took < 1_500, `the save waited ${took} ms, under VS Code's limit for a will-save listener`);
    assert.match(new TextDecoder().decode(await vscode.workspace.fs.readFile(s.uri)), /^name: Unanswered$/m);
    // A hidden form is discarded: nothing is asked until it is ready again.
    s.form.hidden();
    const asked = s.posted.length;
    s.send({ type: 'edit', version: s.document.version, seq: 2, value: { ...value, name: 'Hidden' } });
    await s.form.whenIdle();
    assert.ok(await s.document.save());
    assert.equal(s.posted.filter((m, i) => i >= asked && m.type === 'flush').length, 0);
    s.dispose();
  });

  it('says when the YAML cannot be read, and refuses edits until it can', async () => {
    const s = await session('key: broken\nname: [unclosed\n', 'unreadable');
    s.send({ type: 'ready' });
    const message = s.last();
    assert.equal(message?.type, 'unreadable');
    s.send({ type: 'edit', version: s.document.version, seq: 1, value: { key: 'guess' } });
    await s.form.whenIdle();
    assert.equal(s.document.getText(), 'key: broken\nname: [unclosed\n');
    s.dispose();
  });
});
