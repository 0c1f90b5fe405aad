// `custom-actions deploy`, the built command against the sandbox behind a counting proxy.
import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { type AddressInfo } from 'node:net';
import { createServer } from 'node:http';
import path from 'node:path';
import { type Sandbox } from '../../src/sandbox';
import { createClient } from '../../src/core/client';
import { eventually } from '../support/eventually';
import { PushProxy } from '../support/pushProxy';
import { actionMetadata } from '../support/metadata';
import { RunningCli } from './server';
import { cliSandbox, keyOf, runCli, Scratch, serverCode, textMain, writeAction, writeProject, writes, putCode } from './support';

describe('custom-actions deploy', function () {
  const scratch = new Scratch();
  let sandbox: Sandbox;
  let proxy: PushProxy;
  let url: string;
  let env: Record<string, string>;
  before(async () => {
    sandbox = await cliSandbox();
    proxy = new PushProxy(new URL(sandbox.url));
    url = await proxy.start();
    env = { CUSTOM_ACTIONS_KEY: keyOf(sandbox, 'app-a') };
  });
  after(async () => {
    await proxy.close();
    await sandbox.close();
    scratch.cleanup();
  });

  /** A project of `keys`, each with code returning its key, under a prefix that keeps the tests' actions apart. */
  function project(prefix: string, keys: readonly string[]): string {
    const dir = scratch.dir();
    writeProject(dir, url);
    for (const key of keys) writeAction(dir, 'app-a', actionMetadata({ key: `${prefix}${key}` }), textMain(key));
    return dir;
  }
  const deploy = (dir: string, ...args: string[]) => runCli(['deploy', ...args], { cwd: dir, env });
  const lockOf = (dir: string) => readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8');
  const idOf = (dir: string, key: string) => {
    const lock = JSON.parse(lockOf(dir)) as { servers: Record<string, Record<string, Record<string, { id: string }>>> };
    return Object.values(lock.servers)[0]!['app-a']![key]!.id;
  };

  it('creates every action with its code, and a second deploy sends no write and leaves the lock byte for byte', async () => {
    const dir = project('twice', ['1', '2', '3']);
    const first = await deploy(dir);
    assert.equal(first.code, 0, first.output);
    assert.equal((first.stdout.match(/^created/gm) ?? []).length, 3, first.stdout);
    for (const key of ['1', '2', '3']) assert.equal(await serverCode(sandbox, 'app-a', idOf(dir, `twice${key}`)), textMain(key));
    const lock = lockOf(dir);
    const mark = proxy.requests.length;
    // CUSTOM_ACTIONS_DEBUG: the command says on stderr when it loads the compiler (through its code cache or not).
    const second = await runCli(['deploy'], { cwd: dir, env: { ...env, CUSTOM_ACTIONS_DEBUG: '1' } });
    assert.equal(second.code, 0, second.output);
    assert.equal((second.stdout.match(/^unchanged/gm) ?? []).length, 3, second.stdout);
    assert.deepEqual(writes(proxy, mark), [], 'the second deploy wrote');
    const sent = proxy.requests.slice(mark).map((r) => `${r.method} ${r.path.split('?')[0]}`);
    // "Unchanged" is judged against the base: the list names each part's version, and every one is its
    // base's, so the server still holds what this repository deployed; nothing else is read.
    assert.deepEqual([...sent].sort(), ['GET /api', 'GET /api/application/app-a/actions'], 'an unchanged project is its list');
    assert.doesNotMatch(second.stderr, /compiler code cache/, 'the analysis bundle was loaded for an unchanged project');
    const check = await runCli(['check'], { cwd: dir, env: { CUSTOM_ACTIONS_DEBUG: '1' } });
    assert.match(check.stderr, /compiler code cache/, 'a command that loads the compiler says so');
    assert.equal(lockOf(dir), lock);
  });

  it('on a server whose list names no versions, reads each part equal to its base instead, and holds the one a colleague changed', async () => {
    const dir = project('untagged', ['1', '2']);
    assert.equal((await deploy(dir)).code, 0);
    proxy.untaggedLists = true;
    try {
      const mark = proxy.requests.length;
      const quiet = await deploy(dir);
      assert.equal(quiet.code, 0, quiet.output);
      const reads = ['GET /api', 'GET /api/application/app-a/actions'];
      for (const key of ['untagged1', 'untagged2']) reads.push(`GET /api/actions/${idOf(dir, key)}`, `GET /api/actions/${idOf(dir, key)}/implementation`);
      assert.deepEqual(
        proxy.requests
          .slice(mark)
          .map((r) => `${r.method} ${r.path.split('?')[0]}`)
          .sort(),
        reads.sort(),
        'an unchanged project is its list and a read of each part',
      );
      await putCode(sandbox, keyOf(sandbox, 'app-a'), idOf(dir, 'untagged1'), textMain('a colleague'), 'the-web-editor/1.0');
      const held = await deploy(dir);
      assert.equal(held.code, 4, held.output);
      assert.match(held.stdout, /^held\s+app-a\/untagged1/m);
    } finally {
      proxy.untaggedLists = false;
    }
  });

  it('sends only what differs: one changed main.ts is one PUT of its code', async () => {
    const dir = project('one', ['a', 'b']);
    assert.equal((await deploy(dir)).code, 0);
    writeFileSync(path.join(dir, 'app-a', 'onea', 'main.ts'), textMain('a, again'));
    const mark = proxy.requests.length;
    const result = await deploy(dir);
    assert.equal(result.code, 0, result.output);
    assert.match(result.stdout, /^updated\s+app-a\/onea {2}code$/m);
    assert.deepEqual(writes(proxy, mark), [`PUT /api/actions/${idOf(dir, 'onea')}/implementation`]);
    // No read of the changed code first: the write carries the lock's version (If-Match) and the server
    // checks it. The parts equal to their base are listed under its tag: the list says the server still holds them.
    const reads = proxy.requests
      .slice(mark)
      .filter((r) => r.method === 'GET')
      .map((r) => r.path.split('?')[0]);
    assert.deepEqual(reads.sort(), ['/api', '/api/application/app-a/actions']);
  });

  it('holds a part changed on the server since the base, names it, writes nothing, and --force replaces it', async () => {
    const dir = project('held', ['x']);
    assert.equal((await deploy(dir)).code, 0);
    const id = idOf(dir, 'heldx');
    const lock = lockOf(dir);
    await putCode(sandbox, keyOf(sandbox, 'app-a'), id, textMain('a colleague'), 'the-web-editor/1.0');
    writeFileSync(path.join(dir, 'app-a', 'heldx', 'main.ts'), textMain('mine'));
    const mark = proxy.requests.length;
    const held = await deploy(dir, '--json');
    assert.equal(held.code, 4, held.output);
    assert.match(held.stderr, /Held actions changed on the server/);
    const json = JSON.parse(held.stdout) as {
      actions: { key: string; result: string; steps: { kind: string; why?: string; server?: { version?: number; by?: string } }[] }[];
    };
    const step = json.actions[0]!.steps.find((s) => s.kind === 'held')!;
    assert.deepEqual([json.actions[0]!.result, step.why, step.server?.version, step.server?.by], ['held', 'changed-on-server', 2, 'the-web-editor/1.0']);
    assert.equal(await serverCode(sandbox, 'app-a', id), textMain('a colleague'), "the colleague's code was replaced");
    assert.deepEqual(
      writes(proxy, mark).filter((w) => !w.startsWith('PUT')),
      [],
    );
    assert.equal(lockOf(dir), lock, 'the lock moved');
    const text = await deploy(dir);
    assert.equal(text.code, 4);
    assert.match(text.stdout, /^held\s+app-a\/heldx {2}code changed on the server since the base \(version 2, at [^,]+, by the-web-editor\/1\.0\)$/m);

    // Overwriting a colleague's change is confirmed: without a terminal, only with --yes.
    const unconfirmed = await deploy(dir, '--force');
    assert.equal(unconfirmed.code, 2, unconfirmed.output);
    assert.equal(await serverCode(sandbox, 'app-a', id), textMain('a colleague'), 'nothing replaced without --yes');
    const forced = await deploy(dir, '--force', '--yes');
    assert.equal(forced.code, 0, forced.output);
    assert.equal(await serverCode(sandbox, 'app-a', id), textMain('mine'));
    assert.equal((await deploy(dir)).code, 0, 'in step after the forced deploy');
  });

  it('holds a change made on the server when the workspace has nothing new for it, as status says, and --force really replaces it', async () => {
    // Issue #37: deploy said `unchanged` (exit 0) where status said the code changed on the server, and
    // --force left the colleague's code in place.
    const dir = project('theirs', ['x']);
    assert.equal((await deploy(dir)).code, 0);
    const id = idOf(dir, 'theirsx');
    await putCode(sandbox, keyOf(sandbox, 'app-a'), id, textMain('a colleague'), 'someone');
    const mark = proxy.requests.length;
    const result = await deploy(dir);
    assert.equal(result.code, 4, result.output);
    assert.match(result.stdout, /^held\s+app-a\/theirsx {2}code changed on the server since the base \(version 2, at [^,]+, by someone\)$/m);
    assert.deepEqual(writes(proxy, mark), []);
    assert.equal(await serverCode(sandbox, 'app-a', id), textMain('a colleague'));
    const status = await runCli(['status'], { cwd: dir, env });
    assert.equal(status.code, 1);
    assert.match(status.stdout, /app-a\/theirsx {2}code changed on the server since the base/);
    const forced = await deploy(dir, '--force', '--yes');
    assert.equal(forced.code, 0, forced.output);
    assert.match(forced.stdout, /^updated\s+app-a\/theirsx {2}code/m);
    assert.equal(await serverCode(sandbox, 'app-a', id), textMain('x'));
    const after = await runCli(['status', 'app-a/theirsx'], { cwd: dir, env });
    assert.equal(after.code, 0, `status and deploy agree, in step: ${after.output}`);
  });

  it('replaces code a colleague put back to the base text under a newer version', async () => {
    const dir = project('restored', ['x']);
    assert.equal((await deploy(dir)).code, 0);
    const id = idOf(dir, 'restoredx');
    const key = keyOf(sandbox, 'app-a');
    await putCode(sandbox, key, id, textMain('a colleague'), 'someone');
    await putCode(sandbox, key, id, textMain('x'), 'someone');
    writeFileSync(path.join(dir, 'app-a', 'restoredx', 'main.ts'), textMain('mine'));
    const result = await deploy(dir);
    assert.equal(result.code, 0, result.output);
    assert.equal(await serverCode(sandbox, 'app-a', id), textMain('mine'));
  });

  it('holds an action the server has that this repository never deployed or pulled, unless it holds the same', async () => {
    const dir = project('nobase', ['same', 'other']);
    const elsewhere = project('nobase', ['same', 'other']);
    assert.equal((await deploy(elsewhere)).code, 0, 'deployed from another checkout');
    writeFileSync(path.join(dir, 'app-a', 'nobaseother', 'main.ts'), textMain('mine'));
    const result = await deploy(dir);
    assert.equal(result.code, 4, result.output);
    assert.match(result.stdout, /^unchanged\s+app-a\/nobasesame$/m);
    assert.match(result.stdout, /^held\s+app-a\/nobaseother {2}code on the server was never deployed or pulled from this repository/m);
    // The same content is recorded as the base: the next deploy reads nothing more for it.
    assert.equal(idOf(dir, 'nobasesame'), idOf(elsewhere, 'nobasesame'));
  });

  it('refuses code that disagrees with its metadata with the Problems panel message at file:line, and writes nothing', async () => {
    const dir = project('mismatch', ['ok']);
    writeAction(dir, 'app-a', actionMetadata({ key: 'mismatchbad' }), 'export async function main(n: number): Promise<string> {\n  return String(n);\n}\n');
    const mark = proxy.requests.length;
    const result = await deploy(dir, '--dry-run');
    assert.equal(result.code, 6, result.output);
    assert.match(result.stdout, /^refused\s+app-a\/mismatchbad {2}the code disagrees with its metadata$/m);
    assert.match(
      result.stdout,
      /^ {2}app-a\/mismatchbad\/main\.ts:1:28: main takes 1 parameter but the metadata declares 0; the platform passes nothing for n\.$/m,
    );
    assert.deepEqual(writes(proxy, mark), []);
    const real = await deploy(dir);
    assert.equal(real.code, 6);
    assert.match(real.stdout, /^created\s+app-a\/mismatchok/m, 'the other action is deployed');
    assert.ok(!lockOf(dir).includes('mismatchbad'));
  });

  it('refuses code that does not parse as such, with the parser’s error at file:line, and writes nothing', async () => {
    const dir = project('unparsed', []);
    writeAction(dir, 'app-a', actionMetadata({ key: 'unparsed' }), 'export async function main(): Promise<string> {\n  return (;\n}\n');
    const mark = proxy.requests.length;
    const result = await deploy(dir);
    assert.equal(result.code, 6, result.output);
    assert.match(result.stdout, /^refused\s+app-a\/unparsed {2}the code does not parse$/m);
    assert.match(result.stdout, /^ {2}app-a\/unparsed\/main\.ts:2:\d+: Expression expected\.$/m);
    assert.deepEqual(writes(proxy, mark), []);
  });

  it('refuses an invalid action.yaml with its file:line', async () => {
    const dir = project('badyaml', []);
    writeAction(dir, 'app-a', actionMetadata({ key: 'badyaml' }), textMain('x'));
    writeFileSync(
      path.join(dir, 'app-a', 'badyaml', 'action.yaml'),
      'key: badyaml\nname: Bad\ndescription: ""\ndeveloperEmail: not-an-email\nparameters: []\nresult:\n  type: text\n',
    );
    const result = await deploy(dir);
    assert.equal(result.code, 6, result.output);
    assert.match(result.stdout, /^ {2}app-a\/badyaml\/action\.yaml:4:\d+: developerEmail: /m);
  });

  it('prints the plan with --dry-run and writes nothing, lock included', async () => {
    const dir = project('dry', ['a']);
    const mark = proxy.requests.length;
    const result = await deploy(dir, '--dry-run');
    assert.equal(result.code, 0, result.output);
    // A part of an action still to be created has nothing on the server to be checked against: no "(unchecked)".
    assert.match(result.stdout, /^would-create\s+app-a\/drya {2}code$/m);
    assert.match(result.stderr, /^Dry run, nothing written: 1 would-create\b/m);
    // A folder without main.ts deploys its metadata alone, and its line says so.
    writeAction(dir, 'app-a', actionMetadata({ key: 'drynocode' }));
    const noCode = await deploy(dir, '--dry-run', 'drynocode');
    assert.match(noCode.stdout, /^would-create\s+app-a\/drynocode {2}metadata only: no main\.ts here$/m);
    assert.deepEqual(writes(proxy, mark), []);
    assert.throws(() => lockOf(dir), /ENOENT/);
  });

  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    it(`stops on ${signal} (Ctrl+C, a CI's cancel): the action under way finishes, no other starts, the lock records it, exit 130, and the rerun finishes`, async () => {
      const prefix = signal === 'SIGINT' ? 'intr' : 'term';
      const dir = project(prefix, ['a', 'b', 'c', 'd']);
      const mark = proxy.requests.length;
      const release = proxy.holdPushes();
      const running = new RunningCli(['deploy', '--concurrency', '1'], { cwd: dir, env });
      try {
        // The first action is created and its code is on the wire, waiting for the server.
        await eventually(() => proxy.requests.slice(mark).some((r) => r.method === 'PUT' && r.path.endsWith('/implementation')) || undefined, 'the first push');
        running.child.kill(signal);
        await eventually(() => /^Stopping: /m.test(running.stderr) || undefined, 'the stop to be acknowledged');
        release();
        const { code } = await running.exited;
        assert.equal(code, 130, running.stderr);
      } finally {
        release();
        running.kill();
      }
      assert.match(running.stdout, new RegExp(`^created\\s+app-a/${prefix}a {2}code$`, 'm'));
      // The sandbox holds other tests' actions too: those are in the count.
      assert.match(running.stderr, /^Interrupted: \d+ actions not started; deploy again to finish\.$/m);
      const listed = await createClient({ baseUrl: sandbox.url, getKey: () => Promise.resolve(env.CUSTOM_ACTIONS_KEY!) }).listActions('app-a');
      assert.deepEqual(
        listed.filter((a) => a.key.startsWith(prefix)).map((a) => a.key),
        [`${prefix}a`],
        'nothing started after the signal',
      );
      assert.equal(await serverCode(sandbox, 'app-a', idOf(dir, `${prefix}a`)), textMain('a'));

      const rerun = await deploy(dir);
      assert.equal(rerun.code, 0, rerun.output);
      assert.match(rerun.stdout, new RegExp(`^unchanged\\s+app-a/${prefix}a$`, 'm'));
      assert.equal((rerun.stdout.match(/^created/gm) ?? []).length, 3, rerun.stdout);
    });

  it('deletes an action on the server only with --delete, and only one this repository deployed', async () => {
    const dir = project('del', ['gone', 'kept']);
    assert.equal((await deploy(dir)).code, 0);
    // Two actions of another repository: the deploy below sums them up whatever else the server holds.
    const stranger = project('delstranger', ['x', 'y']);
    assert.equal((await deploy(stranger)).code, 0);
    const id = idOf(dir, 'delgone');
    rmSync(path.join(dir, 'app-a', 'delgone'), { recursive: true });
    const without = await deploy(dir, 'delgone');
    assert.equal(without.code, 0, without.output);
    assert.match(
      without.stdout,
      /^only-on-server\s+app-a\/delgone {2}on the server only, left alone \(this repository deployed it: deploy --delete removes it\)$/m,
    );
    assert.ok(await serverCode(sandbox, 'app-a', id));
    // Named alone, one it never had is said to stay even with --delete.
    const stranger1 = await deploy(dir, 'delstrangerx');
    assert.equal(stranger1.code, 0, stranger1.output);
    assert.match(
      stranger1.stdout,
      /^only-on-server\s+app-a\/delstrangerx {2}on the server only, left alone \(this repository never deployed it: deploy --delete leaves it too\)$/m,
    );
    const mark = proxy.requests.length;
    const withFlag = await deploy(dir, '--delete', '--yes');
    assert.equal(withFlag.code, 0, withFlag.output);
    assert.match(withFlag.stdout, /^deleted\s+app-a\/delgone$/m);
    // Those it never had (the other repository's, and other tests') are left alone, summed up in one line.
    assert.match(withFlag.stdout, /^only-on-server \d+ actions on the server only, left alone: /m, 'an action it never had is left alone');
    assert.doesNotMatch(withFlag.stdout, /deploy --delete removes/);
    assert.deepEqual(writes(proxy, mark), [`DELETE /api/actions/${id}`]);
    assert.ok(!lockOf(dir).includes('delgone'));
  });

  it('sums up the actions only on the server in one line after the others, the ones it deployed named first, and --json keeps each', async () => {
    // Application app-b, which no other test here uses: the server's actions there are this test's.
    const envB = { CUSTOM_ACTIONS_KEY_APP_B: keyOf(sandbox, 'app-b') };
    const colleague = scratch.dir();
    writeProject(colleague, url, ['app-b']);
    for (const key of ['many-c1', 'many-c2', 'many-c3', 'many-c4', 'many-c5']) writeAction(colleague, 'app-b', actionMetadata({ key }), textMain(key));
    assert.equal((await runCli(['deploy'], { cwd: colleague, env: envB })).code, 0);
    const dir = scratch.dir();
    writeProject(dir, url, ['app-b']);
    for (const key of ['many-gone', 'many-mine']) writeAction(dir, 'app-b', actionMetadata({ key }), textMain(key));
    assert.equal((await runCli(['deploy', 'many-gone', 'many-mine'], { cwd: dir, env: envB })).code, 0);
    rmSync(path.join(dir, 'app-b', 'many-gone'), { recursive: true });
    writeFileSync(path.join(dir, 'app-b', 'many-mine', 'main.ts'), textMain('mine, again'));

    const text = await runCli(['deploy'], { cwd: dir, env: envB });
    assert.equal(text.code, 0, text.output);
    const lines = text.stdout.trimEnd().split('\n');
    assert.deepEqual(lines, [
      'updated        app-b/many-mine  code',
      'only-on-server 6 actions on the server only, left alone: app-b/many-gone, app-b/many-c1, app-b/many-c2 and 3 more' +
        ' (custom-actions status lists them; deploy --delete removes the one this repository deployed, named first)',
    ]);
    assert.match(text.stderr, /^1 updated, 6 only-on-server\.$/m);

    const json = await runCli(['deploy', '--json'], { cwd: dir, env: envB });
    assert.equal(json.code, 0, json.output);
    const actions = (JSON.parse(json.stdout) as { actions: { key: string; result: string }[] }).actions;
    assert.deepEqual(
      actions.filter((a) => a.result === 'only-on-server').map((a) => a.key),
      ['many-c1', 'many-c2', 'many-c3', 'many-c4', 'many-c5', 'many-gone'],
    );
    const status = await runCli(['status'], { cwd: dir, env: envB });
    assert.equal((status.stdout.match(/^differs\s+app-b\/many-\S+ {2}only on the server$/gm) ?? []).length, 6, status.stdout);
  });

  it('shows the keys of actions only on the server as text, in deploy and status: their escape sequences and line breaks are not obeyed', async () => {
    // A server that lists keys holding a terminal escape sequence and a forged line.
    const hostile = createServer((request, response) => {
      if (request.url?.startsWith('/api/application/app-a/actions'))
        response.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify([
            { id: 'h1', key: 'paint\u001b[31mred' },
            { id: 'h2', key: 'two\nupdated        app-a/forged' },
          ]),
        );
      else response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => hostile.listen(0, '127.0.0.1', resolve));
    try {
      const dir = scratch.dir();
      writeProject(dir, `http://127.0.0.1:${(hostile.address() as AddressInfo).port}`);
      const result = await runCli(['deploy'], { cwd: dir, env });
      assert.equal(result.code, 0, result.output);
      assert.ok(!result.output.includes('\u001b'), 'an escape sequence from the server reached the output');
      assert.deepEqual(result.stdout.trimEnd().split('\n'), [
        'only-on-server 2 actions on the server only, left alone: app-a/paint\\u001B[31mred, app-a/two updated        app-a/forged (custom-actions status lists them)',
      ]);
      const status = await runCli(['status'], { cwd: dir, env });
      assert.equal(status.code, 1, status.output);
      assert.ok(!status.output.includes('\u001b'), 'an escape sequence from the server reached the output of status');
      assert.equal(status.stdout.trimEnd().split('\n').length, 2, status.stdout);
    } finally {
      await new Promise((resolve) => hostile.close(resolve));
    }
  });

  it('names an action that does not exist as a usage error', async () => {
    const dir = project('typo', ['a']);
    const result = await deploy(dir, 'typoo');
    assert.equal(result.code, 2);
    assert.match(result.stderr, /No such action: typoo/);
  });

  it('without a key exits 3 having sent nothing, and with a wrong key exits 3 without printing it', async () => {
    const dir = project('nokey', ['a']);
    const mark = proxy.requests.length;
    const none = await runCli(['deploy'], { cwd: dir });
    assert.equal(none.code, 3, none.output);
    assert.equal(proxy.requests.length, mark, 'a request went out without a key');
    const wrong = 'not-the-key-5f0c1a9e7d';
    const refused = await runCli(['deploy', '--json'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: wrong } });
    assert.equal(refused.code, 3, refused.output);
    assert.ok(!refused.output.includes(wrong));
    assert.deepEqual(writes(proxy, mark), []);
  });

  it('names the line of an invalid customactions.yaml', async () => {
    const dir = project('badproject', ['a']);
    writeFileSync(path.join(dir, 'customactions.yaml'), `baseUrl: ${url}\napplications:\n  - id: app-a\n    folder: /etc\n`);
    const result = await deploy(dir);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /customactions\.yaml:4:\d+: applications\[0\]\.folder: must be a relative path inside the workspace/);
  });
});
