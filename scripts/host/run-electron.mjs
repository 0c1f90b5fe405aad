// The extension-host suites in desktop VS Code, for a machine with a display (or xvfb-run) and internet:
// @vscode/test-electron downloads VS Code into .vscode-test/. Same bundle and suites as `npm run test:host`.
//   node scripts/host/run-electron.mjs              the minimum VS Code of engines.vscode, then stable
//   node scripts/host/run-electron.mjs stable       one version (stable, insiders or e.g. 1.95.0)
// GREP=text filters tests by title, as with test:host.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTests } from '@vscode/test-electron';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');
const manifest = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
// Like rust-analyzer: the oldest VS Code the manifest promises, and the current one.
const minimum = manifest.engines.vscode.replace(/^[\^~>=]+/, '');
const versions = process.argv[2] ? [process.argv[2]] : [minimum, 'stable'];

const build = spawnSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--tests'], { cwd: root, stdio: 'inherit' });
if (build.status !== 0) process.exit(build.status ?? 1);

let failed = false;
for (const version of versions) {
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-electron-'));
  const workspace = path.join(scratch, 'workspace');
  cpSync(path.join(root, 'test', 'host', 'fixtures', 'workspace'), workspace, { recursive: true });
  console.log(`\nVS Code ${version}`);
  try {
    const code = await runTests({
      version,
      extensionDevelopmentPath: root,
      extensionTestsPath: path.join(root, 'out', 'test', 'host', 'index.js'),
      // Output goes to the host's stdout, which VS Code forwards to this terminal.
      extensionTestsEnv: { CUSTOM_ACTIONS_TEST_OUTPUT: undefined, CUSTOM_ACTIONS_TEST_GREP: process.env.GREP },
      launchArgs: [
        workspace,
        '--disable-extensions',
        '--disable-workspace-trust',
        '--skip-welcome',
        '--skip-release-notes',
        '--user-data-dir',
        path.join(scratch, 'user-data'),
      ],
    });
    if (code !== 0) failed = true;
  } catch (error) {
    console.error(`VS Code ${version}: ${error instanceof Error ? error.message : String(error)}`);
    failed = true;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
process.exit(failed ? 1 : 0);
