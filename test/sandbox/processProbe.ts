/**
 * What code that got out of the sandbox's realm could do with the runner process's own powers: it
 * runs as the process's script (host code, `require` and `process` at hand) and prints one JSON line
 * of what each attempt gave, `allowed` or the error's code. Its one argument is a JSON object of the
 * paths to try. (The network is not among them: Node's permission model closes it only from Node 25.)
 */
export const PROCESS_PROBE = String.raw`
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const childProcess = require('node:child_process');
const paths = JSON.parse(process.argv[process.argv.length - 1]);
const outcome = {};
const attempt = (name, fn) => {
  try { fn(); outcome[name] = 'allowed'; } catch (e) { outcome[name] = String((e && e.code) || (e && e.name) || e); }
};
outcome.environment = Object.keys(process.env);
attempt('read /proc/self/environ', () => fs.readFileSync('/proc/self/environ'));
attempt("read the parent's /proc/<pid>/environ", () => fs.readFileSync('/proc/' + process.ppid + '/environ'));
attempt('compile code from a string', () => new Function('return 1'));
attempt('list the data directory', () => fs.readdirSync(paths.dataDir));
attempt('read a file of the data directory', () => fs.readFileSync(path.join(paths.dataDir, 'PG_VERSION')));
attempt('read another file', () => fs.readFileSync(paths.otherFile));
attempt('write a file', () => fs.writeFileSync(path.join(paths.scratchDir, 'written-by-the-probe'), 'x'));
attempt('spawn a process', () => { const r = childProcess.spawnSync(process.execPath, ['-e', '0']); if (r.error) throw r.error; });
attempt('run a shell command', () => childProcess.execSync('echo escaped', { stdio: 'pipe' }));
attempt('start a worker', () => { const { Worker } = require('node:worker_threads'); new Worker('0', { eval: true }).terminate(); });
attempt('load a native addon', () => process.dlopen({ exports: {} }, path.join(paths.scratchDir, 'missing.node')));
process.stdout.write(JSON.stringify(outcome) + '\n');
`;

/** How each attempt ends when the process is allowed to do it (a missing addon file still fails to load). */
export const ALLOWED = new Set(['allowed', 'ERR_DLOPEN_FAILED']);
