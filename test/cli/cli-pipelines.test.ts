// The ready-to-copy pipelines of docs/cli.md: they parse, use only keys their CI system knows, call
// the installed command (never `npx`, which would look the name up on the registry), and their
// `custom-actions` steps, run in order as a runner would, all pass against a sandbox.
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
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

/**
 * Git for the repositories these tests make: no system or user configuration of the machine running
 * them (its hooks, signing or identity), so what is tested is the pipeline's own script.
 */
const GIT_ENV = { PATH: process.env.PATH ?? '', GIT_CONFIG_NOSYSTEM: '1', GIT_CONFIG_GLOBAL: '/dev/null' };

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', ['-c', 'user.name=Dev', '-c', 'user.email=dev@example.com', ...args], { cwd, env: GIT_ENV, encoding: 'utf8' }).trim();
}

/**
 * The lock step's situation: a repository (a bare one standing for GitHub's or GitLab's), the job's
 * shallow checkout of its main branch, and the deploy's change to the lock there.
 */
function lockRepository(dir: string, detached: boolean): { origin: string; checkout: string; seed: string } {
  const origin = path.join(dir, 'origin.git');
  const seed = path.join(dir, 'seed');
  const checkout = path.join(dir, 'checkout');
  git(dir, 'init', '-q', '--bare', '-b', 'main', origin);
  git(dir, 'init', '-q', '-b', 'main', seed);
  writeFileSync(path.join(seed, 'customactions.lock.json'), '{ "version": 1 }\n');
  writeFileSync(path.join(seed, 'README.md'), 'actions\n');
  git(seed, 'add', '.');
  git(seed, 'commit', '-q', '-m', 'First');
  git(seed, 'remote', 'add', 'origin', origin);
  git(seed, 'push', '-q', 'origin', 'main');
  // As the CI systems check out: one commit deep, on the branch (GitHub) or detached at it (GitLab).
  git(dir, 'clone', '-q', '--depth', '1', '--branch', 'main', `file://${origin}`, checkout);
  if (detached) git(checkout, 'checkout', '-q', '--detach');
  writeFileSync(path.join(checkout, 'customactions.lock.json'), '{ "version": 1, "deployed": true }\n');
  return { origin, checkout, seed };
}

/** Someone's commit pushed to main while the deploy ran. */
function moveMain(seed: string, file: string, text: string): void {
  writeFileSync(path.join(seed, file), text);
  git(seed, 'commit', '-q', '-am', `Changed ${file}`);
  git(seed, 'push', '-q', 'origin', 'main');
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

  /** The shell that commits and pushes the lock after the deploy, and the environment its CI system gives it. */
  const lockSteps = (origin: string) => {
    const githubDeploy = (github().jobs as Record<string, Yaml>).deploy!;
    const githubStep = (githubDeploy.steps as Yaml[]).filter((step) => String(step.run ?? '').includes('git push'));
    assert.equal(githubStep.length, 1, 'one step of the GitHub deploy job pushes the lock');
    assert.equal(githubStep[0]!.if, 'always()', 'the lock is pushed after a failed or cancelled deploy too: what went through is the next base');
    const gitlabDeploy = gitlab().deploy as Yaml;
    const token = 'lock-push-token-3e9a';
    return {
      GitHub: { script: String(githubStep[0]!.run), env: { GITHUB_REF_NAME: 'main' }, detached: false },
      GitLab: {
        script: (gitlabDeploy.after_script as unknown[]).map(String).join('\n'),
        env: {
          CI_COMMIT_BRANCH: 'main',
          LOCK_PUSH_TOKEN: token,
          CI_SERVER_HOST: 'gitlab.example',
          CI_PROJECT_PATH: 'group/actions',
          // The pipeline's https URL with its token, served here by the local repository.
          GIT_CONFIG_COUNT: '1',
          GIT_CONFIG_KEY_0: `url.file://${origin}.insteadOf`,
          GIT_CONFIG_VALUE_0: `https://oauth2:${token}@gitlab.example/group/actions.git`,
        },
        detached: true,
      },
    };
  };
  const runStep = (script: string, cwd: string, env: Record<string, string>) =>
    // GitHub runs a step's `run` with `bash -e`; GitLab's generated script stops at a failing command too.
    spawnSync('bash', ['-e', '-c', script], { cwd, env: { ...GIT_ENV, HOME: cwd, ...env }, encoding: 'utf8' });

  for (const system of ['GitHub', 'GitLab'] as const) {
    it(`${system}: the lock's commit is put on top of main when main moved during the deploy, and pushed`, () => {
      const dir = scratch.dir();
      const { origin, checkout, seed } = lockRepository(dir, system === 'GitLab');
      const step = lockSteps(origin)[system];
      moveMain(seed, 'README.md', 'actions, edited meanwhile\n');
      const pushed = runStep(step.script, checkout, step.env);
      assert.equal(pushed.status, 0, `${pushed.stdout}\n${pushed.stderr}`);
      assert.deepEqual(git(dir, '--git-dir', origin, 'log', '--format=%s', 'main').split('\n'), [
        system === 'GitLab' ? 'Deployed custom actions [skip ci]' : 'Deployed custom actions',
        'Changed README.md',
        'First',
      ]);
      assert.equal(git(dir, '--git-dir', origin, 'show', 'main:customactions.lock.json'), '{ "version": 1, "deployed": true }');
      assert.equal(git(dir, '--git-dir', origin, 'show', 'main:README.md'), 'actions, edited meanwhile');

      // Run again with nothing new: no commit, nothing pushed, success.
      const again = runStep(step.script, checkout, step.env);
      assert.equal(again.status, 0, again.stderr);
      assert.equal(git(dir, '--git-dir', origin, 'rev-list', '--count', 'main'), '3');
    });

    it(`${system}: a lock changed on main too is not overwritten: the step fails and main keeps its lock`, () => {
      const dir = scratch.dir();
      const { origin, checkout, seed } = lockRepository(dir, system === 'GitLab');
      const step = lockSteps(origin)[system];
      moveMain(seed, 'customactions.lock.json', '{ "version": 1, "pulled": true }\n');
      const refused = runStep(step.script, checkout, step.env);
      assert.notEqual(refused.status, 0, refused.stdout);
      assert.equal(git(dir, '--git-dir', origin, 'show', 'main:customactions.lock.json'), '{ "version": 1, "pulled": true }');
    });
  }

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
