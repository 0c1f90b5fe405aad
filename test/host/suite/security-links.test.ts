import * as assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { type ActionNode, type ApplicationNode } from '../../../src/extension/tree/nodes';
import { HOSTILE_APP, type HostileProject, useHostileProject } from '../hostileProject';
import { NotificationSpy } from '../notifications';
import { api, eventually } from '../support';

const PRECIOUS = 'the user’s own file, outside the workspace\n';

function actionYaml(key: string, description = 'local'): string {
  return `key: ${key}\nname: ${key}\ndescription: ${description}\ndeveloperEmail: dev@example.com\nparameters:\n  - name: who\n    type: text\nresult:\n  type: text\n`;
}

/**
 * Class 1 and 2 of issue #25 (docs/security.md, "Round two"): no write of the extension follows a
 * symbolic link out of the workspace folder, whether the link is the file written or any folder above
 * it. The links are real (node fs on the extension host's side) and point into a temporary folder
 * outside the workspace, whose contents the tests compare before and after.
 */
describe('Security: no write follows a link out of the workspace', function () {
  this.timeout(120_000);
  let project: HostileProject;
  let outside: string;

  before(async () => {
    project = await useHostileProject();
    outside = await mkdtemp(join(tmpdir(), 'custom-actions-outside-'));
  });

  after(async () => {
    await vscode.commands.executeCommand('workbench.action.closeAllEditors');
    await project.restore();
    await rm(outside, { recursive: true, force: true });
  });

  async function actionFolder(name: string): Promise<vscode.Uri> {
    const folder = vscode.Uri.joinPath(project.appFolder, name);
    await vscode.workspace.fs.createDirectory(folder);
    return folder;
  }

  it('action.generated.ts shipped as a link is not written through when action.yaml changes on disk', async () => {
    const { services } = await api();
    const folder = await actionFolder('gen-linked');
    const victim = join(outside, 'victim.ts');
    await writeFile(victim, PRECIOUS);
    await symlink(victim, join(folder.fsPath, 'action.generated.ts'));
    const spy = new NotificationSpy();
    try {
      // As a `git pull` would: the file changes on disk, and the watcher regenerates the types.
      const yaml = vscode.Uri.joinPath(folder, 'action.yaml');
      await writeFile(yaml.fsPath, actionYaml('gen-linked'));
      await eventually(() => services.model.localAction(project.appUid, 'gen-linked'), 'the action folder, known to the model');
      // Told by the file watcher, which lags under CI's load (two cores, other stages beside): up to 60 s.
      const warned = await eventually(() => spy.matching(/^The generated types were not updated\./)[0], 'a warning naming the file', 60_000);
      assert.match(warned.message, /gen-linked\/action\.generated\.ts was not written: .*link to a place outside the workspace folder/);
      assert.equal(await readFile(victim, 'utf8'), PRECIOUS, 'the file the link points to is untouched');
    } finally {
      spy.dispose();
    }
  });

  it('generated types in plain folders are still written, in folders made a moment before (as a `git pull` makes them)', async () => {
    const names = Array.from({ length: 12 }, (_, i) => `gen-plain-${i}`);
    // At once, as git does: VS Code's watcher on Linux does not look into folders this new, and told of
    // none of these files before model/actionFiles.ts (0 of 20 in a probe, against 20 of 20 since).
    for (const name of names) {
      mkdirSync(join(project.appFolder.fsPath, name));
      writeFileSync(join(project.appFolder.fsPath, name, 'action.yaml'), actionYaml(name));
    }
    const written = async () => {
      const texts = await Promise.all(names.map((n) => readFile(join(project.appFolder.fsPath, n, 'action.generated.ts'), 'utf8').catch(() => '')));
      return texts.filter((t) => t.includes('who')).length;
    };
    await eventually(
      async () => (await written()) === names.length || undefined,
      'the generated types of every new folder, with the parameter',
      // Told by the file watcher, which lags under CI's load (two cores, other stages beside): up to 60 s.
      60_000,
    ).catch(async (error: unknown) => assert.fail(`${String(error)}: ${await written()} of ${names.length} written`));
  });

  it('Pull writes nothing through an application folder that is a link to another folder', async () => {
    const { services } = await api();
    const elsewhere = join(outside, 'another-repository');
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(elsewhere));
    const appPath = project.appFolder.fsPath;
    await rm(appPath, { recursive: true, force: true });
    await symlink(elsewhere, appPath, 'dir');
    const spy = new NotificationSpy(() => 'Replace');
    try {
      project.server.actions = [
        {
          id: 'h-through',
          key: 'through',
          metadata: {
            key: 'through',
            name: 'through',
            description: 'from the server',
            developerEmail: 'dev@example.com',
            parameters: [],
            result: { type: 'text' },
          },
          code: 'export function main(): string {\n  return "the server\'s code";\n}\n',
        },
      ];
      const node = await eventually(async () => {
        services.model.refresh();
        const roots = await services.tree.getChildren();
        const app = roots.find((n): n is ApplicationNode => n.kind === 'application' && n.app.id === HOSTILE_APP);
        const children = app ? await services.tree.getChildren(app) : [];
        return children.find((n): n is ActionNode => n.kind === 'action' && n.remote?.id === 'h-through');
      }, 'the listed action');
      await vscode.commands.executeCommand('customActions.pullAction', node);
      const refused = await eventually(() => spy.matching(/was not written: .*link to a place outside the workspace folder/)[0], 'the refusal');
      assert.equal(refused.severity, 'error');
      assert.match(refused.message, /hostile\/through\/action\.yaml/, 'names the file');
      assert.deepEqual(await readdir(elsewhere), [], 'nothing written where the application folder points');
    } finally {
      spy.dispose();
      await rm(appPath, { force: true });
      await vscode.workspace.fs.createDirectory(project.appFolder);
    }
  });

  it('an input set is not saved through an inputs folder that is a link out', async () => {
    const folder = await actionFolder('linked-inputs');
    await writeFile(join(folder.fsPath, 'action.yaml'), actionYaml('linked-inputs'));
    const elsewhere = join(outside, 'inputs-elsewhere');
    await vscode.workspace.fs.createDirectory(vscode.Uri.file(elsewhere));
    await symlink(elsewhere, join(folder.fsPath, 'inputs'), 'dir');
    const { services } = await api();
    await eventually(() => services.model.localAction(project.appUid, 'linked-inputs'), 'the action folder, known to the model');
    const spy = new NotificationSpy(() => 'Replace');
    try {
      const raw = { id: 'ev-links', name: 'success', startTime: Date.now(), data: { inputs: { who: 'Ada' }, result: 'hi' } };
      const saved = await vscode.commands.executeCommand(
        'customActions.pinEventAsTest',
        { kind: 'lensEvent', appId: project.appUid, key: 'linked-inputs', actionId: 'h-li', raw },
        'pinned',
      );
      assert.equal(saved, undefined);
      await eventually(() => spy.matching(/linked-inputs\/inputs\/pinned\.json was not written: .*link to a place outside/)[0], 'the refusal, naming the file');
      assert.deepEqual(await readdir(elsewhere), [], 'nothing written where the inputs folder points');
    } finally {
      spy.dispose();
    }
  });
});
