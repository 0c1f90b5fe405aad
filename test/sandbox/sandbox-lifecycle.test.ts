import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ActionEvent, type ActionListEntry, type ActionResource } from '../../src/core/schema';
import { generateTypes } from '../../src/core/typegen';
import { DEMO_WORKSPACE } from '../../src/sandbox/demo/demoWorkspace.generated';
import { DEMO_MODULE, DEMO_ROOT } from '../../src/sandbox/demo/generate';
import { readDemoWorkspace, renderDemoModule } from '../../src/sandbox/demo/readWorkspace';
import { testDatabaseUrl } from './backend';
import { metadata, requester, ROOT, withSandbox } from './support';

/**
 * On both backends: the data outlives the process in a data directory (PGlite) or in a database of
 * the run's cluster (PostgreSQL), and each test starts its sandboxes on the same one.
 */
describe('sandbox: persistence, the CLI and the demo', () => {
  let dir: string;
  let where: { dataDir: string } | { databaseUrl: string };
  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'sandbox-data-'));
    const databaseUrl = await testDatabaseUrl();
    where = databaseUrl === undefined ? { dataDir: dir } : { databaseUrl };
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps actions, code, events and keys across a restart', async () => {
    const first = await withSandbox(where);
    const key = first.applications[0]!.key;
    const created = (await first.request('POST', '/api/application/app-a/actions', { key, json: metadata() })).json as ActionResource;
    await first.request('PUT', `/api/actions/${created.id}/implementation`, {
      key,
      body: 'export const main = (a: number, b: number) => a - b;',
      type: 'application/typescript',
    });
    await first.request('POST', created.eventsUrls.Live.replace(/events$/, 'runs'), { key, json: { inputs: [5, 3] } });
    await first.close();

    const second = await withSandbox({ ...where, applications: [] });
    try {
      const list = (await second.request('GET', '/api/application/app-a/actions', { key })).json as ActionListEntry[];
      assert.deepEqual(
        list.map((e) => e.id),
        [created.id],
      );
      assert.deepEqual(list[0]!.eventsUrls, created.eventsUrls);
      const events = (await second.request('GET', created.eventsUrls.Live, { key })).json as ActionEvent[];
      assert.equal(events[0]!.data.result, 2);
      assert.equal((await second.request('GET', `/api/actions/${created.id}/implementation`, { key })).status, 200);
    } finally {
      await second.close();
    }
  });

  it('the CLI prints one JSON line, serves, and closes on SIGTERM', async function () {
    this.timeout(60_000);
    const child = spawn(
      process.execPath,
      [
        '--require',
        'tsx/cjs',
        path.join(ROOT, 'src/sandbox/cli.ts'),
        '--json',
        '--port',
        '0',
        ...('dataDir' in where ? ['--data', dir] : []),
        '--ensure-app',
        'cli-app:CLI App',
      ],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        // The database as a team runs it: in the environment, where the process list does not show its password.
        env: { ...process.env, ...('databaseUrl' in where ? { CUSTOM_ACTIONS_DATABASE_URL: where.databaseUrl } : {}) },
      },
    );
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', () => stdout.includes('\n') && resolve());
      child.once('exit', (code) => reject(new Error(`exited with ${code}`)));
    });
    const ready = JSON.parse(stdout.trim()) as { url: string; applications: { id: string; name: string; key: string }[] };
    assert.match(ready.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.deepEqual(
      ready.applications.map((a) => [a.id, a.name]),
      [['cli-app', 'CLI App']],
    );
    const reply = await requester(ready.url)('GET', '/api/application/cli-app/actions', { key: ready.applications[0]!.key });
    assert.equal(reply.status, 200);
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal(stdout.trim().split('\n').length, 1);
  });

  it('the demo seed is generated from demo/, and its generated types are current', () => {
    const fromFiles = readDemoWorkspace(DEMO_ROOT);
    assert.equal(readFileSync(DEMO_MODULE, 'utf8'), renderDemoModule(fromFiles), 'demo/ changed: run npx tsx src/sandbox/demo/generate.ts');
    assert.deepEqual(DEMO_WORKSPACE, fromFiles);
    for (const app of fromFiles) {
      for (const action of app.actions) {
        const file = path.join(DEMO_ROOT, app.folder, action.metadata.key, 'action.generated.ts');
        assert.equal(readFileSync(file, 'utf8'), generateTypes(action.metadata), file);
        assert.ok(action.runs.length >= 2, `${action.metadata.key} needs two input sets`);
      }
    }
  });

  it('--demo creates both applications with every action and events in Test and Live, idempotently', async () => {
    const demo = await withSandbox({ ...where, demo: true, applications: [] });
    const keys = demo.applications.map((a) => a.key);
    await demo.close();
    const again = await withSandbox({ ...where, demo: true, applications: [] });
    try {
      assert.deepEqual(
        again.applications.map((a) => a.id),
        ['demo-crm', 'demo-helpdesk'],
      );
      for (const [i, app] of DEMO_WORKSPACE.entries()) {
        const list = (await again.request('GET', `/api/application/${app.id}/actions`, { key: keys[i]! })).json as ActionListEntry[];
        assert.deepEqual(list.map((e) => e.key).sort(), app.actions.map((a) => a.metadata.key).sort());
        for (const entry of list) {
          for (const env of ['Test', 'Live'] as const) {
            const events = (await again.request('GET', entry.eventsUrls[env], { key: again.applications[i]!.key })).json as ActionEvent[];
            assert.equal(events.length, 2, `${entry.key} ${env}`);
          }
        }
      }
    } finally {
      await again.close();
    }
  });
});
