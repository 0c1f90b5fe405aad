import * as assert from 'node:assert/strict';
import { projectJsonSchema } from '../../src/core/schema/jsonSchema';
import {
  applicationsOn,
  branchMatches,
  branchTarget,
  chooseTarget,
  ciBranch,
  defaultTarget,
  describeTargetChoice,
  inCi,
  isTargetProblem,
  parseProjectFile,
  projectTargets,
  type TargetChoice,
} from '../../src/core/workspace';

const PROJECT = `baseUrl: local-sandbox
applications:
  - id: billing
    folder: billing
  - id: crm
    folder: crm
targets:
  staging:
    baseUrl: https://staging.example.com
    applications: { billing: stg-billing, crm: stg-crm }
  production:
    baseUrl: https://actions.example.com
    protected: true
    applications: { billing: prod-billing }
branches:
  main: production
  'release/*': staging
  '*': staging
`;

function project(text = PROJECT) {
  const parsed = parseProjectFile(text);
  assert.deepEqual(parsed.problems, []);
  return parsed.project!;
}

function messages(text: string): string[] {
  return parseProjectFile(text).problems.map((p) => `${p.path.join('.')}: ${p.message}`);
}

function chosen(choice: ReturnType<typeof chooseTarget>): TargetChoice {
  if (isTargetProblem(choice)) assert.fail(choice.problem);
  return choice;
}

describe('targets of customactions.yaml', () => {
  it('a file of one server is one target, the default, named default', () => {
    const file = project('baseUrl: https://x.example\napplications:\n  - id: a\n    folder: a\n');
    assert.deepEqual(projectTargets(file), [
      { name: 'default', baseUrl: 'https://x.example', protected: false, isDefault: true, named: false, applicationIds: { a: 'a' } },
    ]);
    assert.deepEqual(chooseTarget(file, {}), { target: defaultTarget(file), why: { source: 'default' } });
  });

  it('reads named targets: their servers, ids (an application left out keeps its id) and protection', () => {
    const [own, staging, production] = projectTargets(project());
    assert.equal(own!.isDefault, true);
    assert.deepEqual(staging, {
      name: 'staging',
      baseUrl: 'https://staging.example.com',
      protected: false,
      isDefault: false,
      named: true,
      applicationIds: { billing: 'stg-billing', crm: 'stg-crm' },
    });
    assert.equal(production!.protected, true);
    assert.deepEqual(production!.applicationIds, { billing: 'prod-billing', crm: 'crm' });
    assert.deepEqual(
      applicationsOn(production!, project().applications).map((a) => [a.projectId, a.id, a.folder]),
      [
        ['billing', 'prod-billing', 'billing'],
        ['crm', 'crm', 'crm'],
      ],
    );
  });

  it('a target marked default is the default', () => {
    const file = project(PROJECT.replace('    baseUrl: https://staging.example.com\n', '    baseUrl: https://staging.example.com\n    default: true\n'));
    assert.equal(defaultTarget(file).name, 'staging');
  });

  it('refuses two defaults, a target named default, unknown applications and branches to unknown targets', () => {
    assert.deepEqual(
      messages(`baseUrl: https://x.example
applications:
  - id: a
    folder: a
targets:
  default: { baseUrl: https://d.example }
  one: { baseUrl: https://one.example, default: true, applications: { b: x } }
  two: { baseUrl: https://two.example, default: true }
branches:
  main: prod
`),
      [
        'targets.default: "default" is the name of the file\'s own baseUrl and ids',
        'targets.two.default: only one target can be the default (one is)',
        'targets.one.applications.b: no application "b" in the applications list',
        'branches.main: no target "prod" in targets',
      ],
    );
    assert.deepEqual(messages('baseUrl: https://x.example\napplications: []\ntargets:\n  "prod env": { baseUrl: ftp://x }\n'), [
      'targets.prod env: must start with a letter and hold only letters, digits, _ and - (at most 40)',
    ]);
    assert.deepEqual(messages('baseUrl: https://x.example\napplications: []\ntargets:\n  prod: { baseUrl: ftp://x }\n'), [
      'targets.prod.baseUrl: must be an http(s) URL or "local-sandbox"',
    ]);
  });

  it('chooses by the name given, then the variable, then the branch, then the default', () => {
    const file = project();
    const branch = { name: 'main', from: 'GITHUB_REF_NAME' };
    const env = { CUSTOM_ACTIONS_TARGET: 'staging' };
    assert.equal(chosen(chooseTarget(file, { given: 'production', env, branch })).why.source, 'flag');
    assert.deepEqual(chosen(chooseTarget(file, { env, branch })).why, { source: 'variable', variable: 'CUSTOM_ACTIONS_TARGET' });
    const byBranch = chosen(chooseTarget(file, { branch }));
    assert.equal(byBranch.target.name, 'production');
    assert.equal(describeTargetChoice(byBranch), "production at https://actions.example.com (branch main from GITHUB_REF_NAME, branches: 'main')");
    assert.equal(chosen(chooseTarget(file, {})).target.name, 'default');
  });

  it('a name the file does not have is a problem, never another target', () => {
    const choice = chooseTarget(project(), { given: 'prod' });
    assert.ok(isTargetProblem(choice));
    assert.match(choice.problem, /--target names the target "prod"/);
    assert.deepEqual(choice.known, ['default', 'staging', 'production']);
  });

  it('a branch no entry matches goes to the default, and says so', () => {
    const file = project('baseUrl: https://x.example\napplications: []\ntargets:\n  prod: { baseUrl: https://p.example }\nbranches:\n  main: prod\n');
    const choice = chosen(chooseTarget(file, { branch: { name: 'feature/x', from: 'git' } }));
    assert.equal(choice.target.name, 'default');
    assert.match(describeTargetChoice(choice), /branch feature\/x from git matches no entry of branches/);
  });

  it('matches branches: the exact name first, then patterns in order, * across slashes', () => {
    const branches = { '*': 'staging', 'release/*': 'release', main: 'production' };
    assert.deepEqual(branchTarget(branches, 'main'), { pattern: 'main', target: 'production' });
    assert.deepEqual(branchTarget(branches, 'release/1.2'), { pattern: '*', target: 'staging' });
    assert.deepEqual(branchTarget({ 'release/*': 'release', '*': 'staging' }, 'release/1.2/fix'), { pattern: 'release/*', target: 'release' });
    assert.equal(branchTarget({ main: 'production' }, 'mainline'), undefined);
    assert.ok(branchMatches('v1.*', 'v1.2'));
    assert.ok(!branchMatches('v1.*', 'v102'));
    assert.ok(!branchMatches('(a|b)', 'a'));
  });

  it("reads the branch from the CI's own variables, and knows a CI", () => {
    assert.deepEqual(ciBranch({ GITHUB_REF_NAME: 'main' }), { name: 'main', from: 'GITHUB_REF_NAME' });
    assert.deepEqual(ciBranch({ CI_COMMIT_REF_NAME: 'release/2' }), { name: 'release/2', from: 'CI_COMMIT_REF_NAME' });
    assert.equal(ciBranch({ GITHUB_REF_NAME: ' ' }), undefined);
    assert.ok(inCi({ CI: 'true' }));
    assert.ok(inCi({ GITLAB_CI: 'true' }));
    assert.ok(!inCi({ CI: 'false' }));
    assert.ok(!inCi({}));
  });

  it('the JSON Schema completes targets and branches', () => {
    const schema = projectJsonSchema() as {
      properties: Record<string, { additionalProperties?: { properties?: Record<string, unknown> }; propertyNames?: unknown }>;
    };
    assert.deepEqual(Object.keys(schema.properties.targets!.additionalProperties!.properties!).sort(), ['applications', 'baseUrl', 'default', 'protected']);
    assert.ok(schema.properties.targets!.propertyNames);
    assert.ok(schema.properties.branches);
  });
});
