import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type ActionListEntry } from '../../src/core/schema';
import { metadata, requester, ROOT } from './support';

interface Ready {
  url: string;
  applications: { id: string; key: string }[];
}

function startCli(dir: string, apps: string[]): { child: ChildProcess; ready: Promise<Ready> } {
  const args = [
    '--require',
    'tsx/cjs',
    path.join(ROOT, 'src/sandbox/cli.ts'),
    '--json',
    '--port',
    '0',
    '--data',
    dir,
    ...apps.flatMap((a) => ['--ensure-app', a]),
  ];
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'ignore'] });
  let stdout = '';
  const ready = new Promise<Ready>((resolve, reject) => {
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.includes('\n')) resolve(JSON.parse(stdout.split('\n')[0]!) as Ready);
    });
    child.once('exit', (code) => reject(new Error(`the sandbox exited with ${code} before it was ready`)));
  });
  return { child, ready };
}

describe('reliability: SIGKILL in the middle of writes', function () {
  this.timeout(120_000);
  let dir: string;
  let child: ChildProcess | undefined;
  before(() => (dir = mkdtempSync(path.join(tmpdir(), 'sandbox-kill-'))));
  after(() => {
    child?.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('loses no acknowledged write when the process is killed and started again on the same data directory', async () => {
    const first = startCli(dir, ['kill-app']);
    child = first.child;
    const ready = await first.ready;
    const key = ready.applications[0]!.key;
    const req = requester(ready.url);
    // Acknowledged: a write whose answer arrived. Unanswered writes may or may not be there.
    const created: string[] = [];
    const code = new Map<string, string>();
    let stop = false;
    const writers = Array.from({ length: 4 }, async (_, w) => {
      for (let n = 0; !stop; n++) {
        try {
          const reply = await req('POST', '/api/application/kill-app/actions', { key, json: metadata({ key: `w${w}n${n}` }) });
          if (reply.status !== 201) continue;
          const id = (reply.json as { id: string }).id;
          created.push(id);
          const source = `export const main = () => ${w * 1000 + n};`;
          const put = await req('PUT', `/api/actions/${id}/implementation`, { key, body: source, type: 'application/typescript' });
          if (put.status === 204) code.set(id, source);
        } catch {
          // Unanswered: unknown whether it landed, so it is not counted. Before the kill this is a rare
          // reset of a kept-alive connection; the writer goes on.
          if (stop) return;
        }
      }
    });
    // Killed once enough writes were acknowledged (not after a fixed time: a busy machine acknowledges
    // fewer), while the writers are still going.
    const enough = Date.now() + 60_000;
    while ((created.length < 20 || code.size < 5) && Date.now() < enough) await new Promise((resolve) => setTimeout(resolve, 20));
    const exited = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGKILL');
    await exited;
    stop = true;
    await Promise.all(writers);
    assert.ok(created.length >= 20 && code.size >= 5, `writes were acknowledged before the kill (${created.length} creates, ${code.size} code)`);

    const second = startCli(dir, []);
    child = second.child;
    const again = await second.ready;
    const req2 = requester(again.url);
    const listed = new Set(((await req2('GET', '/api/application/kill-app/actions', { key })).json as ActionListEntry[]).map((e) => e.id));
    for (const id of created) assert.ok(listed.has(id), `acknowledged create ${id} was lost`);
    for (const [id, source] of code)
      assert.equal((await req2('GET', `/api/actions/${id}/implementation`, { key })).text, source, `acknowledged code of ${id} was lost`);
    const exited2 = new Promise((resolve) => child!.once('exit', resolve));
    child.kill('SIGTERM');
    await exited2;
    child = undefined;
  });
});
