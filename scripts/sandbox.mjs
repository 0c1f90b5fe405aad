// `npm run sandbox -- [--port N] [--data DIR] [--demo] [--json] [--ensure-app ID[:NAME]]…`
// Builds dist/sandbox.js when it is missing or older than its sources, then runs it (docs/api.md).
// The build's output goes to stderr, so with --json stdout still carries only the ready line.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const root = path.dirname(path.dirname(new URL(import.meta.url).pathname));
const bundle = path.join(root, 'dist', 'sandbox.js');
const runner = path.join(root, 'dist', 'sandbox-runner.js');
const sources = ['src/sandbox', 'src/core/schema', 'demo', 'esbuild.mjs'].map((p) => path.join(root, p));

function newest(file) {
  if (!existsSync(file)) return 0;
  const stat = statSync(file);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return Math.max(0, ...readdirSync(file).map((name) => newest(path.join(file, name))));
}

const built = Math.min(existsSync(bundle) ? statSync(bundle).mtimeMs : 0, existsSync(runner) ? statSync(runner).mtimeMs : 0);
if (built === 0 || Math.max(...sources.map(newest)) > built) {
  process.stderr.write('sandbox: building dist/sandbox.js\n');
  const result = spawnSync(process.execPath, [path.join(root, 'esbuild.mjs')], { cwd: root, stdio: ['ignore', process.stderr, process.stderr] });
  if (result.status !== 0) {
    process.stderr.write('sandbox: the build failed\n');
    process.exit(result.status ?? 1);
  }
}

// Only what the sandbox needs of this environment, as the extension passes it
// (src/extension/sandboxManager.ts): the temporary folder, and what Windows needs to run a process;
// here also the database server to use (docs/team-sandbox.md) and libpq's PG* variables for it.
const allowed = ['TMPDIR', 'TMP', 'TEMP', 'SystemRoot', 'CUSTOM_ACTIONS_DATABASE_URL'];
const env = Object.fromEntries(
  Object.entries(process.env).filter(([name]) => allowed.some((a) => a.toLowerCase() === name.toLowerCase()) || /^PG[A-Z]+$/.test(name)),
);
const child = spawn(process.execPath, [bundle, ...process.argv.slice(2)], { cwd: process.cwd(), stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => child.kill(signal));
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
