// The figures that need the real VS Code: the production build, then code-server with the bench payload
// (out/bench/host/index.js) as extensionTestsPath, its JSON lines tailed from a file to stdout.
import { cpSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { clearInterval, setInterval } from 'node:timers';
import { ensureHost, launchBrowser, root, startCodeServer } from '../scripts/host/codeServer.mjs';

const only = process.argv.slice(2).join(',');
const emit = (figure) => {
  const ok = figure.target === undefined ? {} : { ok: figure.value <= figure.target };
  process.stdout.write(JSON.stringify({ ...figure, ...ok }) + '\n');
};

const host = ensureHost();
// Minified as shipped, with the test and bench payloads beside it.
const built = spawnSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production', '--tests'], { stdio: 'inherit', cwd: root });
if (built.status !== 0) {
  console.error('bench: the build failed');
  process.exit(1);
}
if (!only || only.split(',').includes('activation')) {
  const kb = (file) => Math.round(statSync(path.join(root, 'dist', file)).size / 102.4) / 10;
  emit({ bench: 'activation', metric: 'bundle_kb', value: kb('extension.js'), target: 300, unit: 'KB', note: 'dist/extension.js, minified; undici, the compiler and the sandbox are separate files' });
  emit({ bench: 'activation', metric: 'analysis_bundle_kb', value: kb('analysis.js'), unit: 'KB', note: 'loaded on the first analysis of a main.ts' });
}

const scratch = mkdtempSync(path.join(os.tmpdir(), 'custom-actions-bench-'));
const workspace = path.join(scratch, 'workspace');
cpSync(path.join(root, 'test', 'host', 'fixtures', 'workspace'), workspace, { recursive: true });
const output = path.join(scratch, 'bench.log');
writeFileSync(output, '');
const debug = process.env.CUSTOM_ACTIONS_TEST_DEBUG === '1';
const server = await startCodeServer({
  host,
  workspace,
  userDataDir: path.join(scratch, 'profile'),
  env: { CUSTOM_ACTIONS_BENCH_OUTPUT: output, ...(only ? { CUSTOM_ACTIONS_BENCH_ONLY: only } : {}) },
  log: (text) => debug && process.stderr.write(text),
});
const browser = await launchBrowser();
let printed = 0;
const flush = () => {
  const text = readFileSync(output, 'utf8');
  if (text.length > printed) {
    // JSON lines to stdout, notes (`# …`) to stderr.
    for (const line of text.slice(printed).split('\n').filter(Boolean)) (line.startsWith('#') ? process.stderr : process.stdout).write(line + '\n');
  }
  printed = text.lastIndexOf('\n') + 1;
};
const tail = setInterval(flush, 250);
let code = 1;
try {
  const page = await browser.newPage();
  const exit = new Promise((resolve) => void page.exposeFunction('codeAutomationExit', (c) => resolve(Number(c))));
  await page.exposeFunction('codeAutomationLog', (...args) => debug && process.stderr.write(`[host] ${args.join(' ')}\n`));
  await page.goto(server.url({ testsPath: path.join(root, 'out', 'bench', 'host', 'index.js') }));
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 6 * 60_000));
  const result = await Promise.race([exit, timeout]);
  flush();
  if (result === 'timeout') console.error('bench: the host benches did not finish within 6 minutes');
  else if (!readFileSync(output, 'utf8').includes('host: done')) console.error(`bench: the extension host exited with ${result} before the benches ran (CUSTOM_ACTIONS_TEST_DEBUG=1 shows why)`);
  else code = result;
} finally {
  clearInterval(tail);
  await browser.close().catch(() => {});
  await server.stop();
  rmSync(scratch, { recursive: true, force: true });
}
process.exit(code);
