// `npm run test:host`: mocha suites inside the real extension host of code-server.
// `npm run test:ui`: Playwright specs (test/ui) that drive the workbench in Chromium.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { build, ensureHost, root, runInExtensionHost } from './codeServer.mjs';

// npm test's ui stage comes right after its host stage, whose build it uses (CUSTOM_ACTIONS_BUILT).
const built = process.env.CUSTOM_ACTIONS_BUILT === '1';
const mode = process.argv[2];
if (mode === 'host') process.exit(await runHostTests());
if (mode === 'ui') process.exit(runUiTests());
console.error('usage: run.mjs host|ui');
process.exit(2);

async function runHostTests() {
  if (!built) build({ tests: true });
  const { result, output } = await runInExtensionHost({
    label: 'host',
    testsPath: path.join(root, 'out', 'test', 'host', 'index.js'),
    outputVariable: 'CUSTOM_ACTIONS_TEST_OUTPUT',
    env: process.env.GREP ? { CUSTOM_ACTIONS_TEST_GREP: process.env.GREP } : {},
    timeoutMs: 10 * 60_000,
    onOutput: (text) => process.stdout.write(text),
  });
  if (result === 'timeout') {
    console.error('host: the extension-host tests did not finish within 10 minutes');
    return 1;
  }
  if (!output.includes('host: ')) {
    console.error(`host: the extension host exited with ${result} before running the suites (is the extension loaded? run with CUSTOM_ACTIONS_TEST_DEBUG=1)`);
    return result || 1;
  }
  return result;
}

function runUiTests() {
  ensureHost();
  if (!built) build({ tests: true });
  // Each workbench adds its leftovers (test/ui/support/workbench.ts); only this run's are checked.
  // Two halves run side by side under npm test, which clears them once before both.
  if (process.env.CUSTOM_ACTIONS_UI_HALF !== '1') rmSync(path.join(root, 'test-results', 'leftovers', 'ui'), { recursive: true, force: true });
  const mocha = path.join(root, 'node_modules', '.bin', 'mocha');
  const result = spawnSync(mocha, ['--config', path.join(root, 'test', 'ui', '.mocharc.json'), ...process.argv.slice(3)], { stdio: 'inherit', cwd: root });
  return result.status ?? 1;
}
