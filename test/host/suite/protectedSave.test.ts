import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { type Application } from '../../../src/extension/project';
import { type Services } from '../../../src/extension/services';
import { PushProxy } from '../../support/pushProxy';
import { NotificationSpy, type Shown } from '../notifications';
import { api, eventually, staysTrue } from '../support';
import { codeReturning, mainOf, numberAction, openAsWritten, projectOn, PulledActions, type ProjectElsewhere, readText, saveText } from '../suiteFixture';

describe('Save on a protected target', function () {
  this.timeout(180_000);
  let services: Services;
  let app: Application;
  let proxy: PushProxy;
  let project: ProjectElsewhere;
  let spy: NotificationSpy | undefined;
  const pulled = new PulledActions(
    () => services,
    () => app,
  );

  const onServer = (id: string) => services.connections.call(app, (c) => c.getImplementation(id));

  /** An action in the workspace and on production (the sandbox behind the proxy), with `code` on both. */
  const action = (key: string, code: string) => pulled.add(key, code, numberAction(key));

  /** Opens `uri` once the document holds what is on disk, puts `text` in it and saves it by hand. */
  async function saveAs(uri: vscode.Uri, text: string): Promise<vscode.TextDocument> {
    const e = await openAsWritten(uri);
    await saveText(e, text);
    return e.document;
  }

  /** The offer a save on production makes, once it is shown. */
  const offer = (s: NotificationSpy): Promise<Shown> =>
    eventually(() => s.shown.find((m) => !m.modal && m.items.includes('Push to production…')), 'the offer to push to production');

  before(async () => {
    services = (await api()).services;
    const { actual } = await services.connections.baseUrl();
    proxy = new PushProxy(new URL(actual));
    const base = await proxy.start();
    // production, the default, protected: the sandbox behind a proxy that counts the pushes.
    project = await projectOn(services, base, {
      rewrite: (text) => text + `\ntargets:\n  production:\n    baseUrl: ${base}\n    default: true\n    protected: true\n`,
    });
    const { target } = project.project.target;
    assert.ok(target.name === 'production' && target.protected);
    app = project.app;
  });

  afterEach(async () => {
    spy?.dispose();
    spy = undefined;
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
  });

  after(async () => {
    await pulled.removeAll();
    await services.project.pickTarget(undefined);
    await project.restore();
    await proxy.close();
  });

  it('pushes nothing by itself, offers Push to production…, and pushes once the modal is answered', async () => {
    const id = await action('protected-yes', codeReturning('n'));
    spy = new NotificationSpy();
    const before = proxy.implementationPuts(id);
    const text = codeReturning('n + 1 /* for production */');
    await saveAs(mainOf('protected-yes'), text);
    const offered = await offer(spy);
    assert.match(offered.message, /Saved, not pushed: the target production is protected/);
    await staysTrue(() => proxy.implementationPuts(id) === before, 'no push while the offer waits', 1_500);
    assert.equal(await onServer(id), codeReturning('n'));

    offered.answer('Push to production…');
    const asked = await eventually(() => spy!.shown.find((m) => m.modal), 'the modal confirmation');
    assert.match(asked.message, /Push this change to the protected target production\?/);
    assert.deepEqual(asked.items, ['Push to production']);
    assert.equal(proxy.implementationPuts(id), before, 'nothing pushed before the confirmation');
    asked.answer('Push to production');
    await eventually(async () => ((await onServer(id)) === text ? true : undefined), 'the saved text on production');
    assert.equal(proxy.implementationPuts(id) - before, 1, 'one push');
  });

  it('pushes nothing when the modal is dismissed, and the edit stays saved in the file', async () => {
    const id = await action('protected-no', codeReturning('n'));
    spy = new NotificationSpy();
    const before = proxy.implementationPuts(id);
    const text = codeReturning('n + 2 /* not for production */');
    const document = await saveAs(mainOf('protected-no'), text);
    (await offer(spy)).answer('Push to production…');
    const asked = await eventually(() => spy!.shown.find((m) => m.modal), 'the modal confirmation');
    asked.answer(undefined);
    await staysTrue(() => proxy.implementationPuts(id) === before, 'no push after the dismissal', 2_000);
    assert.equal(await onServer(id), codeReturning('n'));
    assert.equal(document.getText(), text, 'the editor keeps the edit');
    assert.equal(document.isDirty, false);
    assert.equal(await readText(mainOf('protected-no')), text, 'the file holds it');
  });

  it('pushes nothing to production when the target was switched before the confirmation', async () => {
    const id = await action('protected-switched', codeReturning('n'));
    spy = new NotificationSpy();
    const before = proxy.implementationPuts(id);
    await saveAs(mainOf('protected-switched'), codeReturning('n + 3'));
    (await offer(spy)).answer('Push to production…');
    const asked = await eventually(() => spy!.shown.find((m) => m.modal), 'the modal confirmation');
    await services.project.pickTarget('default');
    asked.answer('Push to production');
    await eventually(() => spy!.matching(/Nothing pushed to production: the target is now default/)[0], 'the user is told');
    assert.equal(proxy.implementationPuts(id), before);
    await services.project.pickTarget('production');
  });
});
