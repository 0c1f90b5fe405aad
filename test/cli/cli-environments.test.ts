// Targets, the branch mapping, protection and promote: two sandbox processes of the built command as
// staging and production, each with its own application id and key.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { createClient } from '../../src/core/client';
import { eventually } from '../support/eventually';
import { actionMetadata } from '../support/metadata';
import { RunningCli } from './server';
import { runCli, Scratch, textMain, writeAction } from './support';

interface Server {
  readonly process: RunningCli;
  url: string;
  key: string;
}

/** `custom-actions sandbox start --ensure-app <id>`, left running; its URL and key once it says them. */
async function startServer(applicationId: string, cwd: string): Promise<Server> {
  const process = new RunningCli(['sandbox', 'start', '--ensure-app', applicationId], { cwd });
  const variable = `CUSTOM_ACTIONS_KEY_${applicationId.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
  await eventually(() => new RegExp(`^${variable}=`, 'm').test(process.stdout) || undefined, 'the sandbox ready lines', 150_000);
  return {
    process,
    url: /^CUSTOM_ACTIONS_BASE_URL=(\S+)$/m.exec(process.stdout)![1]!,
    key: new RegExp(`^${variable}=(\\S+)$`, 'm').exec(process.stdout)![1]!,
  };
}

async function stopServer(server: Server | undefined): Promise<void> {
  if (!server) return;
  server.process.child.kill('SIGTERM');
  await server.process.exited;
}

function clientOf(server: Server) {
  return createClient({ baseUrl: server.url, getKey: () => Promise.resolve(server.key) });
}

/** The code the server holds for the action `key` of application `applicationId`, or undefined when it has no such action. */
async function codeOn(server: Server, applicationId: string, key: string): Promise<string | undefined> {
  const client = clientOf(server);
  const action = (await client.listActions(applicationId)).find((a) => a.key === key);
  return action && (await client.getImplementation(action.id));
}

async function idOn(server: Server, applicationId: string, key: string): Promise<string> {
  return (await clientOf(server).listActions(applicationId)).find((a) => a.key === key)!.id;
}

describe('custom-actions targets, branches and promote', function () {
  this.timeout(240_000);
  const scratch = new Scratch();
  let staging: Server | undefined;
  let production: Server | undefined;
  let dir: string;
  let keys: Record<string, string>;

  before(async () => {
    [staging, production] = await Promise.all([startServer('stg-billing', scratch.dir()), startServer('prod-billing', scratch.dir())]);
    dir = scratch.dir();
    writeFileSync(
      path.join(dir, 'customactions.yaml'),
      stringify({
        baseUrl: 'local-sandbox',
        applications: [{ id: 'billing', folder: 'billing' }],
        targets: {
          staging: { baseUrl: staging.url, default: true, applications: { billing: 'stg-billing' } },
          production: { baseUrl: production.url, protected: true, applications: { billing: 'prod-billing' } },
        },
        branches: { main: 'production', 'release/*': 'staging', '*': 'staging' },
      }),
    );
    // Keys by target: one for the application on staging, one for every application of production.
    keys = { CUSTOM_ACTIONS_KEY_STAGING_STG_BILLING: staging.key, CUSTOM_ACTIONS_KEY_PRODUCTION: production.key };
  });
  after(async () => {
    await Promise.all([stopServer(staging), stopServer(production)]);
    staging?.process.kill();
    production?.process.kill();
    scratch.cleanup();
  });

  const cli = (args: string[], env: Record<string, string> = {}) => runCli(args, { cwd: dir, env: { ...keys, ...env } });
  const productionCode = () => codeOn(production!, 'prod-billing', 'greet');

  it('deploys to the default target and says which target and why', async () => {
    writeAction(dir, 'billing', actionMetadata({ key: 'greet' }), textMain('one'));
    const result = await cli(['deploy']);
    assert.equal(result.code, 0, result.output);
    assert.match(result.stderr, /^Target staging at http:\/\/127\.0\.0\.1:\d+\/? \(the default\)$/m);
    assert.match(result.stdout, /^created\s+stg-billing\/greet/m);
    assert.equal(await codeOn(staging!, 'stg-billing', 'greet'), textMain('one'));
    assert.equal(await productionCode(), undefined);
  });

  it('in CI the branch picks the target through the mapping, and --json carries the choice', async () => {
    const ci = { CI: 'true' };
    const feature = await cli(['status', '--json'], { ...ci, GITHUB_REF_NAME: 'feature/login' });
    assert.match(feature.stderr, /Target staging at \S+ \(branch feature\/login from GITHUB_REF_NAME, branches: '\*'\)/);
    assert.equal((JSON.parse(feature.stdout) as { target: { name: string } }).target.name, 'staging');
    const main = await cli(['deploy', '--dry-run', '--json'], { ...ci, CI_COMMIT_REF_NAME: 'main' });
    assert.match(main.stderr, /Target production at \S+ \(branch main from CI_COMMIT_REF_NAME, branches: 'main'\)/);
    const json = JSON.parse(main.stdout) as { target: { name: string; protected: boolean; why: { source: string; branch: string } } };
    assert.deepEqual([json.target.name, json.target.protected, json.target.why.source, json.target.why.branch], ['production', true, 'branch', 'main']);
    // --target and the variable come before the branch.
    const flagged = await cli(['status', '--target', 'staging'], { ...ci, GITHUB_REF_NAME: 'main' });
    assert.match(flagged.stderr, /Target staging at \S+ \(--target\)/);
    const variable = await cli(['status'], { ...ci, GITHUB_REF_NAME: 'main', CUSTOM_ACTIONS_TARGET: 'staging' });
    assert.match(variable.stderr, /Target staging at \S+ \(CUSTOM_ACTIONS_TARGET\)/);
    // --quiet drops the target's line with the server's; --json still says which and why.
    const quiet = await cli(['status', '-q', '--json'], { ...ci, GITHUB_REF_NAME: 'main', CUSTOM_ACTIONS_TARGET: 'staging' });
    assert.doesNotMatch(quiet.stderr, /Target |Server: /);
    assert.equal((JSON.parse(quiet.stdout) as { target: { name: string } }).target.name, 'staging');
    const unknown = await cli(['status', '--target', 'prod']);
    assert.equal(unknown.code, 2, unknown.output);
    assert.match(unknown.stderr, /--target names the target "prod".*\n.*default, staging, production/);
  });

  it('a protected target is never written without a confirmation or --yes', async () => {
    const refused = await cli(['deploy'], { CI: 'true', GITHUB_REF_NAME: 'main' });
    assert.equal(refused.code, 2, refused.output);
    assert.match(refused.stderr, /Nothing written to protected target production: it needs a confirmation/);
    assert.equal(await productionCode(), undefined, 'a refused deploy wrote to production');
    const test = await cli(['test', '--env', 'Test', '--target', 'production']);
    assert.equal(test.code, 2, test.output);
    // test has no --dry-run of its own: the hint names deploy's, and the command to run again.
    assert.match(
      test.stderr,
      /Check what would happen with custom-actions deploy --dry-run --target production, then run it with --yes: custom-actions test --env Test --target production --yes/,
    );
    assert.match(refused.stderr, /Check what would happen with --dry-run, then run it with --yes: custom-actions deploy --target production --yes/);
    assert.equal(await productionCode(), undefined, 'test --env Test wrote to production');
  });

  it("today's key names serve only the default target: a production key is never taken from CUSTOM_ACTIONS_KEY", async () => {
    const result = await runCli(['status', '--target', 'production'], { cwd: dir, env: { CUSTOM_ACTIONS_KEY: staging!.key } });
    assert.equal(result.code, 3, result.output);
    assert.match(result.stderr, /No key for application billing on target production|No key for application prod-billing/);
    assert.match(result.stderr, /CUSTOM_ACTIONS_KEY_PRODUCTION_PROD_BILLING/);
  });

  it('promote shows the plan and the diff, asks, then sends what staging runs (not the working copy) and records it in the lock', async () => {
    // The working copy moves on; staging still runs "one".
    writeAction(dir, 'billing', actionMetadata({ key: 'greet' }), textMain('working copy'));
    const unconfirmed = await cli(['promote', '--from', 'staging', '--to', 'production']);
    assert.equal(unconfirmed.code, 2, unconfirmed.output);
    assert.match(unconfirmed.stdout, /^would-create\s+prod-billing\/greet/m);
    assert.match(unconfirmed.stdout, /\+\+\+ staging:stg-billing\/greet\/main\.ts/);
    assert.match(unconfirmed.stdout, /\+ {2}return "one";/);
    assert.match(unconfirmed.stderr, /Nothing promoted to production: it needs a confirmation/);
    assert.equal(await productionCode(), undefined);

    const promoted = await cli(['promote', '--from', 'staging', '--to', 'production', '--yes', '--json']);
    assert.equal(promoted.code, 0, promoted.output);
    assert.equal(await productionCode(), textMain('one'));
    const lock = JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as {
      servers: Record<string, Record<string, Record<string, { id: string }>>>;
    };
    const entries = Object.values(lock.servers).flatMap((apps) => Object.keys(apps));
    assert.deepEqual(entries.sort(), ['prod-billing', 'stg-billing']);
    const again = await cli(['promote', '--from', 'staging', '--to', 'production']);
    assert.equal(again.code, 0, again.output);
    assert.match(again.stderr, /Nothing to promote: production runs what staging runs/);
  });

  it('promote refuses one target as both ends with the rule the editor uses (core promoteProblem)', async () => {
    const same = await cli(['promote', '--from', 'staging', '--to', 'staging']);
    assert.equal(same.code, 2, same.output);
    assert.match(same.stderr, /The source and the destination are the same target\./);
  });

  it('a change made in production since its base holds the promote: nothing written, the action named', async () => {
    writeAction(dir, 'billing', actionMetadata({ key: 'greet' }), textMain('two'));
    assert.equal((await cli(['deploy'])).code, 0);
    // A colleague's hotfix, straight on production.
    const hotfix = await fetch(`${production!.url}/api/actions/${await idOn(production!, 'prod-billing', 'greet')}/implementation`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${production!.key}`, 'content-type': 'application/typescript', 'user-agent': 'colleague/1.0' },
      body: textMain('hotfix'),
    });
    assert.ok(hotfix.ok, String(hotfix.status));
    const held = await cli(['promote', '--from', 'staging', '--to', 'production', '--yes']);
    assert.equal(held.code, 4, held.output);
    assert.match(held.stdout, /^held\s+prod-billing\/greet\s+code changed on the server/m);
    assert.match(held.stderr, /Promote held, nothing written/);
    assert.equal(await productionCode(), textMain('hotfix'), 'the held promote wrote');
  });
  it("a key changed in its folder and deployed to staging renames production's action when promoted, as the deploy renamed staging's", async () => {
    writeAction(dir, 'billing', actionMetadata({ key: 'wave' }), textMain('wave'));
    assert.equal((await cli(['deploy', 'wave'])).code, 0);
    const first = await cli(['promote', '--from', 'staging', '--to', 'production', 'wave', '--yes']);
    assert.equal(first.code, 0, first.output);
    const id = await idOn(production!, 'prod-billing', 'wave');
    const yaml = path.join(dir, 'billing', 'wave', 'action.yaml');
    writeFileSync(yaml, readFileSync(yaml, 'utf8').replace(/^key: wave$/m, 'key: wave-hello'));
    const deployed = await cli(['deploy', 'wave-hello']);
    assert.equal(deployed.code, 0, deployed.output);
    assert.match(deployed.stdout, /^updated\s+stg-billing\/wave-hello/m);
    const promoted = await cli(['promote', '--from', 'staging', '--to', 'production', 'wave-hello', '--yes']);
    assert.equal(promoted.code, 0, promoted.output);
    assert.match(promoted.stdout, /^updated\s+prod-billing\/wave-hello/m);
    const listed = await clientOf(production!).listActions('prod-billing');
    assert.equal(listed.find((a) => a.key === 'wave-hello')?.id, id, "production's action, renamed, not a second one");
    assert.equal(
      listed.find((a) => a.key === 'wave'),
      undefined,
    );
  });
});
