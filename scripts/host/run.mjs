// `npm run test:host`: mocha suites inside the real extension host of code-server.
// `npm run test:ui`: Playwright specs (test/ui) that drive the workbench in Chromium.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clearInterval, setInterval } from 'node:timers';
import { build, ensureHost, launchBrowser, root, startCodeServer } from './codeServer.mjs';

const mode = process.argv[2];
if (mode === 'host') process.exit(await runHostTests());
if (mode === 'ui') process.exit(runUiTests());
console.error('usage: run.mjs host|ui');
process.exit(2);

async function runHostTests() {
  const host = ensureHost();
  build({ tests: true });
  const scratch = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-host-'));
  const workspace = path.join(scratch, 'workspace');
  cpSync(path.join(root, 'test', 'host', 'fixtures', 'workspace'), workspace, { recursive: true });
  const output = path.join(scratch, 'results.log');
  writeFileSync(output, '');
  const debug = process.env.CUSTOM_ACTIONS_TEST_DEBUG === '1';
  const server = await startCodeServer({
    host,
    workspace,
    // Inside the scratch folder, so the profile goes with it.
    userDataDir: path.join(scratch, 'profile'),
    env: { CUSTOM_ACTIONS_TEST_OUTPUT: output, ...(process.env.GREP ? { CUSTOM_ACTIONS_TEST_GREP: process.env.GREP } : {}) },
    log: (text) => debug && process.stderr.write(text),
  });
  const browser = await launchBrowser();
  let printed = 0;
  const flush = () => {
    const text = readFileSync(output, 'utf8');
    if (text.length > printed) process.stdout.write(text.slice(printed));
    printed = text.length;
  };
  const tail = setInterval(flush, 250);
  try {
    const page = await browser.newPage();
    if (debug) page.on('console', (m) => process.stderr.write(`[page] ${m.text()}\n`));
    const exit = new Promise((resolve) => {
      void page.exposeFunction('codeAutomationExit', (code) => resolve(Number(code)));
    });
    await page.exposeFunction('codeAutomationLog', (...args) => debug && process.stderr.write(`[host] ${args.join(' ')}\n`));
    await page.goto(server.url({ testsPath: path.join(root, 'out', 'test', 'host', 'index.js') }));
    const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 10 * 60_000));
    const code = await Promise.race([exit, timeout]);
    flush();
    if (code === 'timeout') {
      console.error('host: the extension-host tests did not finish within 10 minutes');
      return 1;
    }
    if (!readFileSync(output, 'utf8').includes('host: ')) {
      console.error(`host: the extension host exited with ${code} before running the suites (is the extension loaded? run with CUSTOM_ACTIONS_TEST_DEBUG=1)`);
      return code || 1;
    }
    return code;
  } finally {
    clearInterval(tail);
    await browser.close().catch(() => {});
    await server.stop();
    rmSync(scratch, { recursive: true, force: true });
  }
}

function runUiTests() {
  ensureHost();
  build({ tests: true });
  const mocha = path.join(root, 'node_modules', '.bin', 'mocha');
  const result = spawnSync(mocha, ['--config', path.join(root, 'test', 'ui', '.mocharc.json'), ...process.argv.slice(3)], { stdio: 'inherit', cwd: root });
  return result.status ?? 1;
}

