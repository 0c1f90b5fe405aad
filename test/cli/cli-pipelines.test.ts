// The ready-to-copy pipelines of docs/cli.md: they parse, use only keys their CI system knows, call
// the installed command (never `npx`, which would look the name up on the registry), and their
// `custom-actions` steps, run in order as a runner would, all pass against a sandbox.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { actionMetadata } from '../support/metadata';
import { writeInputSet } from './server';
import { keyOf, ROOT, runCli, textMain, writeAction, writeProject, suiteSandbox } from './support';

type Yaml = Record<string, unknown>;

/** The YAML block that follows `caption` in docs/cli.md. */
function pipeline(caption: string): Yaml {
  const doc = readFileSync(path.join(ROOT, 'docs', 'cli.md'), 'utf8');
  const at = doc.indexOf(caption);
  assert.ok(at >= 0, `docs/cli.md has no "${caption}"`);
  const block = /```yaml\n([\s\S]*?)```/.exec(doc.slice(at));
  assert.ok(block, `no yaml block after "${caption}"`);
  return parse(block[1]!) as Yaml;
}

function keysWithin(value: unknown, allowed: readonly string[], where: string): void {
  assert.ok(value !== null && typeof value === 'object' && !Array.isArray(value), `${where} is a mapping`);
  for (const key of Object.keys(value)) assert.ok(allowed.includes(key), `${where} has "${key}", which is not a key of its CI system`);
}

/** The shell lines of a job's scripts, one command a line. */
function lines(scripts: readonly unknown[]): string[] {
  return scripts
    .flatMap((s) => String(s).split('\n'))
    .map((l) => l.trim())
    .filter(Boolean);
}

// The keys each system documents (GitHub: workflow syntax; GitLab: the .gitlab-ci.yml keyword reference).
const GITHUB_WORKFLOW = ['name', 'run-name', 'on', 'permissions', 'env', 'defaults', 'concurrency', 'jobs'];
const GITHUB_JOB = [
  'name',
  'permissions',
  'needs',
  'if',
  'runs-on',
  'environment',
  'concurrency',
  'outputs',
  'env',
  'defaults',
  'steps',
  'timeout-minutes',
  'strategy',
  'continue-on-error',
  'container',
  'services',
];
const GITHUB_STEP = ['id', 'if', 'name', 'uses', 'run', 'working-directory', 'shell', 'with', 'env', 'continue-on-error', 'timeout-minutes'];
const GITLAB_GLOBAL = ['default', 'include', 'stages', 'variables', 'workflow'];
const GITLAB_DEFAULT = [
  'after_script',
  'artifacts',
  'before_script',
  'cache',
  'hooks',
  'id_tokens',
  'image',
  'interruptible',
  'retry',
  'services',
  'tags',
  'timeout',
];
const GITLAB_JOB = [
  'after_script',
  'allow_failure',
  'artifacts',
  'before_script',
  'cache',
  'coverage',
  'dependencies',
  'environment',
  'extends',
  'id_tokens',
  'image',
  'inherit',
  'interruptible',
  'needs',
  'parallel',
  'release',
  'resource_group',
  'retry',
  'rules',
  'script',
  'secrets',
  'services',
  'stage',
  'tags',
  'timeout',
  'trigger',
  'variables',
  'when',
];
const GITLAB_ARTIFACTS = ['exclude', 'expire_in', 'expose_as', 'name', 'paths', 'public', 'access', 'reports', 'untracked', 'when'];
/** Without a `stages:` list, GitLab has these. */
const GITLAB_DEFAULT_STAGES = ['.pre', 'build', 'test', 'deploy', '.post'];

describe('custom-actions: the pipelines of docs/cli.md', function () {
  const fixture = suiteSandbox();
  const { scratch } = fixture;

  const github = () => pipeline('GitHub Actions, `.github/workflows/custom-actions.yml`');
  const gitlab = () => pipeline('GitLab CI, `.gitlab-ci.yml`');

  it('GitHub Actions: parses, with only keys of the workflow syntax, and runs the installed command', () => {
    const workflow = github();
    keysWithin(workflow, GITHUB_WORKFLOW, 'the workflow');
    const jobs = workflow.jobs as Record<string, Yaml>;
    assert.deepEqual(Object.keys(jobs), ['check', 'deploy']);
    for (const [name, job] of Object.entries(jobs)) {
      keysWithin(job, GITHUB_JOB, `job ${name}`);
      const steps = job.steps as Yaml[];
      steps.forEach((step, i) => keysWithin(step, GITHUB_STEP, `job ${name}, step ${i + 1}`));
      const runs = lines(steps.flatMap((s) => (s.run === undefined ? [] : [s.run])));
      const onPath = runs.findIndex((l) => l.includes('node_modules/.bin') && l.includes('GITHUB_PATH'));
      const first = runs.findIndex((l) => l.startsWith('custom-actions '));
      assert.ok(onPath >= 0 && onPath < first, `job ${name} puts the installed command on the PATH before using it`);
      assert.ok(!runs.some((l) => /\bnpx\b/.test(l)), `job ${name} never runs npx`);
    }
    assert.equal(jobs.deploy!.needs, 'check');
  });

  it('GitLab CI: parses, with only keywords GitLab knows, default stages, and the installed command', () => {
    const config = gitlab();
    const jobs = Object.entries(config).filter(([key]) => !GITLAB_GLOBAL.includes(key));
    assert.deepEqual(
      jobs.map(([name]) => name),
      ['check', 'deploy'],
    );
    keysWithin(config.default, GITLAB_DEFAULT, 'default');
    const before = lines((config.default as Yaml).before_script as unknown[]);
    assert.ok(
      before.some((l) => l.includes('node_modules/.bin') && l.includes('PATH')),
      'before_script puts the installed command on the PATH',
    );
    for (const [name, job] of jobs as [string, Yaml][]) {
      keysWithin(job, GITLAB_JOB, `job ${name}`);
      assert.ok(GITLAB_DEFAULT_STAGES.includes(String(job.stage)), `job ${name}'s stage "${String(job.stage)}" exists without a stages: list`);
      if (job.artifacts) keysWithin(job.artifacts, GITLAB_ARTIFACTS, `job ${name}'s artifacts`);
      assert.ok(
        !lines([...(job.script as unknown[]), ...((job.after_script as unknown[]) ?? [])]).some((l) => /\bnpx\b/.test(l)),
        `job ${name} never runs npx`,
      );
    }
    assert.equal(((config.check as Yaml).artifacts as Yaml).when, 'always');
    assert.deepEqual(((config.check as Yaml).artifacts as Yaml).reports, { junit: 'test-results.xml' });
  });

  it('their custom-actions steps, in order as a runner runs them, pass on a project with code and a test, and the JUnit file is where the report reads it', async () => {
    const githubJobs = github().jobs as Record<string, Yaml>;
    const githubSteps = ['check', 'deploy'].flatMap((job) => lines((githubJobs[job]!.steps as Yaml[]).flatMap((s) => (s.run === undefined ? [] : [s.run]))));
    const config = gitlab();
    const gitlabSteps = ['check', 'deploy'].flatMap((job) => lines((config[job] as Yaml).script as unknown[]));
    for (const [system, steps] of [
      ['GitHub', githubSteps],
      ['GitLab', gitlabSteps],
    ] as const) {
      const dir = scratch.dir();
      writeProject(dir, fixture.sandbox.url);
      const folder = writeAction(dir, 'app-a', actionMetadata({ key: `piped-${system.toLowerCase()}` }), textMain('piped'));
      writeInputSet(folder, 'returns', { inputs: {}, expect: { result: 'piped' } });
      const commands = steps.filter((l) => l.startsWith('custom-actions ')).map((l) => l.split(/\s+/).slice(1));
      assert.ok(commands.length >= 4, `${system}: check, test, a dry run and a deploy`);
      for (const args of commands) {
        const result = await runCli(args, { cwd: dir, env: { CUSTOM_ACTIONS_KEY: keyOf(fixture.sandbox, 'app-a'), CI: 'true' } });
        assert.equal(result.code, 0, `${system}: custom-actions ${args.join(' ')}\n${result.output}`);
      }
      assert.ok(existsSync(path.join(dir, 'test-results.xml')), `${system}: the JUnit report is written where the pipeline reads it`);
      assert.ok(existsSync(path.join(dir, 'customactions.lock.json')), `${system}: the deploy wrote the lock the last step commits`);
    }
  });
});
