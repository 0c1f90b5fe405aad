// `custom-actions test` runs a repository's main.ts where a pipeline holds its key: the code is
// confined as the sandbox confines it (docs/security.md, *Round three*), tried from inside main and
// from inside the very processes the command starts.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { ALLOWED, PROCESS_PROBE } from '../sandbox/processProbe';
import { canSeeProcesses, type LiveProcess, nodeChildren } from '../sandbox/runnerProcesses';
import { ATTEMPT, ATTEMPT_MAIN, attemptCases } from '../support/confinementAttempts';
import { eventually } from '../support/eventually';
import { RunningCli, writeInputSet } from './server';
import { runCli, Scratch, writeAction, writeProject } from './support';

describe('custom-actions test: the code of main is confined as in the sandbox', function () {
  const scratch = new Scratch();
  const key = `ca_key_${randomBytes(12).toString('hex')}`;
  const marker = `outside-file-${randomBytes(8).toString('hex')}`;
  let dir: string;
  let outside: string;
  let listener: Server;
  let connections = 0;

  before(async () => {
    dir = scratch.dir();
    outside = path.join(scratch.dir(), 'outside.txt');
    writeFileSync(outside, marker);
    listener = createServer((socket) => {
      connections++;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    const port = String((listener.address() as { port: number }).port);
    writeProject(dir, 'http://127.0.0.1:9');
    const folder = writeAction(dir, 'app-a', ATTEMPT, ATTEMPT_MAIN);
    for (const [what, content] of Object.entries(attemptCases(outside, port))) writeInputSet(folder, what, content);
  });
  after(async () => {
    await new Promise((resolve) => listener?.close(resolve));
    scratch.cleanup();
  });

  it('with the key in its environment: every attempt of main (realm, /proc environ, process.env, code from strings, a file, a connection) is blocked, and the key is nowhere in the output', async () => {
    const report = path.join(scratch.dir(), 'report.xml');
    const result = await runCli(['test', '--reporter', 'junit', '--output', report], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: key } });
    const junit = readFileSync(report, 'utf8');
    for (const text of [result.output, junit]) {
      assert.ok(!text.includes(key), `the key is in the output:\n${result.output}`);
      assert.ok(!text.includes(marker), `the outside file was read:\n${result.output}`);
    }
    assert.equal(result.code, 0, result.output);
    for (const what of ['realm', 'environ', 'env', 'strings', 'file', 'network'])
      assert.match(result.stdout, new RegExp(`^PASS +app-a/attempt › ${what} `, 'm'));
    assert.equal(connections, 0, 'a connection came in');
  });

  it('the processes it starts for the cases have an empty environment and, even with the realm escaped, read no environ or file and compile no string', async function () {
    if (!canSeeProcesses) this.skip();
    const slow = writeAction(
      dir,
      'app-a',
      { ...ATTEMPT, key: 'slow', parameters: [] },
      'export async function main() { await new Promise((r) => setTimeout(r, 5000)); return "blocked"; }\n',
    );
    writeInputSet(slow, 'waits', { inputs: {}, expect: { result: 'blocked' } });
    const cli = new RunningCli(['test', 'slow'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: key } });
    let runners: LiveProcess[];
    try {
      runners = await eventually(() => {
        const found = nodeChildren(cli.child.pid).filter((p) => p.argv.includes('--eval') || p.argv.includes('-e'));
        return found.length > 0 ? found : undefined;
      }, 'a process running the cases');
    } finally {
      await cli.exited;
    }
    assert.match(cli.stdout, /^PASS +app-a\/slow › waits /m, cli.stdout + cli.stderr);
    for (const runner of runners) assert.deepEqual(Object.keys(runner.env), process.versions.electron ? ['ELECTRON_RUN_AS_NODE'] : []);
    // The same arguments, environment and directory, the probe as script, under a parent that holds the key.
    const [runner] = runners;
    const args = runner!.argv.slice(1);
    const script = args.findIndex((a) => a === '-e' || a === '--eval') + 1;
    const dataDir = scratch.dir();
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(path.join(dataDir, 'PG_VERSION'), marker);
    const paths = JSON.stringify({ dataDir, otherFile: outside, scratchDir: scratch.dir() });
    const parent = `const r = require('node:child_process').spawnSync(process.execPath, JSON.parse(process.argv[1]), { env: JSON.parse(process.argv[2]), cwd: process.argv[3], encoding: 'utf8' }); process.stdout.write(r.stdout);`;
    const probeWith = (probeArgs: string[], env: Record<string, string>, cwd: string) => {
      const done = spawnSync(process.execPath, ['-e', parent, JSON.stringify([...probeArgs, paths]), JSON.stringify(env), cwd], {
        env: { PATH: process.env.PATH ?? '', CUSTOM_ACTIONS_KEY: key },
        encoding: 'utf8',
        timeout: 60_000,
      });
      const line = done.stdout.trim().split('\n').at(-1) ?? '';
      assert.ok(line.startsWith('{'), `the probe printed nothing: ${done.stderr}`);
      assert.ok(!line.includes(key), `the probe got the key: ${line}`);
      const { environment, ...attempts } = JSON.parse(line) as { environment: string[] } & Record<string, string>;
      return { environment, attempts: Object.entries(attempts) };
    };
    // The probe works: unconfined, it does all it tries (the parent's environ is read, not printed).
    const free = probeWith(['-e', PROCESS_PROBE], { PATH: process.env.PATH ?? '' }, dir);
    for (const [name, result] of free.attempts) assert.ok(ALLOWED.has(result), `unconfined, "${name}" gave ${result}`);
    const confined = probeWith([...args.slice(0, script), PROCESS_PROBE], runner!.env, runner!.cwd);
    assert.deepEqual(confined.environment, process.versions.electron ? ['ELECTRON_RUN_AS_NODE'] : []);
    const allowed = confined.attempts.filter(([, result]) => ALLOWED.has(result));
    assert.deepEqual(allowed, [], `the process running the cases may: ${allowed.map(([name]) => name).join(', ')}`);
  });
});
