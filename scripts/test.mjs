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
  // The real VS Code the next stages run in, installed (or found) the way a user's first run installs it.
  ['install', ['run', 'test:install']],
  ['host', ['run', 'test:host']],
  ['ui', ['run', 'test:ui']],
  // Last: greps what the stages above wrote (their captured output included) for API keys.
  ['secrets', ['exec', '--', 'node', 'scripts/check-secrets.mjs']],
];

const only = process.argv.slice(2);
let passed = 0;
const started = Date.now();
for (const [name, args] of stages) {
  if (only.length && !only.includes(name)) continue;
  console.log(`\n━━ ${name} ━━`);
  const t0 = Date.now();
  const status = await runCaptured(args, path.join(root, 'test-results', 'stages', `${name}.log`));
  if (status !== 0) {
    console.error(`\n✗ stage "${name}" failed after ${seconds(t0)}`);
    console.log(`stages: ${passed} passed, 1 failed`);
    process.exit(1);
  }
  console.log(`✓ ${name} (${seconds(t0)})`);
  passed++;
}
console.log(`\nAll stages passed in ${seconds(started)}.`);
console.log(`stages: ${passed} passed, 0 failed`);

function seconds(since) {
  return `${Math.round((Date.now() - since) / 1000)} s`;
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
