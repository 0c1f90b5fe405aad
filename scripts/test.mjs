// `npm test`: every check CI runs, in order, stopping at the first failure. Assumes installed
// dependencies (CI runs `npm ci` first). `npm test -- host ui` runs only the stages named.
// The last line counts the stages.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const stages = [
  ...(existsSync(path.join(root, 'scripts', 'check-commands.mjs')) ? [['commands', ['run', 'check:commands']]] : []),
  ['lint', ['run', 'lint']],
  ['typecheck', ['run', 'typecheck']],
  ['unit', ['run', 'test:unit']],
  ...(existsSync(path.join(root, 'test', 'sandbox', '.mocharc.json')) ? [['sandbox', ['run', 'test:sandbox']]] : []),
  // The same suites on a PostgreSQL server (installed with apt-get when missing, a temporary cluster
  // of its own), and several sandbox processes sharing it. Never skipped: no server fails the stage.
  ...(existsSync(path.join(root, 'test', 'sandbox', '.mocharc.pg.json')) ? [['sandbox-pg', ['run', 'test:sandbox-pg']]] : []),
  // The production build, packed as the .vsix: it also proves the .vscodeignore allowlist packs.
  ['build', ['run', 'package']],
  // The command line, run as the built process (dist/cli.js of the build above) against the sandbox.
  ['cli', ['exec', '--', 'mocha', '--config', 'test/cli/.mocharc.json']],
  // The packed sandbox's first start on a new machine (the other half of `npm run test:install`), from the build above.
  ['first-start', ['exec', '--', 'mocha', '--config', 'test/install/.mocharc.first-start.json']],
  // The real VS Code the next stages run in, installed (or found) the way a user's first run installs it.
  // Started with the first stage: it mostly waits on the network and npm, so it overlaps the stages
  // before it; its output is shown when its turn comes, and a failure fails it there.
  ['install', ['exec', '--', 'mocha', '--config', 'test/install/.mocharc.host.json'], { early: true }],
  ['host', ['run', 'test:host']],
  ['ui', ['run', 'test:ui']],
  // Last: greps what the stages above wrote (their captured output included) for API keys.
  ['secrets', ['exec', '--', 'node', 'scripts/check-secrets.mjs']],
];

const only = process.argv.slice(2);
const chosen = stages.filter(([name]) => !only.length || only.includes(name));
let passed = 0;
const started = Date.now();
const early = new Map(chosen.filter(([, , o]) => o?.early).map(([name, args]) => [name, runQuietly(args, logOf(name))]));
for (const [name, args] of chosen) {
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  const status = early.has(name) ? await shown(early.get(name)) : await runCaptured(args, logOf(name));
  if (status !== 0) {
    console.error(`\n✗ stage "${name}" failed after ${early.has(name) ? early.get(name).took : seconds(t0)}`);
    console.log(`stages: ${passed} passed, 1 failed`);
    // A stage started early and still running would outlive this run.
    for (const stage of early.values()) if (stage.child.exitCode === null) process.kill(-stage.child.pid, 'SIGTERM');
    process.exit(1);
  }
  console.log(`✓ ${name} (${early.has(name) ? `${early.get(name).took}, started with the first stage` : seconds(t0)})`);
  passed++;
}
console.log(`\nAll stages passed in ${seconds(started)}.`);
console.log(`stages: ${passed} passed, 0 failed`);

function seconds(since) {
  return `${Math.round((Date.now() - since) / 1000)} s`;
}

function logOf(name) {
  return path.join(root, 'test-results', 'stages', `${name}.log`);
}

/** Runs a stage in the background with its output kept in `log` and in memory, to be shown when its turn comes. */
function runQuietly(args, log) {
  mkdirSync(path.dirname(log), { recursive: true });
  const file = createWriteStream(log);
  const chunks = [];
  // In a process group of its own, so a failed run can stop it with everything it started.
  const child = spawn(npm, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { FORCE_COLOR: '1', ...process.env }, detached: true });
  child.stdout.on('data', (chunk) => (chunks.push(chunk), file.write(chunk)));
  child.stderr.on('data', (chunk) => (chunks.push(chunk), file.write(chunk)));
  const t0 = Date.now();
  const done = new Promise((resolve) => child.on('close', (code) => file.end(() => resolve(code ?? 1))));
  void done.then(() => (stage.took = seconds(t0)));
  const stage = { chunks, done, child, took: '' };
  return stage;
}

/** Waits for a stage started early, then shows what it printed. */
async function shown(stage) {
  const status = await stage.done;
  process.stdout.write(Buffer.concat(stage.chunks));
  return status;
}

/** Runs a stage with its output shown and also kept in `log`, so the secrets stage can read what every stage printed. */
function runCaptured(args, log) {
  mkdirSync(path.dirname(log), { recursive: true });
  const file = createWriteStream(log);
  const child = spawn(npm, args, { cwd: root, stdio: ['inherit', 'pipe', 'pipe'], env: { FORCE_COLOR: '1', ...process.env } });
  child.stdout.on('data', (chunk) => (process.stdout.write(chunk), file.write(chunk)));
  child.stderr.on('data', (chunk) => (process.stderr.write(chunk), file.write(chunk)));
  return new Promise((resolve) => child.on('close', (code) => file.end(() => resolve(code ?? 1))));
}
