// The package as users get it: `npm pack`, installed into an empty folder without dev dependencies,
// and its `custom-actions` run from there, --help and a deploy against the sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type Sandbox } from '../../src/sandbox';
import { actionMetadata } from '../support/metadata';
import { cliSandbox, keyOf, ROOT, runCli, Scratch, serverCode, textMain, writeAction, writeProject } from './support';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function run(command: string, args: string[], cwd: string): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_fund: 'false', npm_config_audit: 'false' } });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

describe('custom-actions from the packed package', function () {
  this.timeout(300_000);
  const scratch = new Scratch();
  let sandbox: Sandbox;
  let bin: string;
  before(async () => {
    sandbox = await cliSandbox();
    const packs = scratch.dir();
    const name = run(npm, ['pack', '--silent', '--pack-destination', packs], ROOT).trim().split('\n').pop()!;
    const tarball = path.join(packs, name);
    const installed = scratch.dir();
    writeFileSync(path.join(installed, 'package.json'), JSON.stringify({ name: 'empty', version: '1.0.0', private: true }));
    run(npm, ['install', '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], installed);
    bin = path.join(installed, 'node_modules', 'custom-actions-vscode', 'dist', 'cli.js');
    assert.ok(existsSync(path.join(installed, 'node_modules', '.bin', 'custom-actions')), 'the bin is linked');
    assert.ok(!existsSync(path.join(installed, 'node_modules', 'commander')), 'a dev dependency was installed');
    assert.ok(!existsSync(path.join(installed, 'node_modules', 'custom-actions-vscode', 'src')), 'sources were packed');
  });
  after(async () => {
    await sandbox.close();
    scratch.cleanup();
  });

  it('runs --help through the linked bin', () => {
    const installed = path.dirname(path.dirname(path.dirname(path.dirname(bin))));
    const result = spawnSync(path.join(installed, 'node_modules', '.bin', 'custom-actions'), ['--help'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /Usage: custom-actions/);
  });

  it('deploys a project against the sandbox, its code checked by the analysis bundle beside it', async () => {
    const dir = scratch.dir();
    writeProject(dir, sandbox.url);
    writeAction(dir, 'app-a', actionMetadata({ key: 'packed' }), textMain('from the tarball'));
    writeAction(dir, 'app-a', actionMetadata({ key: 'packedbad' }), 'export function main(x: number) { return x; }\n');
    const result = await runCli(['deploy'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: keyOf(sandbox, 'app-a') }, cli: bin });
    assert.equal(result.code, 6, result.output);
    assert.match(result.stdout, /^created\s+app-a\/packed/m);
    assert.match(result.stdout, /app-a\/packedbad\/main\.ts:1:\d+: /);
    const lock = JSON.parse((await import('node:fs')).readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as {
      servers: Record<string, Record<string, Record<string, { id: string }>>>;
    };
    assert.equal(await serverCode(sandbox, 'app-a', Object.values(lock.servers)[0]!['app-a']!.packed!.id), textMain('from the tarball'));
  });
});
