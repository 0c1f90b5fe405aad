// `custom-actions init`: a new project's customactions.yaml, as the editor would write it.
import assert from 'node:assert/strict';
import { existsSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseProjectFile } from '../../src/core/workspace';
import { actionMetadata } from '../support/metadata';
import { runCli, suiteSandbox, textMain, writeAction } from './support';

describe('custom-actions init', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  it('writes a customactions.yaml that the core reads and every command uses, then pull and deploy work in it', async () => {
    const dir = scratch.dir();
    const made = await runCli(['init', '--base-url', fixture.sandbox.url, '-a', 'app-a:App A', '--json'], { cwd: dir });
    assert.equal(made.code, 0, made.output);
    const text = readFileSync(path.join(dir, 'customactions.yaml'), 'utf8');
    assert.deepEqual(parseProjectFile(text).project, { baseUrl: fixture.sandbox.url, applications: [{ id: 'app-a', name: 'App A', folder: 'app-a' }] });
    assert.deepEqual(JSON.parse(made.stdout), { ok: true, file: path.join(dir, 'customactions.yaml'), project: parseProjectFile(text).project });
    assert.match(made.stderr, /CUSTOM_ACTIONS_KEY_APP_A/);
    assert.doesNotMatch(text, /key|ca_sk_/i, 'no key in the file');
    writeAction(dir, 'app-a', actionMetadata({ key: 'init-made' }), textMain('made'));
    const deployed = await runCli(['deploy'], { cwd: dir, env: fixture.env });
    assert.equal(deployed.code, 0, deployed.output);
    const status = await runCli(['status', 'init-made'], { cwd: dir, env: fixture.env });
    assert.equal(status.code, 0, status.output);
  });

  it('never writes over a customactions.yaml already there, nor through a name taken by a link', async () => {
    const dir = scratch.dir();
    writeFileSync(path.join(dir, 'customactions.yaml'), '# ours\nbaseUrl: local-sandbox\napplications: []\n');
    const again = await runCli(['init', '--base-url', fixture.sandbox.url, '-a', 'app-a'], { cwd: dir });
    assert.equal(again.code, 2, again.output);
    assert.match(again.stderr, /exists already; init never writes over it/);
    assert.equal(readFileSync(path.join(dir, 'customactions.yaml'), 'utf8'), '# ours\nbaseUrl: local-sandbox\napplications: []\n');

    // A clone can ship the name as a link to a file elsewhere that does not exist yet.
    const linked = scratch.dir();
    const target = path.join(scratch.dir(), 'planted.yaml');
    symlinkSync(target, path.join(linked, 'customactions.yaml'));
    const through = await runCli(['init', '--base-url', fixture.sandbox.url, '-a', 'app-a'], { cwd: linked });
    assert.equal(through.code, 2, through.output);
    assert.equal(existsSync(target), false, 'nothing written where the link points');
  });

  it('refuses what would not be a valid project, naming each problem, and asks for the server when none is given', async () => {
    const dir = scratch.dir();
    const bad = await runCli(['init', '--base-url', 'ftp://example.com', '-a', '../out', '-a', 'same', '-a', 'same'], { cwd: dir });
    assert.equal(bad.code, 2, bad.output);
    assert.match(bad.stderr, /baseUrl: must be an http\(s\) URL/);
    assert.match(bad.stderr, /applications\[0\]\.folder: must be a relative path inside the workspace/);
    assert.match(bad.stderr, /duplicate application id "same"/);
    const noServer = await runCli(['init', '-a', 'app-a'], { cwd: dir });
    assert.equal(noServer.code, 2, noServer.output);
    assert.match(noServer.stderr, /--base-url/);
    const noApp = await runCli(['init', '--base-url', fixture.sandbox.url], { cwd: dir });
    assert.equal(noApp.code, 2, noApp.output);
    assert.match(noApp.stderr, /--application/);
    assert.throws(() => readFileSync(path.join(dir, 'customactions.yaml')), /ENOENT/, 'nothing written');
  });
});
