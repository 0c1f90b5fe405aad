// The command line's package as a team gets it: @custom-actions/cli packed from the built bundles
// (scripts/build/cliPackage.mjs), installed from its tarball alone into an empty folder, offline and
// with an empty npm cache (so it cannot lean on any dependency), and run from there: --help, the
// sandbox it carries, and a deploy against that sandbox.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { actionMetadata } from '../support/metadata';
import { RunningCli } from './server';
import { ROOT, runCli, Scratch, textMain, writeAction, writeProject } from './support';

const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

interface Manifest {
  name: string;
  private?: boolean;
  bin: Record<string, string>;
  dependencies?: object;
  optionalDependencies?: object;
  peerDependencies?: object;
  bundleDependencies?: object;
}

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): string {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false', ...env } });
  assert.equal(result.status, 0, `${command} ${args.join(' ')}: ${result.stdout}${result.stderr}`);
  return result.stdout;
}

describe('custom-actions from its packed package, @custom-actions/cli', function () {
  this.timeout(300_000);
  const scratch = new Scratch();
  let tarball: string;
  let entries: string[];
  let installed: string;
  let bin: string;
  before(async () => {
    const builder = await import('../../scripts/build/cliPackage.mjs');
    const folder = builder.makeCliPackage(path.join(ROOT, 'dist'), path.join(scratch.dir(), 'cli-package'));
    tarball = builder.packCliPackage(folder, scratch.dir());
    entries = run('tar', ['-tzf', tarball], ROOT).trim().split('\n').sort();
    installed = scratch.dir();
    writeFileSync(path.join(installed, 'package.json'), JSON.stringify({ name: 'actions-repository', version: '1.0.0', private: true }));
    run(npm, ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', tarball], installed, { npm_config_cache: scratch.dir() });
    bin = path.join(installed, 'node_modules', '@custom-actions', 'cli', 'dist', 'cli.js');
  });
  after(() => scratch.cleanup());

  it('holds the command line and what it loads, and no bundle of the extension', () => {
    const files = entries.map((e) => e.replace(/^package\//, ''));
    for (const extensionOnly of ['dist/extension.js', 'dist/on-demand.js', 'dist/undici.js']) assert.ok(!files.includes(extensionOnly), extensionOnly);
    assert.deepEqual(
      files.filter((f) => /^(src|test|media|dist\/webview)\/|\.map$|\.vsix$|\.ts$/.test(f)),
      [],
      'sources, tests, maps or the webviews were packed',
    );
    const bundles = ['analysis.js', 'cli-program.js', 'cli.js', 're2js.js', 'sandbox-runner.js', 'sandbox.js', 'sucrase.js'];
    assert.deepEqual(
      files.filter((f) => /^dist\/[^/]+$/.test(f)).sort(),
      bundles.map((b) => `dist/${b}`),
    );
    for (const f of ['package.json', 'README.md', 'LICENSE', 'dist/pglite/pglite.wasm', 'dist/pglite/pglite.data', 'dist/pglite/index.cjs'])
      assert.ok(files.includes(f), f);
  });

  it('is scoped, publishable and declares no dependency', () => {
    const manifest = JSON.parse(run('tar', ['-xzOf', tarball, 'package/package.json'], ROOT)) as Manifest;
    assert.equal(manifest.name, '@custom-actions/cli');
    assert.notEqual(manifest.private, true);
    assert.deepEqual(manifest.bin, { 'custom-actions': 'dist/cli.js' });
    for (const field of ['dependencies', 'optionalDependencies', 'peerDependencies', 'bundleDependencies'] as const)
      assert.equal(manifest[field], undefined, field);
    // What was installed beside it: nothing.
    assert.deepEqual(
      readdirSync(path.join(installed, 'node_modules')).filter((d) => !d.startsWith('.')),
      ['@custom-actions'],
    );
  });

  it('runs --help through the linked bin', () => {
    assert.ok(existsSync(path.join(installed, 'node_modules', '.bin', 'custom-actions')), 'the bin is linked');
    const result = spawnSync(path.join(installed, 'node_modules', '.bin', 'custom-actions'), ['--help'], { encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    assert.match(result.stdout, /Usage: custom-actions/);
  });

  it('starts the sandbox it carries and deploys to it, its code checked by the analysis bundle beside it', async () => {
    const dir = scratch.dir();
    const sandbox = new RunningCli(['sandbox', 'start', '--json', '--ensure-app', 'app-a:App A'], { cwd: dir, cli: bin });
    try {
      const ready = await new Promise<{ url: string; applications: { id: string; key: string }[] }>((resolve, reject) => {
        sandbox.child.stdout.on('data', () => {
          const line = sandbox.stdout.split('\n')[0]!;
          if (sandbox.stdout.includes('\n')) resolve(JSON.parse(line) as { url: string; applications: { id: string; key: string }[] });
        });
        void sandbox.exited.then((exit) => reject(new Error(`the sandbox ended (${JSON.stringify(exit)}): ${sandbox.stderr}`)));
      });
      writeProject(dir, ready.url);
      writeAction(dir, 'app-a', actionMetadata({ key: 'packed' }), textMain('from the tarball'));
      writeAction(dir, 'app-a', actionMetadata({ key: 'packedbad' }), 'export function main(x: number) { return x; }\n');
      const env = { CUSTOM_ACTIONS_KEY: ready.applications[0]!.key };
      const deploy = await runCli(['deploy'], { cwd: dir, env, cli: bin });
      assert.equal(deploy.code, 6, deploy.output);
      assert.match(deploy.stdout, /^created\s+app-a\/packed/m);
      assert.match(deploy.stdout, /app-a\/packedbad\/main\.ts:1:\d+: /);
      const status = await runCli(['status', 'packed'], { cwd: dir, env, cli: bin });
      assert.equal(status.code, 0, status.output);
      assert.match(status.stdout, /^in-step\s+app-a\/packed/m);
    } finally {
      sandbox.child.kill('SIGTERM');
      await sandbox.exited;
    }
  });
});
