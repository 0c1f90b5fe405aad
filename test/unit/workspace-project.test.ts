import * as assert from 'node:assert/strict';
import { addApplication, parseProjectFile, removeApplication, serializeProjectFile } from '../../src/core/workspace';
import { isHttpUrl } from '../../src/core/schema';

const PROJECT = '# our platform\nbaseUrl: https://platform.example.com\napplications:\n  - id: a1 # billing\n    name: Billing\n    folder: billing\n';

function messages(text: string): string[] {
  return parseProjectFile(text).problems.map((p) => `${p.path.join('.')}: ${p.message}`);
}

describe('customactions.yaml', () => {
  it('reads the server and the applications', () => {
    const { project, problems } = parseProjectFile(PROJECT);
    assert.deepEqual(problems, []);
    assert.equal(project?.baseUrl, 'https://platform.example.com');
    assert.deepEqual(project?.applications, [{ id: 'a1', name: 'Billing', folder: 'billing' }]);
  });

  it('accepts local-sandbox with the demo option, and an application without a name', () => {
    const { project } = parseProjectFile('baseUrl: local-sandbox\nsandbox: { demo: true }\napplications:\n  - id: a\n    folder: apps/a\n');
    assert.equal(project?.baseUrl, 'local-sandbox');
    assert.deepEqual(project?.sandbox, { demo: true });
    assert.deepEqual(project?.applications, [{ id: 'a', folder: 'apps/a' }]);
  });

  it('rejects other URLs, folders outside the workspace, duplicate ids and missing fields', () => {
    assert.deepEqual(messages('baseUrl: ftp://x\napplications:\n  - id: a\n    folder: ../x\n'), [
      'baseUrl: must be an http(s) URL or "local-sandbox"',
      'applications.0.folder: must be a relative path inside the workspace',
    ]);
    assert.deepEqual(messages('baseUrl: http://localhost:8080\napplications:\n  - id: a\n    folder: /abs\n  - id: a\n    folder: b\n'), [
      'applications.0.folder: must be a relative path inside the workspace',
      'applications.1.id: duplicate application id "a"',
    ]);
    assert.deepEqual(messages('sandbox: { demo: yes please }\n'), ['baseUrl: required', 'sandbox.demo: must be a boolean', 'applications: required']);
  });

  it('positions problems on the failing node', () => {
    const text = 'baseUrl: https://x.example\napplications:\n  - id: a\n    folder: ../up\n';
    const [problem] = parseProjectFile(text).problems;
    assert.deepEqual(problem?.range, {
      start: { line: 3, character: 12, offset: text.indexOf('../up') },
      end: { line: 3, character: 17, offset: text.indexOf('../up') + 5 },
    });
  });

  it('adds and removes applications keeping comments', () => {
    const added = addApplication(PROJECT, { id: 'a2', name: 'CRM', folder: 'crm' });
    assert.equal(added, PROJECT + '  - id: a2\n    name: CRM\n    folder: crm\n');
    assert.equal(removeApplication(added, 'a2'), PROJECT);
    assert.equal(removeApplication(PROJECT, 'missing'), PROJECT);
    assert.equal(removeApplication(PROJECT, 'a1'), '# our platform\nbaseUrl: https://platform.example.com\napplications: []\n');
  });

  it('updates an application already listed instead of listing it twice', () => {
    assert.equal(addApplication(PROJECT, { id: 'a1', name: 'Invoices', folder: 'billing' }), PROJECT.replace('Billing', 'Invoices'));
    assert.equal(addApplication(PROJECT, { id: 'a1', folder: 'billing' }), PROJECT.replace('    name: Billing\n', ''));
  });

  it('adds to an empty or missing list', () => {
    const entry = { id: 'a', name: 'A', folder: 'a' };
    assert.equal(
      addApplication('baseUrl: local-sandbox # try it\napplications: []\n', entry),
      'baseUrl: local-sandbox # try it\napplications:\n  - id: a\n    name: A\n    folder: a\n',
    );
    assert.equal(addApplication('baseUrl: local-sandbox\n', entry), 'baseUrl: local-sandbox\napplications:\n  - id: a\n    name: A\n    folder: a\n');
  });

  it('refuses to edit text that is not YAML', () => {
    assert.throws(() => addApplication('baseUrl: [', { id: 'a', folder: 'a' }), /not valid YAML/);
  });

  it('writes a new project file that reads back', () => {
    const text = serializeProjectFile({ baseUrl: 'local-sandbox', sandbox: { demo: true }, applications: [{ id: 'demo', name: 'Demo', folder: 'demo' }] });
    assert.equal(text, 'baseUrl: local-sandbox\nsandbox:\n  demo: true\napplications:\n  - id: demo\n    name: Demo\n    folder: demo\n');
    assert.deepEqual(parseProjectFile(text).problems, []);
    assert.equal(serializeProjectFile({ baseUrl: 'https://p.example', applications: [] }), 'baseUrl: https://p.example\napplications: []\n');
  });
});

describe('isHttpUrl: the base URLs the project file accepts, wherever one is typed', () => {
  it('accepts http and https URLs with a host, and nothing else', () => {
    assert.deepEqual(
      ['https://platform.example.com', 'http://127.0.0.1:4000', 'ftp://x', 'http://', 'https://a b', 'example.com', 'local-sandbox'].map(isHttpUrl),
      [true, true, false, false, false, false, false],
    );
  });
});
