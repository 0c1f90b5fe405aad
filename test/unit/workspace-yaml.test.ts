import * as assert from 'node:assert/strict';
import { addApplication, parseActionYaml, parseProjectFile, removeApplication, serializeActionYaml, updateActionYaml } from '../../src/core/workspace';

const ACTION = `# Scores a lead from its company data.
key: score-lead # stable: the platform refers to it
name: Score lead
description: Scores a lead
developerEmail: dev@example.com
owner: team-a
parameters:
  # the company, as typed
  - name: company
    type: text
  - name: tier
    type:
      type: single-choice
      choices:
        - id: gold
          label: Gold
result:
  type: number
`;

describe('action.yaml', () => {
  it('reads valid metadata, keeping unknown fields in the value', () => {
    const parsed = parseActionYaml(ACTION);
    assert.deepEqual(parsed.problems, []);
    assert.equal(parsed.metadata?.key, 'score-lead');
    assert.equal((parsed.value as Record<string, unknown>).owner, 'team-a');
  });

  it('positions a schema problem on the failing node', () => {
    const parsed = parseActionYaml(ACTION.replace('developerEmail: dev@example.com', 'developerEmail: nope'));
    assert.equal(parsed.metadata, undefined);
    assert.equal(parsed.problems.length, 1);
    const [problem] = parsed.problems;
    assert.equal(problem?.message, 'must be an e-mail address');
    assert.deepEqual(problem?.range.start, { line: 4, character: 16, offset: ACTION.indexOf('dev@example.com') });
  });

  it('points a missing field at its parent', () => {
    const text = ACTION.replace('  - name: company\n    type: text\n', '  - name: company\n');
    const [problem] = parseActionYaml(text).problems;
    assert.deepEqual(problem?.path, ['parameters', 0, 'type']);
    assert.equal(problem?.message, 'required');
    assert.equal(problem?.range.start.line, 8);
  });

  it('turns bad YAML into a positioned problem instead of throwing', () => {
    const parsed = parseActionYaml('key: [unclosed\nname: x\n');
    assert.equal(parsed.metadata, undefined);
    assert.ok(parsed.problems.length > 0);
    assert.equal(typeof parsed.problems[0]?.range.start.line, 'number');
  });

  it('round-trips an unchanged value byte for byte', () => {
    assert.equal(updateActionYaml(ACTION, parseActionYaml(ACTION).value), ACTION);
  });

  it('changes one field and keeps every comment, the order and unknown fields', () => {
    const value = structuredClone(parseActionYaml(ACTION).value) as Record<string, unknown>;
    value.name = 'Score a lead';
    (value.parameters as Record<string, unknown>[]).push({ name: 'size', type: 'number' });
    const next = updateActionYaml(ACTION, value);
    assert.equal(
      next,
      ACTION.replace('name: Score lead', 'name: Score a lead').replace('result:\n', '  - name: size\n    type: number\nresult:\n'),
    );
  });

  it('removes what the new value lacks', () => {
    const value = structuredClone(parseActionYaml(ACTION).value) as Record<string, unknown>;
    delete value.owner;
    assert.equal(updateActionYaml(ACTION, value), ACTION.replace('owner: team-a\n', ''));
  });

  it('writes a new file in the spec order', () => {
    const text = serializeActionYaml({ result: { type: 'text' }, parameters: [], developerEmail: 'a@b.co', description: '', name: 'N', key: 'k' });
    assert.equal(text, 'key: k\nname: N\ndescription: ""\ndeveloperEmail: a@b.co\nparameters: []\nresult:\n  type: text\n');
    assert.ok(parseActionYaml(text).metadata);
  });
});

describe('customactions.yaml', () => {
  const PROJECT = '# our platform\nbaseUrl: https://platform.example.com\napplications:\n  - id: a1 # billing\n    name: Billing\n    folder: billing\n';

  it('reads the server and the applications', () => {
    const { project, problems } = parseProjectFile(PROJECT);
    assert.deepEqual(problems, []);
    assert.equal(project?.baseUrl, 'https://platform.example.com');
    assert.deepEqual(project?.applications, [{ id: 'a1', name: 'Billing', folder: 'billing' }]);
  });

  it('accepts local-sandbox and rejects folders outside the workspace', () => {
    assert.ok(parseProjectFile('baseUrl: local-sandbox\nsandbox: { demo: true }\napplications: []\n').project);
    const bad = parseProjectFile('baseUrl: ftp://x\napplications:\n  - id: a\n    folder: ../x\n');
    assert.deepEqual(
      bad.problems.map((p) => `${p.path.join('.')}: ${p.message}`),
      ['baseUrl: must be an http(s) URL or "local-sandbox"', 'applications.0.folder: must be a relative path inside the workspace'],
    );
  });

  it('adds and removes applications keeping comments', () => {
    const added = addApplication(PROJECT, { id: 'a2', name: 'CRM', folder: 'crm' });
    assert.equal(added, PROJECT + '  - id: a2\n    name: CRM\n    folder: crm\n');
    assert.equal(removeApplication(added, 'a2'), PROJECT);
    assert.equal(removeApplication(PROJECT, 'missing'), PROJECT);
  });
});
