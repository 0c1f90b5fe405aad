// One decision, two faces (issue #37): each row of the table is set up twice on the same server, as two
// actions in the same state, and decided once by the command line's `deploy` (the built command) and
// once by the editor's save (the core functions the extension's Deployer calls, in its order: conflict
// markers, the code's checks, the action's id from the list, then `pushSave` against the lock's base).
// Both must come to the same verdict, but where the two faces differ by a documented rule, named in the row.
import assert from 'node:assert/strict';
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import * as analysis from '../../src/core/analysis';
import { createClient } from '../../src/core/client';
import { codeProblems } from '../../src/core/deploy/checks';
import { DeployLock } from '../../src/core/deploy/lock';
import { conflictMarkerProblems } from '../../src/core/deploy/markers';
import { type Outcome, type Verdict, verdictOf } from '../../src/core/deploy/outcome';
import { pushSave } from '../../src/core/deploy/savePush';
import { parseActionYaml, sharedKeys } from '../../src/core/workspace';
import { type Sandbox } from '../../src/sandbox';
import { type FaultProxy, startFaultProxy } from '../support/faultProxy';
import { actionMetadata } from '../support/metadata';
import { renamedActions } from '../../src/core/deploy/renamed';
import { DEPLOY_SCENARIOS, type ScenarioChange, scenarioTitle } from '../support/deployScenarios';
import { cliSandbox, keyOf, putCode, runCli, Scratch, writeAction, writeProject } from './support';

type Face = 'deploy' | 'save';

describe('one decision, two faces: the scenario table of a save and a deploy', function () {
  const scratch = new Scratch();
  let sandbox: Sandbox;
  let proxy: FaultProxy;
  /** The action ids whose requests lose their connection. */
  const dropping = new Set<string>();
  before(async () => {
    sandbox = await cliSandbox();
    proxy = await startFaultProxy({
      target: sandbox.url,
      rate: 1,
      seed: 37,
      kinds: ['reset-before'],
      spare: (_method, p) => ![...dropping].some((id) => p.startsWith(`/api/actions/${id}`)),
    });
  });
  after(async () => {
    await proxy.close();
    await sandbox.close();
    scratch.cleanup();
  });

  const env = () => ({ CUSTOM_ACTIONS_KEY: keyOf(sandbox, 'app-a') });
  const client = () => createClient({ baseUrl: proxy.url, getKey: () => Promise.resolve(keyOf(sandbox, 'app-a')), retries: 0, timeoutMs: 5_000 });
  const lockOf = (dir: string) => {
    const parsed = DeployLock.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8'));
    assert.ok('lock' in parsed);
    return parsed.lock;
  };

  /** The key the folder declares now (a row may change it), else the folder's name. */
  const keyIn = (dir: string, folder: string) => {
    const file = path.join(dir, 'app-a', folder, 'action.yaml');
    return (existsSync(file) && parseActionYaml(readFileSync(file, 'utf8')).metadata?.key) || folder;
  };

  /** The command line's face: `deploy` of the one action, its verdict from --json. */
  async function deployFace(dir: string, folder: string): Promise<Verdict> {
    const key = keyIn(dir, folder);
    const run = await runCli(['deploy', `app-a/${key}`, '--json'], { cwd: dir, env: env() });
    const json = JSON.parse(run.stdout) as { actions?: { key: string; result: Verdict }[] };
    const found = json.actions?.find((a) => a.key === key);
    assert.ok(found, `deploy said nothing of ${key}: ${run.output}`);
    return found.result;
  }

  /** The editor's face: a save of `file`, decided by the core functions the Deployer calls, in its order. */
  async function saveFace(dir: string, folderName: string, file: 'main.ts' | 'action.yaml'): Promise<Verdict | 'no save'> {
    const folder = path.join(dir, 'app-a', folderName);
    const key = keyIn(dir, folderName);
    let yaml: string;
    try {
      yaml = readFileSync(path.join(folder, 'action.yaml'), 'utf8');
    } catch {
      return 'no save';
    }
    const parsed = parseActionYaml(yaml);
    const text = file === 'main.ts' ? readFileSync(path.join(folder, 'main.ts'), 'utf8') : yaml;
    const refused = (why: 'conflict-markers' | 'problems' | 'invalid-metadata' | 'shared-key'): Verdict =>
      verdictOf([{ kind: 'refused', step: 'implementation', why, problems: [] }]);
    if (conflictMarkerProblems(text, file).length > 0) return refused('conflict-markers');
    // The application's folders, as the model scans them: a key another folder declares too is refused.
    const keys = readdirSync(path.join(dir, 'app-a')).flatMap((name) => {
      const other = parseActionYaml(readFileSync(path.join(dir, 'app-a', name, 'action.yaml'), 'utf8')).metadata;
      return name !== folderName && other ? [{ key: other.key, folderName: name }] : [];
    });
    const here = { key, folderName };
    if (sharedKeys([here, ...keys]).has(here)) return refused('shared-key');
    if (!parsed.metadata) return refused('invalid-metadata');
    if (file === 'main.ts' && codeProblems(analysis, text, parsed.metadata).length > 0) return refused('problems');
    const c = client();
    let id: string | undefined;
    const locked = lockOf(dir).entries(proxy.url, 'app-a');
    try {
      // By key, else the lock's action of the folder when its key was changed in it (the model's idFor).
      const listed = await c.listActions('app-a');
      id = listed.find((a) => a.key === key)?.id ?? renamedActions([here, ...keys], listed, locked).get(here)?.id;
    } catch (error) {
      return verdictOf([{ kind: 'failed', step: 'action', error, message: String(error) }]);
    }
    if (id === undefined) return 'not-on-server';
    const part = file === 'main.ts' ? 'implementation' : 'metadata';
    const { outcome } = await pushSave(c, {
      id,
      part,
      content: file === 'main.ts' ? text : JSON.stringify(parsed.metadata),
      locked: locked.find((e) => e.id === id)?.[part],
      replaced: undefined,
      resend: false,
      caps: await c.capabilities(),
    });
    return verdictOf([outcome as Outcome]);
  }

  /** A change of the row, made as the command line's user meets it: files on disk, a colleague through the client. */
  async function perform(change: ScenarioChange, dir: string, key: string): Promise<void> {
    const folder = path.join(dir, 'app-a', key);
    const id = () => lockOf(dir).get(proxy.url, 'app-a', key)!.id;
    switch (change.kind) {
      case 'edit': {
        const file = path.join(folder, change.file);
        writeFileSync(file, change.edit(existsSync(file) ? readFileSync(file, 'utf8') : ''));
        return;
      }
      case 'colleague-pushes':
        await putCode(sandbox, keyOf(sandbox, 'app-a'), id(), change.code, 'a-colleague/1.0');
        return;
      case 'delete-folder':
        rmSync(folder, { recursive: true });
        return;
      case 'copy-folder':
        cpSync(folder, `${folder}-copy`, { recursive: true });
        return;
      case 'delete-on-server':
        await createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(keyOf(sandbox, 'app-a')) }).deleteAction(id());
        return;
    }
  }

  for (const [i, row] of DEPLOY_SCENARIOS.entries()) {
    it(scenarioTitle(row), async () => {
      const dir = scratch.dir();
      writeProject(dir, proxy.url);
      const keys: Record<Face, string> = { deploy: `row${i}d`, save: `row${i}s` };
      for (const key of Object.values(keys)) writeAction(dir, 'app-a', actionMetadata({ key }), row.firstCode);
      if (row.deployed) {
        const done = await runCli(['deploy'], { cwd: dir, env: env() });
        assert.equal(done.code, 0, done.output);
      }
      for (const key of Object.values(keys)) for (const change of row.changes) await perform(change, dir, key);
      if (row.dropped) for (const key of Object.values(keys)) dropping.add(lockOf(dir).get(proxy.url, 'app-a', key)!.id);
      try {
        const deployed = await deployFace(dir, keys.deploy);
        const saved = await saveFace(dir, keys.save, row.saves);
        assert.equal(deployed, row.verdict, 'the command line');
        assert.equal(saved, row.save?.verdict ?? row.verdict, 'the save');
      } finally {
        dropping.clear();
      }
    });
  }
});
