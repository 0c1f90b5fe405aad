import * as assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import * as vscode from 'vscode';
import { type ActionMetadata } from '../../../src/core/schema';
import { generateTypes } from '../../../src/core/typegen';
import { serializeActionYaml } from '../../../src/core/workspace';
import { type DeployFeature } from '../../../src/extension/deploy';
import { type PushResult } from '../../../src/extension/deploy/deployer';
import { FROM_METADATA, FROM_SIGNATURE } from '../../../src/extension/deploy/quickFixes';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { NotificationSpy } from '../notifications';
import { PushProxy } from '../../support/pushProxy';
import { api, eventually, staysTrue } from '../support';
import {
  actionFolder,
  codeReturning,
  mainOf,
  numberAction,
  openAsWritten,
  projectOn,
  PulledActions,
  type ProjectElsewhere,
  readText,
  replaceText,
  saveText,
  writeText,
} from '../suiteFixture';

const metadataOf = (key: string, parameterType: 'number' | 'text' = 'number'): ActionMetadata =>
  numberAction(key, { name: `Deploy ${key}`, parameters: [{ name: 'n', type: parameterType, description: 'A number' }] });

describe('Save to deploy (sandbox behind a counting proxy)', function () {
  this.timeout(180_000);
  let services: Services;
  let app: Application;
  let proxy: PushProxy;
  let project: ProjectElsewhere;
  let deploy: DeployFeature;
  /** Lets a push held by a test go, should the test fail before it does. */
  let releaseHeld: () => void = () => undefined;
  const pulled = new PulledActions(
    () => services,
    () => app,
  );

  const onServer = (id: string) => services.connections.call(app, (c) => c.getImplementation(id));

  /** An action in the workspace and on the server, with `code` as its implementation on both. */
  const action = (key: string, code: string, metadata = metadataOf(key)) => pulled.add(key, code, metadata);

  before(async () => {
    services = (await api()).services;
    // The extension's own sandbox, then the project pointed at a proxy in front of it.
    const { actual } = await services.connections.baseUrl();
    proxy = new PushProxy(new URL(actual));
    project = await projectOn(services, await proxy.start());
    app = project.app;
    deploy = services.deploy;
  });

  afterEach(async () => {
    releaseHeld();
    proxy.failures = [];
    proxy.failLists = false;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  // The other suites expect the applications empty and the project on the sandbox.
  after(async () => {
    await vscode.commands.executeCommand('notifications.clearAll');
    await pulled.removeAll();
    await project.restore();
    await proxy.close();
  });

  it('pushes a save made in the editor, and the server holds exactly the saved text', async () => {
    const id = await action('deploy-save', codeReturning('n'));
    const e = await openAsWritten(mainOf('deploy-save'));
    const before = proxy.implementationPuts(id);
    const text = codeReturning('n * 3 /* saved in the editor */');
    await saveText(e, text);
    await eventually(async () => ((await onServer(id)) === text ? true : undefined), 'the saved text on the server');
    assert.equal(await onServer(id), e.document.getText());
    assert.equal(proxy.implementationPuts(id) - before, 1, 'one request for one save');
    await eventually(
      () => (/Pushed code of deploy-save \(\d+ ms\)/.test(deploy.status.text) ? true : undefined),
      `the status bar says pushed: ${deploy.status.text}`,
    );
    // Saving the same text again sends nothing: the server accepted it already.
    assert.ok(await e.document.save());
    await staysTrue(() => proxy.implementationPuts(id) - before === 1, 'one push for two saves of the same text', 1_500);
  });

  it('does not push a file changed on disk by another process, open in an editor or not', async () => {
    const id = await action('deploy-disk', codeReturning('n'));
    const e = await openAsWritten(mainOf('deploy-disk'));
    const before = proxy.implementationPuts(id);
    const changed = codeReturning('n - 1 /* from a checkout */');
    await writeFile(mainOf('deploy-disk').fsPath, changed);
    await eventually(() => (e.document.getText() === changed ? true : undefined), 'the editor reloading the file from disk');
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await writeFile(mainOf('deploy-disk').fsPath, codeReturning('n - 2 /* another tool */'));
    await staysTrue(() => proxy.implementationPuts(id) === before, 'no request for changes on disk', 2_500);
    assert.equal(await onServer(id), codeReturning('n'));
  });

  it('does not push a file that does not define main', async () => {
    const id = await action('deploy-nomain', codeReturning('n'));
    const before = proxy.implementationPuts(id);
    const helper = vscode.Uri.joinPath(actionFolder('deploy-nomain'), 'helper.ts');
    await writeText(helper, 'export const x = 1;\n');
    await saveText(await openAsWritten(helper), 'export const twice = (n: number): number => n * 2;\n');
    await saveText(await openAsWritten(mainOf('deploy-nomain')), 'export function helper(n: number): number {\n  return n;\n}\n');
    await staysTrue(() => proxy.implementationPuts(id) === before, 'no request for a file without main', 1_500);
    assert.equal(await onServer(id), codeReturning('n'));
    const byHand = await vscode.commands.executeCommand<PushResult | undefined>('customActions.pushImplementation', mainOf('deploy-nomain'));
    assert.equal(byHand?.kind, 'refused');
    assert.equal(byHand?.kind === 'refused' && byHand.why, 'no-main');
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('ends 50 quick saves with the last content on the server, one request at a time and far fewer requests than saves', async () => {
    const id = await action('deploy-burst', codeReturning('n'));
    const e = await openAsWritten(mainOf('deploy-burst'));
    // The server answers no push until all 50 saves are made, however fast or slow this machine saves.
    const release = proxy.holdPushes();
    releaseHeld = release;
    proxy.maxInflight = 0;
    const before = proxy.implementationPuts(id);
    let last = '';
    for (let i = 1; i <= 50; i++) {
      last = codeReturning(`n + ${i}`);
      await saveText(e, last);
    }
    release();
    await eventually(async () => ((await onServer(id)) === last ? true : undefined), 'the last save on the server', 30_000);
    await staysTrue(async () => (await onServer(id)) === last, 'no older save overtook the last one', 1_500);
    const requests = proxy.implementationPuts(id) - before;
    // The one held, the newest save queued behind it, and at most one whose check ended after that push left.
    assert.ok(requests >= 1 && requests <= 3, `${requests} requests for 50 saves`);
    assert.equal(proxy.maxInflight, 1, 'one request in flight per action');
  });

  it('retries a transient failure, and on a refusal keeps the file, reports it once and offers Retry', async () => {
    const id = await action('deploy-fail', codeReturning('n'));
    const e = await openAsWritten(mainOf('deploy-fail'));
    // Two 503s then success: the client's backoff absorbs them, the user sees a push.
    proxy.failures = [503, 503].map((status) => ({ status, body: JSON.stringify({ title: 'Unavailable', status, detail: 'busy' }) }));
    const before = proxy.implementationPuts(id);
    const first = codeReturning('n + 100');
    await saveText(e, first);
    await eventually(async () => ((await onServer(id)) === first ? true : undefined), 'the push after two transient failures');
    assert.equal(proxy.implementationPuts(id) - before, 3);

    const refusal = { status: 422, body: JSON.stringify({ title: 'Invalid code', status: 422, detail: 'main.ts does not compile: boom' }) };
    const spy = new NotificationSpy();
    try {
      const told = () => spy.matching(/The code of deploy-fail was not pushed/);
      proxy.failures = [refusal];
      const refused = codeReturning('n + 200');
      await saveText(e, refused);
      const notice = await eventually(() => told().find((n) => n.items.includes('Retry')), 'the failure offered with Retry');
      assert.match(deploy.status.text, /Push of deploy-fail failed/);
      assert.doesNotMatch(deploy.status.text, /Pushed/, 'a refused push is not reported as done');
      assert.equal(e.document.getText(), refused, 'the file stays as the user left it');
      assert.ok(!e.document.isDirty);
      assert.equal(await readText(mainOf('deploy-fail')), refused);
      assert.equal(await onServer(id), first, 'the server kept what it had');
      // The same failure on the next save does not stack a second notification.
      proxy.failures = [refusal];
      await saveText(e, refused + '\n');
      await eventually(() => (proxy.failures.length === 0 ? true : undefined), 'the second refused push');
      await staysTrue(() => told().length <= 1, 'one notification', 500);
      assert.equal(told().length, 1);
      // Retry (the button) sends the latest content that failed.
      notice.answer('Retry');
      await eventually(async () => ((await onServer(id)) === refused + '\n' ? true : undefined), 'the retried save on the server');
    } finally {
      spy.dispose();
    }
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  it('checks a save while it is written, and never lets the check of one text pass another', async () => {
    const id = await action('deploy-ahead', codeReturning('n'));
    const uri = mainOf('deploy-ahead');
    const before = proxy.implementationPuts(id);
    // A will-save participant (a formatter) may change the text after the check began: the push of
    // the text actually saved is checked afresh, so code that disagrees with action.yaml stays here.
    const good = codeReturning('n + 1');
    const bad = 'export function main(n: string): number {\n  return n.length;\n}\n';
    const e = await openAsWritten(uri);
    const spy = new NotificationSpy();
    // Saves by hand only: an auto-save of `good` would meet the participant too, and be refused quietly.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    // Registered after the extension's own will-save listener, which begins the check of `good`.
    const formatter = vscode.workspace.onWillSaveTextDocument((event) => {
      if (event.document.uri.toString() !== uri.toString()) return;
      const whole = event.document.validateRange(new vscode.Range(0, 0, Number.MAX_SAFE_INTEGER, 0));
      event.waitUntil(Promise.resolve([vscode.TextEdit.replace(whole, bad)]));
    });
    try {
      await saveText(e, good);
      assert.equal(e.document.getText(), bad, 'the participant changed the text saved');
      const refusal = await eventually(() => spy.matching(/main\.ts of deploy-ahead has 1 error/)[0], 'the saved text refused on its own check');
      assert.ok(refusal.items.includes('Push Anyway'));
      await staysTrue(() => proxy.implementationPuts(id) === before, 'nothing pushed', 1_000);
    } finally {
      formatter.dispose();
      spy.dispose();
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
    await vscode.commands.executeCommand('notifications.clearAll');
    // The check begun for a text is the one its push takes.
    await saveText(e, good);
    await eventually(async () => ((await onServer(id)) === good ? true : undefined), 'the checked text on the server');
    assert.equal(proxy.implementationPuts(id) - before, 1);
    // Another save goes the same way, will-save then did-save.
    const saved = codeReturning('n + 2');
    await saveText(e, saved);
    await eventually(async () => ((await onServer(id)) === saved ? true : undefined), 'the saved text on the server');
    assert.equal(proxy.implementationPuts(id) - before, 2);
    await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
  });

  it('shows a mismatch on the exact parameter, refuses to push it, and each quick fix produces the expected text', async () => {
    const code = 'export function main(n: string): number {\n  return n.length;\n}\n';
    const id = await action('deploy-fix', codeReturning('n'));
    await writeText(mainOf('deploy-fix'), code);
    const e = await openAsWritten(mainOf('deploy-fix'));
    const diagnostic = await eventually(
      () => vscode.languages.getDiagnostics(mainOf('deploy-fix')).find((d) => d.source === 'Custom Actions'),
      'the mismatch diagnostic',
    );
    assert.equal(diagnostic.code, 'type');
    assert.deepEqual([diagnostic.range.start.line, diagnostic.range.start.character, diagnostic.range.end.character], [0, 24, 30], 'on `string`');
    assert.equal(diagnostic.severity, vscode.DiagnosticSeverity.Error);

    const before = proxy.implementationPuts(id);
    const result = await vscode.commands.executeCommand<PushResult | undefined>('customActions.pushImplementation', mainOf('deploy-fix'));
    assert.equal(result?.kind, 'refused', 'a file with errors is not pushed');
    assert.equal(result?.kind === 'refused' && result.why, 'problems');
    assert.match(result?.reason ?? '', /has 1 error/);
    assert.equal(proxy.implementationPuts(id), before);
    await vscode.commands.executeCommand('notifications.clearAll');

    const fixes = async () =>
      (await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', e.document.uri, diagnostic.range)) ?? [];
    const fromMetadata = (await fixes()).find((a) => a.title === FROM_METADATA);
    assert.ok(fromMetadata?.edit, 'the fix from action.yaml');
    assert.ok(await vscode.workspace.applyEdit(fromMetadata.edit));
    assert.equal(
      e.document.getText(),
      "import type { Inputs, Result } from './action.generated';\n\nexport function main(n: Inputs['n']): Result {\n  return n.length;\n}\n",
    );
    await eventually(
      () => (vscode.languages.getDiagnostics(e.document.uri).some((d) => d.source === 'Custom Actions') ? undefined : true),
      'the mismatch gone',
    );

    await replaceText(e, code);
    await eventually(() => vscode.languages.getDiagnostics(e.document.uri).find((d) => d.source === 'Custom Actions'), 'the mismatch back');
    const fromSignature = (await fixes()).find((a) => a.title === FROM_SIGNATURE);
    assert.ok(fromSignature?.edit, 'the fix of action.yaml');
    assert.ok(await vscode.workspace.applyEdit(fromSignature.edit));
    const yaml = (await vscode.workspace.openTextDocument(vscode.Uri.joinPath(actionFolder('deploy-fix'), 'action.yaml'))).getText();
    assert.equal(yaml, serializeActionYaml(metadataOf('deploy-fix', 'text')));
    await eventually(
      () => (vscode.languages.getDiagnostics(e.document.uri).some((d) => d.source === 'Custom Actions') ? undefined : true),
      'the mismatch gone after action.yaml changed',
    );
    const generated = await eventually(async () => {
      const text = await readText(vscode.Uri.joinPath(actionFolder('deploy-fix'), 'action.generated.ts'));
      return text === generateTypes(metadataOf('deploy-fix', 'text')) ? text : undefined;
    }, 'the generated types following the unsaved action.yaml');
    assert.match(generated, /n: string;/);
    await vscode.commands.executeCommand('workbench.action.files.revert');
  });

  it('pushes a saved action.yaml as metadata, and never an invalid one', async () => {
    const id = await action('deploy-meta', codeReturning('n'));
    const uri = vscode.Uri.joinPath(actionFolder('deploy-meta'), 'action.yaml');
    const e = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
    const before = proxy.metadataPuts(id);
    await saveText(e, serializeActionYaml({ ...metadataOf('deploy-meta'), name: 'Renamed by a save' }));
    await eventually(async () => {
      const listed = await services.connections.call(app, (c) => c.listActions(app.id));
      return listed.find((a) => a.id === id)?.name === 'Renamed by a save' ? true : undefined;
    }, 'the new name on the server');
    assert.equal(proxy.metadataPuts(id) - before, 1);
    const invalid = serializeActionYaml({ ...metadataOf('deploy-meta'), developerEmail: 'not an address' });
    const spy = new NotificationSpy();
    try {
      await saveText(e, invalid);
      await staysTrue(() => proxy.metadataPuts(id) - before === 1, 'invalid metadata is not sent', 1_500);
      assert.equal(await readText(uri), invalid, 'the file is kept');
      assert.ok(spy.matching(/^action\.yaml of deploy-meta was not pushed: line \d+/).length > 0, 'the reason is shown');
    } finally {
      spy.dispose();
    }
    await vscode.commands.executeCommand('notifications.clearAll');
  });

  /** What a click came to: the status bar says up to date, or the server was given something else than `kept`. */
  const clickHandled = (id: string, kept: string) =>
    eventually(
      async () => ((await onServer(id)) !== kept ? 'overwritten' : /is up to date/.test(deploy.status.text) ? 'up to date' : undefined),
      'the click handled',
    );

  it('a Retry clicked after a newer save was pushed sends what the file holds, never the older save', async () => {
    const id = await action('deploy-stale-retry', codeReturning('n'));
    const e = await openAsWritten(mainOf('deploy-stale-retry'));
    const spy = new NotificationSpy();
    // Saves by hand only: an auto-save that came first would be told quietly, with no notification to click.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      // Save A while the action list times out: nothing is pushed, the failure offers Retry.
      proxy.failLists = true;
      // Read again for this save, whatever read it since the action was made.
      services.model.refresh();
      await saveText(e, codeReturning('n + 1 /* A */'));
      const notice = await eventually(
        () => spy.matching(/deploy-stale-retry was not pushed/).find((n) => n.items.includes('Retry')),
        'the failure offering Retry',
      );
      proxy.failLists = false;
      // VS Code keeps an error with buttons on screen until dismissed; a warning leaves after a while.
      assert.equal(notice.severity, 'warning');
      // Save B goes through.
      const b = codeReturning('n + 2 /* B */');
      await saveText(e, b);
      await eventually(async () => ((await onServer(id)) === b ? true : undefined), 'B on the server');
      // The failure is over: the same failure again notifies again, though the first notification is still open.
      proxy.failLists = true;
      // The list is read again for the next save (it is known since B), and that read fails.
      services.model.refresh();
      await saveText(e, codeReturning('n + 3 /* C */'));
      await eventually(
        () => (spy.matching(/deploy-stale-retry was not pushed/).filter((n) => n.items.includes('Retry')).length === 2 ? true : undefined),
        'a second failure told anew',
      );
      proxy.failLists = false;
      // The file holds B again, written on disk (which pushes nothing): what the server holds.
      await writeText(mainOf('deploy-stale-retry'), b);
      await eventually(() => (e.document.getText() === b && !e.document.isDirty ? true : undefined), 'the editor reloading B');
      const puts = proxy.implementationPuts(id);
      notice.answer('Retry');
      assert.equal(await clickHandled(id, b), 'up to date');
      assert.equal(await onServer(id), b, 'the server keeps the newer save');
      assert.equal(e.document.getText(), b);
      assert.equal(proxy.implementationPuts(id), puts, 'nothing was sent: the server holds the file already');
    } finally {
      spy.dispose();
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('a Push Anyway clicked after the file was fixed and pushed sends the file as it is, never the refused text', async () => {
    const id = await action('deploy-stale-anyway', codeReturning('n'));
    const e = await openAsWritten(mainOf('deploy-stale-anyway'));
    const spy = new NotificationSpy();
    // Saves by hand only: an auto-save that came first would be told quietly, with no notification to click.
    const files = vscode.workspace.getConfiguration('files');
    await files.update('autoSave', 'off', vscode.ConfigurationTarget.Global);
    try {
      await saveText(e, 'export function main(n: string): number {\n  return n.length;\n}\n');
      const notice = await eventually(
        () => spy.matching(/deploy-stale-anyway has \d+ errors?/).find((n) => n.items.includes('Push Anyway')),
        'the refusal offering Push Anyway',
      );
      assert.equal(notice.severity, 'warning');
      const fixed = codeReturning('n + 5');
      await saveText(e, fixed);
      await eventually(async () => ((await onServer(id)) === fixed ? true : undefined), 'the fixed code on the server');
      // The refusal is over: the same refusal again notifies again, though the first notification is still open.
      await saveText(e, 'export function main(n: string): number {\n  return n.length + 1;\n}\n');
      await eventually(
        () => (spy.matching(/deploy-stale-anyway has \d+ errors?/).filter((n) => n.items.includes('Push Anyway')).length === 2 ? true : undefined),
        'a second refusal told anew',
      );
      // The file holds the fixed code again, written on disk (which pushes nothing): what the server holds.
      await writeText(mainOf('deploy-stale-anyway'), fixed);
      await eventually(() => (e.document.getText() === fixed && !e.document.isDirty ? true : undefined), 'the editor reloading the fixed code');
      const puts = proxy.implementationPuts(id);
      notice.answer('Push Anyway');
      assert.equal(await clickHandled(id, fixed), 'up to date');
      assert.equal(await onServer(id), fixed, 'the server keeps the fixed code');
      assert.equal(proxy.implementationPuts(id), puts);
    } finally {
      spy.dispose();
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  it('an auto-save of half-typed code shows no notification: the status bar and Problems say why, calmly, and the finished code goes with the next auto-save', async () => {
    const files = vscode.workspace.getConfiguration('files');
    // VS Code for the Web saves after a delay by default; said here so the test does not depend on it.
    await files.update('autoSave', 'afterDelay', vscode.ConfigurationTarget.Global);
    const spy = new NotificationSpy();
    // The warning comes when the file stays refused for a while; a while is short here.
    const deploySettings = vscode.workspace.getConfiguration('customActions.deploy');
    await deploySettings.update('warnAfterSeconds', 2, vscode.ConfigurationTarget.Global);
    try {
      const id = await action('deploy-autosave', codeReturning('n'));
      const uri = mainOf('deploy-autosave');
      const e = await openAsWritten(uri);
      const before = proxy.implementationPuts(id);
      // Typing in the middle of `return n;`, then a pause: VS Code saves `return n +;`.
      e.selection = new vscode.Selection(1, 10, 1, 10);
      await vscode.commands.executeCommand('type', { text: ' +' });
      await eventually(() => (e.document.getText().includes('return n +;') && !e.document.isDirty ? true : undefined), 'the auto-save of the half-typed line');
      // While typing: calm, no warning colour.
      await eventually(() => (/Editing deploy-autosave…/.test(deploy.status.text) ? true : undefined), `the status bar says editing: ${deploy.status.text}`);
      assert.equal(deploy.status.alarming, false, 'no warning colour while typing');
      await eventually(
        () => vscode.languages.getDiagnostics(uri).find((d) => d.severity === vscode.DiagnosticSeverity.Error && d.range.start.line === 1),
        'the error in the Problems panel',
      );
      // Left like that for a while: now it is a warning.
      await eventually(
        () => (/deploy-autosave not pushed/.test(deploy.status.text) ? true : undefined),
        `the status bar says not pushed: ${deploy.status.text}`,
      );
      assert.equal(deploy.status.alarming, true, 'a warning once the file stayed refused');
      assert.equal(proxy.implementationPuts(id), before, 'nothing pushed');
      assert.deepEqual(
        spy.shown.map((n) => n.message),
        [],
        'no notification',
      );
      // The line finished, another pause: that save passes the checks and goes.
      await vscode.commands.executeCommand('type', { text: ' 2' });
      const finished = codeReturning('n + 2');
      await eventually(async () => ((await onServer(id)) === finished ? true : undefined), 'the finished code on the server');
      assert.equal(e.document.getText(), finished);
      await eventually(
        () => (/Pushed code of deploy-autosave/.test(deploy.status.text) ? true : undefined),
        `the status bar says pushed: ${deploy.status.text}`,
      );
      assert.deepEqual(
        spy.shown.map((n) => n.message),
        [],
        'no notification at any point',
      );
    } finally {
      spy.dispose();
      await deploySettings.update('warnAfterSeconds', undefined, vscode.ConfigurationTarget.Global);
      await files.update('autoSave', undefined, vscode.ConfigurationTarget.Global);
    }
  });

  describe("with the desktop's default (no auto-save): saves by hand right after typing", () => {
    const files = () => vscode.workspace.getConfiguration('files');
    before(() => files().update('autoSave', 'off', vscode.ConfigurationTarget.Global));
    after(() => files().update('autoSave', undefined, vscode.ConfigurationTarget.Global));

    /** TypeScript's errors of a line of main.ts (not ours): what the editor underlines. */
    const typescriptErrorsOn = (uri: vscode.Uri, line: number) =>
      vscode.languages
        .getDiagnostics(uri)
        .filter((d) => d.severity === vscode.DiagnosticSeverity.Error && d.source !== 'Custom Actions' && d.range.start.line === line);

    for (const [kind, half, whole] of [
      ['syntax', 'n +', 'n + 1'],
      ['semantic', 'Math.ab', 'Math.abs(n)'],
    ] as const) {
      it(`a save by hand right after finishing a line pushes it, never refused on TypeScript's ${kind} error of the half line`, async () => {
        const key = `deploy-stale-${kind}`;
        const id = await action(key, codeReturning('n'));
        const uri = mainOf(key);
        const e = await openAsWritten(uri);
        const spy = new NotificationSpy();
        try {
          // Half a line, and a pause: TypeScript underlines it.
          await replaceText(e, codeReturning(half));
          await eventually(() => typescriptErrorsOn(uri, 1)[0], `TypeScript's error of \`return ${half};\``);
          // The line finished and saved at once, before TypeScript looked at the finished text.
          const finished = codeReturning(whole);
          await replaceText(e, finished);
          const staleAtSave = typescriptErrorsOn(uri, 1).length > 0;
          assert.ok(await e.document.save());
          assert.ok(staleAtSave, 'the save came while the errors of the half line were still reported');
          await eventually(async () => ((await onServer(id)) === finished ? true : undefined), 'the finished line on the server').catch((error: unknown) => {
            throw new Error(
              `${String(error)} (the status bar says "${deploy.status.text}"; notifications: ${JSON.stringify(spy.shown.map((n) => n.message))})`,
            );
          });
          await eventually(
            () => (new RegExp(`Pushed code of ${key}`).test(deploy.status.text) ? true : undefined),
            `the status bar says pushed: ${deploy.status.text}`,
          );
          await eventually(() => (typescriptErrorsOn(uri, 1).length === 0 ? true : undefined), 'TypeScript done with the finished line');
          assert.deepEqual(
            spy.shown.map((n) => n.message),
            [],
            'no notification: nothing said "not pushed" of code that was pushed',
          );
        } finally {
          spy.dispose();
        }
      });
    }

    it("a save by hand of code with TypeScript's errors is refused, at the line where the saved text has them", async () => {
      const key = 'deploy-ts-error';
      const id = await action(key, codeReturning('n'));
      const uri = mainOf(key);
      const e = await openAsWritten(uri);
      const spy = new NotificationSpy();
      try {
        await replaceText(e, codeReturning('Math.ab'));
        await eventually(() => typescriptErrorsOn(uri, 1)[0], 'TypeScript underlining `Math.ab`');
        // A line added above and saved at once: the error TypeScript published is on line 2, the saved text has it on line 3.
        const saved = `// moved down\n${codeReturning('Math.ab')}`;
        await replaceText(e, saved);
        const publishedOnLine2 = typescriptErrorsOn(uri, 1).length > 0;
        assert.ok(await e.document.save());
        assert.ok(publishedOnLine2, 'the save came before TypeScript looked at the moved line');
        const refused = await eventually(() => spy.matching(new RegExp(`main.ts of ${key} has 1 error`))[0], 'the refusal');
        assert.match(refused.message, /line 3: Property 'ab' does not exist on type 'Math'/);
        assert.equal(await onServer(id), codeReturning('n'), 'nothing pushed');
      } finally {
        spy.dispose();
        await vscode.commands.executeCommand('notifications.clearAll');
      }
    });
  });
});
