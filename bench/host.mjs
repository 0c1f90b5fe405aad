// The figures that need the real VS Code: the production build, then code-server with the bench payload
// (out/bench/host/index.js) as extensionTestsPath, its JSON lines tailed from a file to stdout.
import { statSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { root, runInExtensionHost } from '../scripts/host/codeServer.mjs';

const only = process.argv.slice(2).join(',');
const emit = (figure) => {
  const ok = figure.target === undefined ? {} : { ok: figure.value <= figure.target };
  process.stdout.write(JSON.stringify({ ...figure, ...ok }) + '\n');
};

// Minified as shipped, with the test and bench payloads beside it.
const built = spawnSync(process.execPath, [path.join(root, 'esbuild.mjs'), '--production', '--tests'], { stdio: 'inherit', cwd: root });
if (built.status !== 0) {
  console.error('bench: the build failed');
  process.exit(1);
}
if (!only || only.split(',').includes('activation')) {
  const kb = (file) => Math.round(statSync(path.join(root, 'dist', file)).size / 102.4) / 10;
  emit({
    bench: 'activation',
    metric: 'bundle_kb',
    value: kb('extension.js'),
    target: 300,
    unit: 'KB',
    note: 'dist/extension.js, minified; undici, the compiler and the sandbox are separate files',
  });
  emit({
    bench: 'activation',
    metric: 'on_demand_bundle_kb',
    value: kb('on-demand.js'),
    unit: 'KB',
    note: 'dist/on-demand.js: commands, the form, debugging, test runs; loaded on first use',
  });
  emit({ bench: 'activation', metric: 'analysis_bundle_kb', value: kb('analysis.js'), unit: 'KB', note: 'loaded on the first analysis of a main.ts' });
  emit({
    bench: 'activation',
    metric: 'browser_bundle_kb',
    value: kb('browser.js'),
    unit: 'KB',
    note: 'dist/browser.js, minified: the extension in VS Code for the Web, one bundle with the on-demand part and the compiler (evaluated on first use)',
  });
}

const { result, output } = await runInExtensionHost({
  label: 'bench',
  testsPath: path.join(root, 'out', 'bench', 'host', 'index.js'),
  outputVariable: 'CUSTOM_ACTIONS_BENCH_OUTPUT',
  env: only ? { CUSTOM_ACTIONS_BENCH_ONLY: only } : {},
  timeoutMs: 6 * 60_000,
  // JSON lines to stdout, notes (`# …`) to stderr.
  onOutput: (text) => {
    for (const line of text.split('\n').filter(Boolean)) (line.startsWith('#') ? process.stderr : process.stdout).write(line + '\n');
  },
});
let code = 1;
if (result === 'timeout') console.error('bench: the host benches did not finish within 6 minutes');
else if (!output.includes('host: done'))
  console.error(`bench: the extension host exited with ${result} before the benches ran (CUSTOM_ACTIONS_TEST_DEBUG=1 shows why)`);
else code = result;
process.exit(code);
