// The release workflow cannot run here (it needs GitHub's runners and the registries' tokens), so its
// promises are checked on its text: one build job makes and sums every file, each publishing job
// needs it and publishes those files after checking their sums, no secret reaches the build, each job
// has only the permissions it needs, and every action is pinned to a commit.
import * as assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

const ROOT = path.resolve(__dirname, '..', '..');
const FILE = path.join(ROOT, '.github', 'workflows', 'release.yml');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  with?: Record<string, unknown>;
  env?: Record<string, string>;
  'working-directory'?: string;
}
interface Job {
  needs?: string | string[];
  environment?: string | { name: string };
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { push?: { tags?: string[]; branches?: string[] } } & Record<string, unknown>;
  permissions?: Record<string, string>;
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

const text = readFileSync(FILE, 'utf8');
const workflow = parse(text) as Workflow;
const PUBLISHERS = { npm: /^npm publish /, marketplace: /\bvsce publish\b/, 'open-vsx': /\bovsx publish\b/, 'github-release': /^gh release create / };
const needsOf = (job: Job) => (Array.isArray(job.needs) ? job.needs : job.needs ? [job.needs] : []);
const mentionsSecret = (value: unknown) => /\$\{\{\s*secrets\./.test(JSON.stringify(value ?? null));

describe('release workflow (.github/workflows/release.yml)', () => {
  it('runs on a version tag only, with no permission by default', () => {
    assert.deepEqual(Object.keys(workflow.on), ['push']);
    assert.deepEqual(workflow.on.push, { tags: ['v*'] });
    assert.deepEqual(workflow.permissions, {});
    assert.equal(workflow.env, undefined, 'no workflow-wide environment: a secret there would reach every job');
  });

  it('has one build job and a publishing job per destination, each needing the build', () => {
    assert.deepEqual(Object.keys(workflow.jobs).sort(), ['build', ...Object.keys(PUBLISHERS)].sort());
    assert.deepEqual(needsOf(workflow.jobs.build!), []);
    for (const name of Object.keys(PUBLISHERS)) assert.deepEqual(needsOf(workflow.jobs[name]!), ['build'], name);
  });

  it('builds the .vsix and the command line package from one checkout, sums them, and uploads them as one artifact', () => {
    const build = workflow.jobs.build!;
    const runs = build.steps.map((s) => s.run ?? '').join('\n');
    assert.match(runs, /\bnpm ci\b/);
    // The test stages that make both files (npm run package in the build stage) and try the packed command.
    assert.match(runs, /npm test -- .*\bbuild\b.*\bcli\b/);
    assert.ok(
      /vsce package/.test(pkgScripts().package ?? '') && /cliPackage\.mjs --pack dist\//.test(pkgScripts().package ?? ''),
      'npm run package makes both',
    );
    assert.match(runs, /sha256sum custom-actions-vscode-\*\.vsix custom-actions-cli-\*\.tgz \| tee SHA256SUMS/);
    const checkout = build.steps.find((s) => s.uses?.startsWith('actions/checkout@'));
    assert.equal(checkout?.with?.['persist-credentials'], false, 'the build keeps no git credential in the checkout');
    const uploads = build.steps.filter((s) => s.uses?.startsWith('actions/upload-artifact@'));
    assert.equal(uploads.length, 1);
    assert.equal(uploads[0]!.with?.name, 'release');
    assert.deepEqual(String(uploads[0]!.with?.path).trim().split('\n'), [
      'dist/custom-actions-vscode-*.vsix',
      'dist/custom-actions-cli-*.tgz',
      'dist/SHA256SUMS',
    ]);
    assert.equal(uploads[0]!.with?.['if-no-files-found'], 'error');
  });

  it('publishes the artifact the build made, after checking its sums, and builds nothing itself', () => {
    for (const [name, command] of Object.entries(PUBLISHERS)) {
      const job = workflow.jobs[name]!;
      const downloads = job.steps.filter((s) => s.uses?.startsWith('actions/download-artifact@'));
      assert.equal(downloads.length, 1, name);
      assert.equal(downloads[0]!.with?.name, 'release', name);
      const dir = String(downloads[0]!.with?.path);
      const check = job.steps.findIndex((s) => s.run?.trim() === 'sha256sum --check --strict SHA256SUMS' && s['working-directory'] === dir);
      const publish = job.steps.findIndex((s) => command.test(s.run ?? ''));
      assert.ok(check > job.steps.indexOf(downloads[0]!), `${name}: the sums are checked after the download`);
      assert.ok(publish > check, `${name}: publishes after the sums are checked`);
      assert.equal(job.steps[publish]!['working-directory'], dir, `${name}: publishes the downloaded files`);
      assert.ok(!job.steps.some((s) => s.uses?.startsWith('actions/checkout@')), `${name}: checks out no code`);
      assert.ok(!job.steps.some((s) => /\bnpm (ci|install|run|test)\b/.test(s.run ?? '')), `${name}: builds nothing`);
    }
  });

  it('gives each job only the permissions it needs', () => {
    const expected: Record<string, Record<string, string>> = {
      build: { contents: 'read' },
      'github-release': { contents: 'write' },
      npm: { contents: 'read', 'id-token': 'write' },
      marketplace: {},
      'open-vsx': {},
    };
    for (const [name, job] of Object.entries(workflow.jobs)) assert.deepEqual(job.permissions, expected[name], name);
  });

  it('keeps secrets out of the build and hands each publishing job its own, in its environment, to the publishing step only', () => {
    assert.ok(!mentionsSecret(workflow.jobs.build), 'a secret in the build job');
    for (const [name, job] of Object.entries(workflow.jobs)) {
      assert.ok(!mentionsSecret(job.env), `${name}: a secret in the job's environment reaches every step`);
      const withSecret = job.steps.filter((s) => mentionsSecret(s));
      for (const step of withSecret) {
        assert.ok(
          PUBLISHERS[name as keyof typeof PUBLISHERS]?.test(step.run ?? ''),
          `${name}: a secret in a step that does not publish: ${JSON.stringify(step)}`,
        );
        assert.ok(!mentionsSecret(step.run) && !mentionsSecret(step.with), `${name}: a secret on a command line or an action's input`);
        assert.ok(job.environment, `${name}: a secret outside a GitHub environment`);
      }
    }
    assert.deepEqual(
      ['npm', 'marketplace', 'open-vsx'].map(
        (name) => workflow.jobs[name]!.steps.flatMap((s) => Object.values(s.env ?? {})).filter((v) => mentionsSecret(v)).length,
      ),
      [1, 1, 1],
      'each registry job uses its one secret',
    );
  });

  it('publishes to npm with provenance, publicly, the tarball the build packed', () => {
    const publish = workflow.jobs.npm!.steps.find((s) => PUBLISHERS.npm.test(s.run ?? ''))!;
    assert.match(publish.run!, /^npm publish \.\/custom-actions-cli-\*\.tgz /);
    assert.match(publish.run!, /--provenance\b/);
    assert.match(publish.run!, /--access public\b/);
    const setup = workflow.jobs.npm!.steps.find((s) => s.uses?.startsWith('actions/setup-node@'));
    assert.equal(setup?.with?.['registry-url'], 'https://registry.npmjs.org');
  });

  it('pins every action to a commit, and every publishing tool to an exact version (vsce to the repository’s)', () => {
    const uses = Object.values(workflow.jobs).flatMap((job) => job.steps.flatMap((s) => (s.uses ? [s.uses] : [])));
    assert.ok(uses.length > 0);
    for (const use of uses) assert.match(use, /^[\w.-]+\/[\w.-]+(\/[\w./-]+)?@[0-9a-f]{40}$/, `not pinned to a commit: ${use}`);
    // The version the pin stands for, beside it, so a reader and an update tool know it.
    for (const line of text.split('\n').filter((l) => /^\s*-?\s*uses:/.test(l))) assert.match(line, /@[0-9a-f]{40} # v\d+(\.\d+){0,2}$/, line);
    const runs = Object.values(workflow.jobs).flatMap((job) => job.steps.map((s) => s.run ?? ''));
    const fetched = runs.flatMap((run) => [...run.matchAll(/--package=(\S+)/g)].map((m) => m[1]!));
    assert.deepEqual(fetched.sort(), ['@vscode/vsce@' + devDependency('@vscode/vsce'), 'ovsx@1.4.0'].sort());
    for (const spec of fetched) assert.match(spec, /@\d+\.\d+\.\d+$/, spec);
    assert.ok(!runs.some((run) => /\bnpx\b(?! --no)/.test(run)), 'npx would fetch whatever a name resolves to');
  });
});

function pkg(): { scripts: Record<string, string>; devDependencies: Record<string, string> } {
  return JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string>; devDependencies: Record<string, string> };
}
function pkgScripts(): Record<string, string | undefined> {
  return pkg().scripts;
}
function devDependency(name: string): string {
  return pkg().devDependencies[name]!;
}
