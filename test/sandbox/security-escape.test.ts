import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ActionEvent, type ActionResource, type RunResponse } from '../../src/core/schema';
import { PROBE } from './escapeProbe';
import { ALLOWED, PROCESS_PROBE } from './processProbe';
import { canSeeProcesses, type LiveProcess, nodeChildren } from './runnerProcesses';
import { metadata, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;

interface ProbeResult {
  findings: string[];
  more: number;
  inspected: number;
  bridgeErrors: number;
  [extra: string]: unknown;
}

/**
 * The reviewer's reproduction: overflow the stack so that console.log, setTimeout or clearTimeout
 * fails inside the bridge, take the error it throws, and try
 * `constructor.constructor('return process')()` on it. With a process in hand: the environment,
 * /proc/self/environ, another file, a shell command, and another application's code in the data
 * directory. It keeps every error, not only the first, and reports everything it reached.
 */
const REPRODUCTION = `
export async function main(dataDir: string, otherFile: string, marker: string) {
  const reached = new Set<string>();
  const caught: any[] = [];
  for (const call of [() => console.log('x'), () => setTimeout(() => {}, 0), () => clearTimeout(1)]) {
    const deep = (n: number): void => { try { deep(n + 1); } catch (e) { try { call(); return; } catch (inner) { caught[caught.length] = inner; } throw e; } };
    try { deep(0); } catch {}
  }
  for (const error of caught) {
    let proc: any;
    try { proc = error.constructor.constructor('return process')(); } catch { continue; }
    if (!proc || typeof proc.pid !== 'number') continue;
    reached.add('process');
    const load = (name: string) => (proc.getBuiltinModule ? proc.getBuiltinModule(name) : proc.mainModule.require(name));
    try { if (Object.keys(proc.env).length > 0) reached.add('the environment'); } catch {}
    try { load('fs').readFileSync('/proc/self/environ'); reached.add('/proc/self/environ'); } catch {}
    try { load('fs').readFileSync(otherFile, 'utf8'); reached.add('another file'); } catch {}
    try { load('child_process').execSync('echo escaped', { stdio: 'pipe' }); reached.add('a shell command'); } catch {}
    try {
      const fs = load('fs');
      const files = fs.readdirSync(dataDir, { recursive: true }) as string[];
      if (files.some((f) => { try { return fs.readFileSync(dataDir + '/' + f, 'latin1').includes(marker); } catch { return false; } })) reached.add("another application's code in the data directory");
    } catch {}
  }
  return { reached: [...reached], caught: caught.length };
}
`;

describe('security: code in main cannot escape the sandbox', function () {
  this.timeout(300_000);
  let box: Box;
  let key: string;
  let dataDir: string;
  let scratchDir: string;
  let otherFile: string;
  const marker = `other-application-secret-${randomBytes(8).toString('hex')}`;

  before(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'sandbox-escape-data-'));
    scratchDir = mkdtempSync(path.join(tmpdir(), 'sandbox-escape-scratch-'));
    otherFile = path.join(scratchDir, 'another-file.txt');
    writeFileSync(otherFile, 'not for the sandbox\n');
    // The probes are heavy on purpose; a loaded machine must not turn them into time-outs.
    box = await withSandbox({ dataDir, limits: { runTimeoutMs: 60_000, runMemoryMb: 128 } });
    key = box.applications[0]!.key;
    // Another application's action, whose code the reproduction looks for on disk.
    const keyB = box.applications[1]!.key;
    const other = (await box.request('POST', '/api/application/app-b/actions', { key: keyB, json: metadata({ key: 'secret', parameters: [] }) }))
      .json as ActionResource;
    const put = await box.request('PUT', `/api/actions/${other.id}/implementation`, {
      key: keyB,
      body: `export const main = () => '${marker}';`,
      type: 'application/typescript',
    });
    assert.equal(put.status, 204, put.text);
  });
  after(async () => {
    await box?.close();
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(scratchDir, { recursive: true, force: true });
  });

  let n = 0;
  async function run(code: string, inputs: unknown[] = [], parameters: unknown[] = []): Promise<ActionEvent> {
    const created = await box.request('POST', '/api/application/app-a/actions', { key, json: metadata({ key: `escape${n++}`, parameters }) });
    assert.equal(created.status, 201, created.text);
    const action = created.json as ActionResource;
    const put = await box.request('PUT', `/api/actions/${action.id}/implementation`, { key, body: code, type: 'application/typescript' });
    assert.equal(put.status, 204, put.text);
    const reply = await box.request('POST', action.eventsUrls.Test.replace(/events$/, 'runs'), { key, json: { inputs } });
    assert.equal(reply.status, 200, reply.text);
    return (reply.json as RunResponse).event;
  }

  /** Runs the probe library with `body` as main's body; every finding is listed when the test fails. */
  async function probe(body: string): Promise<ProbeResult> {
    const event = await run(`${PROBE}\nexport async function main() {\n${body}\n}\n`);
    assert.equal(event.name, 'success', JSON.stringify(event.data.error));
    const result = event.data.result as ProbeResult;
    const more = result.more > 0 ? `\n  … and ${result.more} more` : '';
    assert.ok(
      result.findings.length === 0,
      `${result.findings.length + result.more} object(s) of another realm reached main:\n  ${result.findings.join('\n  ')}${more}`,
    );
    return result;
  }

  it("the reproduction: an error from a bridge call under stack exhaustion yields no process, environment, file, shell or other application's code", async () => {
    const text = (name: string) => ({ name, type: 'text' });
    const event = await run(REPRODUCTION, [dataDir, otherFile, marker], [text('dataDir'), text('otherFile'), text('marker')]);
    assert.equal(event.name, 'success', JSON.stringify(event.data.error));
    const result = event.data.result as { reached: string[]; caught: number };
    assert.ok(result.caught > 0, 'the bridge calls never failed: the reproduction did not reproduce anything');
    assert.deepEqual(result.reached, [], `main reached: ${result.reached.join(', ')}`);
  });

  it('every bridge call under stack exhaustion throws only errors of the sandbox realm', async () => {
    const result = await probe('exhaustEveryBridgeCall(""); return outcome({});');
    assert.ok(result.bridgeErrors > 0, 'no bridge call ever failed: the probe exhausted nothing');
  });

  it('the same in every async path: timers, intervals, microtasks, promise reactions, after an await', async () => {
    const result = await probe('await inEveryAsyncPath(exhaustEveryBridgeCall); return outcome({});');
    assert.ok(result.bridgeErrors > 0);
  });

  it('every global and all it reaches (prototype chains, constructors, getters) belongs to the sandbox realm', async () => {
    const result = await probe('inspect("globalThis", globalThis, 20000); return outcome({});');
    assert.ok(result.inspected > 500, `only ${result.inspected} objects inspected`);
  });

  it('Error.prepareStackTrace gets no frame, function, receiver or array of the host, in main and every async path', async () => {
    const result = await probe(
      'let prepared = stackTriggers(""); await inEveryAsyncPath((where) => { prepared += stackTriggers(where); }); return outcome({ prepared });',
    );
    assert.ok((result.prepared as number) >= 6 * 6, `Error.prepareStackTrace was called ${String(result.prepared)} times`);
  });

  it('hostile arguments to every bridge call throw only errors of the sandbox realm', async () => {
    const result = await probe('const thrown = hostileArguments(""); return outcome({ thrown });');
    assert.ok((result.thrown as number) > 0);
  });

  it("the engine's and the platform's own errors (dynamic import in every form, WebAssembly, eval, JSON, require) belong to the sandbox realm", async () => {
    const result = await probe('const thrown = await platformErrors(""); await inEveryAsyncPath(() => {}); return outcome({ thrown });');
    assert.ok((result.thrown as number) >= 8, `only ${String(result.thrown)} attempts threw`);
  });

  it("Node's own callbacks under stack exhaustion (stack formatting, import) hand over nothing that compiles code or leads to a process", async () => {
    const event = await run(`${PROBE}\nexport async function main() {\n  return nodeCallbacksUnderExhaustion();\n}\n`);
    assert.equal(event.name, 'success', JSON.stringify(event.data.error));
    const result = event.data.result as { errors: number; foreign: number; compiled: string[]; processes: string[] };
    assert.ok(result.errors > 0, 'nothing was exhausted');
    assert.deepEqual(result.processes, [], `a process through: ${result.processes.join(', ')}`);
    assert.deepEqual(result.compiled, [], `code compiled in the runner's realm through: ${result.compiled.join(', ')}`);
  });

  describe('even with the realm escaped, the process that runs main', () => {
    /** The processes that run main: children of this process, spawned by the sandbox's runner. */
    async function runners(): Promise<LiveProcess[]> {
      const event = await run("export const main = () => 'warm';");
      assert.equal(event.data.result, 'warm');
      const found = nodeChildren().filter((p) => p.argv.includes('-e') || p.argv.includes('--eval'));
      assert.ok(found.length > 0, 'no runner process: main runs inside the sandbox process itself');
      return found;
    }
    before(function () {
      if (!canSeeProcesses) this.skip();
    });

    it('has an empty environment and runs under the permission model with nothing allowed', async () => {
      const flag = ['--permission', '--experimental-permission'].find((f) => process.allowedNodeEnvironmentFlags.has(f));
      for (const runner of await runners()) {
        assert.deepEqual(Object.keys(runner.env), process.versions.electron ? ['ELECTRON_RUN_AS_NODE'] : []);
        if (flag) assert.ok(runner.argv.includes(flag), `runner ${runner.pid} lacks ${flag}: ${runner.argv.slice(0, -2).join(' ')}`);
        assert.deepEqual(
          runner.argv.filter((a) => a.startsWith('--allow-')),
          [],
        );
      }
    });

    it('cannot read the data directory or any other file, write files, spawn processes or workers, or load addons', async () => {
      const [runner] = await runners();
      const paths = JSON.stringify({ dataDir, otherFile, scratchDir });
      const probeWith = (args: string[], env: NodeJS.ProcessEnv, cwd: string) => {
        const done = spawnSync(process.execPath, [...args, paths], { env, cwd, encoding: 'utf8', timeout: 60_000 });
        const line = done.stdout.trim().split('\n').at(-1) ?? '';
        assert.ok(line.startsWith('{'), `the probe printed nothing: ${done.stderr}`);
        const { environment, ...attempts } = JSON.parse(line) as { environment: string[] } & Record<string, string>;
        return { environment, attempts: Object.entries(attempts) as [string, string][] };
      };
      // The probe itself works: without the runner's confinement it does everything it tries.
      const free = probeWith(['-e', PROCESS_PROBE], process.env, scratchDir);
      for (const [name, result] of free.attempts) assert.ok(ALLOWED.has(result), `unconfined, "${name}" gave ${result}`);
      // The same probe with the runner's own arguments, environment and directory: its script replaced.
      const args = runner!.argv.slice(1);
      const script = args.findIndex((a) => a === '-e' || a === '--eval') + 1;
      const confined = probeWith([...args.slice(0, script), PROCESS_PROBE], runner!.env, runner!.cwd);
      assert.deepEqual(confined.environment, process.versions.electron ? ['ELECTRON_RUN_AS_NODE'] : []);
      const allowed = confined.attempts.filter(([, result]) => ALLOWED.has(result));
      assert.deepEqual(allowed, [], `the runner process may: ${allowed.map(([name]) => name).join(', ')}`);
    });
  });
});
