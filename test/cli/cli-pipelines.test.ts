// The ready-to-copy pipelines of docs/cli.md: they parse, use only keys their CI system knows, call
// the installed command (never `npx`, which would look the name up on the registry), give the
// platform's key to the deploy job of the protected main branch only, and their `custom-actions`
// steps, run in order as a runner would, all pass: the branch's jobs with no key at all.
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { actionMetadata } from '../support/metadata';
import { writeInputSet } from './server';
import { CLI, keyOf, ROOT, textMain, writeAction, writeProject, suiteSandbox } from './support';

type Yaml = Record<string, unknown>;

/** The YAML block that follows `caption` in docs/cli.md (or another page of docs/). */
function pipeline(caption: string, page = 'cli.md'): Yaml {
  const doc = readFileSync(path.join(ROOT, 'docs', page), 'utf8');
  const at = doc.indexOf(caption);
  assert.ok(at >= 0, `docs/${page} has no "${caption}"`);
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

/** The name of a variable that holds a secret. */
const SECRET_NAME = /KEY|TOKEN|SECRET|PASSWORD|CREDENTIAL/i;

/**
 * What of a job (or a workflow, or GitLab's defaults) hands it a secret: a variable set under `env:` or
 * `variables:` whose name says secret, a `secrets:` or `id_tokens:` keyword, a GitHub `secrets.` expression,
 * or a script that names the platform's key or the lock's push token.
 */
function secretsIn(value: unknown): string[] {
  const found: string[] = [];
  const walk = (v: unknown, parent: string | undefined): void => {
    if (typeof v === 'string') {
      const named = /\$\{\{\s*secrets\.\w+|CUSTOM_ACTIONS_KEY\w*|LOCK_PUSH_TOKEN/.exec(v);
      if (named) found.push(named[0]);
    } else if (Array.isArray(v)) {
      v.forEach((x) => walk(x, undefined));
    } else if (v !== null && typeof v === 'object') {
      for (const [k, x] of Object.entries(v)) {
        if ((parent === 'env' || parent === 'variables') && SECRET_NAME.test(k)) found.push(k);
        if (k === 'secrets' || k === 'id_tokens') found.push(k);
        walk(x, k);
      }
    }
  };
  walk(value, undefined);
  return found;
}

/** The conditions of a GitHub `if:` or GitLab `rules: - if:` that must all hold: none when it has an "or". */
function conjuncts(condition: unknown): string[] {
  const text = String(condition ?? '');
  if (text === '' || text.includes('||')) return [];
  return text.split('&&').map((c) => c.trim());
}

/** A shell step run as its CI system runs it (`bash -e`), without blocking the suite's sandbox in this process. */
function runScript(script: string, cwd: string, env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', script], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (output += s));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** A folder holding `custom-actions`, the built command, as `node_modules/.bin` holds the installed one. */
function installedCommand(dir: string): string {
  const bin = path.join(dir, 'bin');
  mkdirSync(bin);
  const command = path.join(bin, 'custom-actions');
  writeFileSync(command, `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(command, 0o755);
  return bin;
}

/**
 * GitHub's security guide, checked: no `pull_request_target`, a read-only token by default, actions pinned by
 * commit, and a secret only in a job that runs for a push to main alone, in an environment (whose secrets
 * GitHub hands only to the branches it allows), after another job. Returns the jobs.
 */
function githubLeastPrivilege(workflow: Yaml, page: string): Record<string, Yaml> {
  const on = workflow.on;
  const triggers = typeof on === 'string' ? [on] : Array.isArray(on) ? on.map(String) : Object.keys(on as Yaml);
  assert.ok(!triggers.includes('pull_request_target'), `${page}: pull_request_target runs with the base repository's secrets: never`);
  assert.deepEqual(workflow.permissions, { contents: 'read' }, `${page}: the workflow's token reads only, unless a job says otherwise`);
  assert.deepEqual(secretsIn(workflow.env), [], `${page}: the workflow hands no secret to every job`);
  const jobs = workflow.jobs as Record<string, Yaml>;
  let holders = 0;
  for (const [name, job] of Object.entries(jobs)) {
    for (const step of job.steps as Yaml[]) {
      if (step.uses !== undefined)
        assert.match(String(step.uses), /^[\w.-]+\/[\w./-]+@[0-9a-f]{40}$/, `${page}, job ${name}: ${String(step.uses)} is pinned by commit`);
    }
    const held = secretsIn(job);
    if (held.length === 0) continue;
    holders++;
    const when = conjuncts(job.if);
    assert.ok(
      when.includes("github.ref == 'refs/heads/main'") && when.includes("github.event_name == 'push'"),
      `${page}: job ${name} holds ${held.join(', ')} but runs for more than a push to main (if: ${String(job.if)})`,
    );
    assert.ok(
      typeof job.environment === 'string' && job.environment !== '',
      `${page}: job ${name} holds ${held.join(', ')} outside an environment that keeps it`,
    );
    assert.ok(job.needs !== undefined, `${page}: job ${name} holds ${held.join(', ')} but does not wait for the tests`);
  }
  assert.ok(holders > 0, `${page}: some job deploys with a key`);
  return jobs;
}

/**
 * The same for GitLab, where keys are CI/CD variables, not YAML: none in the file's own variables, and every
 * job that names an environment (whose scoped variables it then gets) or a secret runs only on the protected
 * default branch, after another job.
 */
function gitlabLeastPrivilege(config: Yaml, page: string): void {
  assert.deepEqual(secretsIn(config.variables), [], `${page}: no secret in the global variables`);
  assert.deepEqual(secretsIn(config.default), [], `${page}: no secret in the defaults every job inherits`);
  const jobs = Object.entries(config).filter(([key]) => !GITLAB_GLOBAL.includes(key)) as [string, Yaml][];
  let holders = 0;
  for (const [name, job] of jobs) {
    const held = secretsIn(job);
    if (held.length === 0 && job.environment === undefined) continue;
    holders++;
    const what = held.length > 0 ? held.join(', ') : `the variables of environment ${JSON.stringify(job.environment)}`;
    const rules = job.rules as Yaml[] | undefined;
    assert.ok(Array.isArray(rules) && rules.length > 0, `${page}: job ${name} holds ${what} but has no rules: it runs on every branch`);
    for (const rule of rules) {
      const when = conjuncts(rule.if);
      assert.ok(
        when.includes('$CI_COMMIT_BRANCH == $CI_DEFAULT_BRANCH') && when.includes('$CI_COMMIT_REF_PROTECTED == "true"'),
        `${page}: job ${name} holds ${what} but a rule lets it run off the protected default branch (if: ${String(rule.if)})`,
      );
    }
    const environment = job.environment as Yaml | undefined;
    assert.ok(environment && typeof environment.name === 'string', `${page}: job ${name} holds ${what} outside a protected environment`);
    assert.ok(Array.isArray(job.needs) && job.needs.length > 0, `${page}: job ${name} holds ${what} but does not wait for the tests`);
  }
  assert.ok(holders > 0, `${page}: some job deploys`);
}

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

  it('GitHub Actions: no key in a job that a branch or pull request runs; only the deploy job has it, from main, in its environment, after the checks', () => {
    const jobs = githubLeastPrivilege(github(), 'docs/cli.md');
    assert.deepEqual(secretsIn(jobs.check), [], 'the check job, which runs every branch and pull request, has no key');
    assert.equal(jobs.deploy!.environment, 'production');
    assert.equal(jobs.deploy!.needs, 'check');
    assert.ok(
      secretsIn(jobs.deploy).some((s) => s.includes('CUSTOM_ACTIONS_KEY')),
      'the deploy job has the key',
    );
  });

  it('GitLab CI: no key in a job that a branch or merge request runs; only the deploy job, on the protected default branch and in a protected environment, gets it', () => {
    const config = gitlab();
    gitlabLeastPrivilege(config, 'docs/cli.md');
    const check = config.check as Yaml;
    assert.deepEqual(secretsIn(check), [], 'the check job, which runs every branch and merge request, has no key');
    assert.equal(check.environment, undefined, 'the check job names no environment, whose variables it would get');
    assert.equal(((config.deploy as Yaml).environment as Yaml).name, 'production');
    assert.deepEqual((config.deploy as Yaml).needs, ['check']);
  });

  it("docs/environments.md's pipelines: each target's key only in its deploy or promote job, from the protected main branch, in that target's environment", () => {
    const jobs = githubLeastPrivilege(pipeline('GitHub Actions (environments', 'environments.md'), 'docs/environments.md');
    assert.deepEqual(secretsIn(jobs.test), [], 'GitHub: the test job has no key');
    assert.equal(jobs.deploy!.environment, 'staging');
    assert.ok(!secretsIn(jobs.deploy).some((s) => s.includes('PRODUCTION')), "GitHub: the staging deploy has no key of production's");
    assert.equal(jobs.promote!.environment, 'production');
    const config = pipeline('GitLab CI (`staging` and `production`', 'environments.md');
    gitlabLeastPrivilege(config, 'docs/environments.md');
    assert.deepEqual(secretsIn(config.test), [], 'GitLab: the test job has no key');
    assert.equal((config.test as Yaml).environment, undefined, 'GitLab: the test job names no environment, whose variables it would get');
    assert.equal(((config.deploy as Yaml).environment as Yaml).name, 'staging');
    assert.equal(((config.promote as Yaml).environment as Yaml).name, 'production');
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

  it('their custom-actions steps, in order as a runner runs them, pass: the checks with no key (locally and on a throwaway sandbox), the deploy with it', async function () {
    this.timeout(240_000);
    const bin = installedCommand(scratch.dir());
    const githubJobs = github().jobs as Record<string, Yaml>;
    const config = gitlab();
    /** Each job's steps that call the command (the lock's commit is tested above). */
    const scripts = (system: 'GitHub' | 'GitLab', job: string): string[] =>
      (system === 'GitHub'
        ? (githubJobs[job]!.steps as Yaml[]).flatMap((s) => (s.run === undefined ? [] : [String(s.run)]))
        : ((config[job] as Yaml).script as unknown[]).map(String)
      ).filter((script) => lines([script]).some((l) => l.startsWith('custom-actions ')));
    for (const system of ['GitHub', 'GitLab'] as const) {
      const dir = scratch.dir();
      writeProject(dir, fixture.sandbox.url);
      const folder = writeAction(dir, 'app-a', actionMetadata({ key: `piped-${system.toLowerCase()}` }), textMain('piped'));
      writeInputSet(folder, 'returns', { inputs: {}, expect: { result: 'piped' } });
      // As a runner gives them: CI set, the installed command on the PATH, and nothing of this machine's keys.
      const branchEnv = { PATH: `${bin}${path.delimiter}${process.env.PATH ?? ''}`, HOME: dir, CI: 'true' };
      const check = scripts(system, 'check');
      assert.ok(
        check.some((s) => s.includes('custom-actions sandbox start')) && check.some((s) => s.includes('custom-actions test --env Test')),
        `${system}: the checks test on a throwaway sandbox`,
      );
      for (const script of check) {
        const result = await runScript(script, dir, branchEnv);
        assert.equal(result.code, 0, `${system} check, with no key: ${script}\n${result.output}`);
      }
      assert.ok(existsSync(path.join(dir, 'test-results.xml')), `${system}: the JUnit report is written where the pipeline reads it`);
      const deploy = scripts(system, 'deploy');
      assert.deepEqual(deploy, ['custom-actions deploy'], `${system}: the deploy job deploys`);
      for (const script of deploy) {
        const result = await runScript(script, dir, { ...branchEnv, CUSTOM_ACTIONS_KEY: keyOf(fixture.sandbox, 'app-a') });
        assert.equal(result.code, 0, `${system} deploy: ${script}\n${result.output}`);
      }
      const servers = Object.keys((JSON.parse(readFileSync(path.join(dir, 'customactions.lock.json'), 'utf8')) as { servers: Yaml }).servers);
      // Loopback's identity is one name whatever the spelling: the port tells the suite's server from the throwaway one.
      const port = new URL(fixture.sandbox.url).port;
      assert.ok(
        servers.some((server) => new URL(server).port === port),
        `${system}: the deploy wrote its server into the lock the last step commits (${servers.join(', ')})`,
      );
    }
  });
});
