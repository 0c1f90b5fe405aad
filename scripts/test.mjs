// `npm test`: every check CI runs, stopping at the first failure. Assumes installed dependencies (CI
// runs `npm ci` first). `npm test -- host ui` runs only the stages named.
//
// Stages run two at a time where nothing ties them together, since the machine has two cores and a
// stage alone seldom keeps both busy: each starts once the stages it names in `after` have passed.
// Their output is still shown one stage at a time, whole, in the order below: the stage whose turn it
// is prints as it goes; one that runs ahead keeps its output until its turn. The last line counts the
// stages.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const has = (...parts) => existsSync(path.join(root, ...parts));

// The browser suites of the first half, by title: about half of the ui stage's time (docs/testing.md).
const UI_FIRST_HALF = 'Conflicts, merges|The first hour|Save to deploy in the workbench|Event logs in the workbench|Several projects|Webview content security';

// Two lanes, plus the install. The checks of the source and the sandbox suites need nothing built;
// the build and what runs the built code form the other lane. Only that lane writes dist/ (the
// production build, then the host stage's test build over it), so the stages that read dist/ run in
// it, in order.
const stages = [
  ...(has('scripts', 'check-commands.mjs') ? [['commands', ['run', 'check:commands']]] : []),
  ['lint', ['run', 'lint'], { after: ['commands'] }],
  ['typecheck', ['run', 'typecheck'], { after: ['lint'] }],
  ['unit', ['run', 'test:unit'], { after: ['typecheck'] }],
  ...(has('test', 'sandbox', '.mocharc.json') ? [['sandbox', ['run', 'test:sandbox'], { after: ['unit'] }]] : []),
  // The same suites on a PostgreSQL server (installed with apt-get when missing, a temporary cluster
  // of its own), and several sandbox processes sharing it. Never skipped: no server fails the stage.
  ...(has('test', 'sandbox', '.mocharc.pg.json') ? [['sandbox-pg', ['run', 'test:sandbox-pg'], { after: ['sandbox'] }]] : []),
  // The production build, packed as the .vsix: it also proves the .vscodeignore allowlist packs.
  ['build', ['run', 'package'], { after: ['commands'] }],
  // The command line, run as the built process (dist/cli.js of the build above) against the sandbox.
  ['cli', ['exec', '--', 'mocha', '--config', 'test/cli/.mocharc.json'], { after: ['build'] }],
  // The packed sandbox's first start on a new machine (the other half of `npm run test:install`), from the build above.
  ['first-start', ['exec', '--', 'mocha', '--config', 'test/install/.mocharc.first-start.json'], { after: ['build'] }],
  // The real VS Code the next stages run in, installed (or found) the way a user's first run installs it.
  // Started with the first stage: it mostly waits on the network and npm.
  ['install', ['exec', '--', 'mocha', '--config', 'test/install/.mocharc.host.json']],
  // Its test build replaces the production bundles in dist/: after the stages that run those.
  ['host', ['run', 'test:host'], { after: ['cli', 'first-start', 'install'] }],
  // The same test build as the host stage's, not made again (CUSTOM_ACTIONS_BUILT), in two halves side
  // by side: once the source lane ends, the ui stage alone would leave a core idle, and most of a
  // browser spec's time is a workbench starting or waiting. The halves are one --grep and its
  // --invert, so every spec runs in exactly one of them.
  ['ui-1', ['run', 'test:ui', '--', '--grep', UI_FIRST_HALF], { after: ['host'], env: { CUSTOM_ACTIONS_BUILT: '1', CUSTOM_ACTIONS_UI_HALF: '1' } }],
  ['ui-2', ['run', 'test:ui', '--', '--grep', UI_FIRST_HALF, '--invert'], { after: ['host'], env: { CUSTOM_ACTIONS_BUILT: '1', CUSTOM_ACTIONS_UI_HALF: '1' } }],
  // Last: greps what the stages above wrote (their captured output included) for API keys.
  ['secrets', ['exec', '--', 'node', 'scripts/check-secrets.mjs'], { after: ['*'] }],
];

// `npm test -- ui` names both halves of the ui stage.
const only = process.argv.slice(2).flatMap((name) => (name === 'ui' ? ['ui-1', 'ui-2'] : [name]));
const chosen = stages
  .filter(([name]) => !only.length || only.includes(name))
  .map(([name, args, options = {}]) => ({ name, args, env: options.env ?? {}, after: options.after ?? [], run: undefined }));
const names = new Set(chosen.map((s) => s.name));
// A stage not chosen is not waited for; `*` is every other stage.
for (const stage of chosen) stage.after = stage.after.includes('*') ? [...names].filter((n) => n !== stage.name) : stage.after.filter((n) => names.has(n));
// A stage that is not built in this run builds for itself (`npm test -- ui`); two ui halves would
// then build into dist/ at once, so the second waits for the first and uses its build.
if (!names.has('host'))
  for (const stage of chosen) {
    if (stage.name === 'ui-2' && names.has('ui-1')) stage.after.push('ui-1');
    else delete stage.env.CUSTOM_ACTIONS_BUILT;
  }

const started = Date.now();
let passed = 0;
let failed;
// Each stage is a process group of its own, which a Ctrl+C on the terminal does not reach: it is passed on.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'])
  process.once(signal, () => {
    for (const stage of chosen) if (stage.run?.status === undefined) stage.run?.stop(signal);
    process.exit(128 + os.constants.signals[signal]);
  });
// The halves keep the workbenches' leftovers side by side; this run's alone are checked.
if (names.has('ui-1') || names.has('ui-2')) rmSync(path.join(root, 'test-results', 'leftovers', 'ui'), { recursive: true, force: true });
startReady();

for (const stage of chosen) {
  console.log(`\n━━ ${stage.name} ━━`);
  // Its turn: what it printed so far, then the rest as it comes.
  while (!stage.run) await new Promise((resolve) => setTimeout(resolve, 200));
  stage.run.show();
  const status = await stage.run.done;
  if (status !== 0) fail(stage);
  console.log(`✓ ${stage.name} (${stage.run.took}, from ${stage.run.from} to ${stage.run.to} of the run)`);
  passed++;
}
console.log(`\nAll stages passed in ${seconds(Date.now() - started)}.`);
console.log(`stages: ${passed} passed, 0 failed`);

/** Starts every stage whose stages `after` have passed; called again each time one passes. */
function startReady() {
  if (failed) return;
  for (const stage of chosen) {
    if (stage.run || !stage.after.every((name) => chosen.find((s) => s.name === name).run?.status === 0)) continue;
    stage.run = runStage(stage);
    void stage.run.done.then((status) => {
      if (status === 0) startReady();
      // A stage that fails before its turn stops the run at once: its output is shown then.
      else if (!stage.run.shown) fail(stage);
    });
  }
}

/** Stops the run at a failed stage: what else runs is stopped (each stage is a process group), then the counts. */
function fail(stage) {
  if (failed) return;
  failed = stage;
  for (const other of chosen) if (other !== stage && other.run?.status === undefined) other.run?.stop();
  if (!stage.run.shown) {
    console.log(`\n━━ ${stage.name} (failed before its turn) ━━`);
    stage.run.show();
  }
  console.error(`\n✗ stage "${stage.name}" failed after ${stage.run.took}`);
  console.log(`stages: ${passed} passed, 1 failed`);
  process.exit(1);
}

function seconds(ms) {
  return `${Math.round(ms / 1000)} s`;
}

/**
 * Runs a stage with its output kept in test-results/stages/<name>.log (the secrets stage reads what
 * every stage printed) and in memory until show(), which prints it and then everything after it.
 */
function runStage({ name, args, env }) {
  const log = path.join(root, 'test-results', 'stages', `${name}.log`);
  mkdirSync(path.dirname(log), { recursive: true });
  const file = createWriteStream(log);
  const held = [];
  const t0 = Date.now();
  // In a process group of its own, so a failed run can stop it with everything it started.
  const child = spawn(npm, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: { FORCE_COLOR: '1', ...process.env, ...env }, detached: true });
  const run = {
    status: undefined,
    shown: false,
    took: '',
    from: seconds(t0 - started),
    to: '',
    done: undefined,
    show() {
      run.shown = true;
      for (const [stream, chunk] of held.splice(0)) stream.write(chunk);
    },
    stop(signal = 'SIGTERM') {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // Gone already.
      }
    },
  };
  const out = (stream) => (chunk) => {
    file.write(chunk);
    if (run.shown) stream.write(chunk);
    else held.push([stream, chunk]);
  };
  child.stdout.on('data', out(process.stdout));
  child.stderr.on('data', out(process.stderr));
  run.done = new Promise((resolve) =>
    child.on('close', (code) =>
      file.end(() => {
        run.status = code ?? 1;
        run.took = seconds(Date.now() - t0);
        run.to = seconds(Date.now() - started);
        resolve(run.status);
      }),
    ),
  );
  return run;
}
