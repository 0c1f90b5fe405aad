import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import Ajv2020 from 'ajv/dist/2020';
import { INPUT_SET_JSON_SCHEMA, parseInputSetFile } from '../../src/core/testing';

/** The schema the editor completes input sets with says what the parser reads, no more and no less. */
describe('testing: the JSON Schema of input set files', () => {
  const validate = new Ajv2020({ strict: false }).compile(INPUT_SET_JSON_SCHEMA);
  const validateCase = new Ajv2020({ strict: false }).compile(INPUT_SET_JSON_SCHEMA.anyOf[0]);
  const files: [string, boolean][] = [
    ['{"a": 1, "b": 2}', true],
    ['{"inputs": {"a": 1}, "expect": {"result": 3}, "description": "adds"}', true],
    ['{"inputs": {"a": 1}, "expect": {"resultContains": {"x": 1}}}', true],
    ['{"inputs": {"a": 1}, "expect": {"error": true}}', true],
    ['{"inputs": {"a": 1}, "expect": {"error": {"message": "^bad", "name": "TypeError"}}}', true],
    ['{"inputs": {"a": 1}, "expect": {"result": 1, "error": true}}', false],
    ['{"inputs": {"a": 1}, "expect": {"resultContains": 3}}', false],
    ['{"inputs": {"a": 1}, "expect": {"error": {"code": 1}}}', false],
  ];

  for (const [text, valid] of files) {
    it(`${valid ? 'accepts' : 'refuses'} ${text}`, () => {
      const value: unknown = JSON.parse(text);
      const parsed = parseInputSetFile(text, undefined);
      // A case form the schema refuses falls back to its plain branch only when the parser reads it as plain too.
      const schemaOk = validate(value) && (parsed.form === 'plain' || validateCase(value));
      assert.equal(schemaOk, valid, JSON.stringify(validate.errors));
      assert.equal(parsed.problems.length === 0, valid, JSON.stringify(parsed.problems));
    });
  }

  it('is the file package.json contributes for inputs/*.json', () => {
    const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as { contributes: { jsonValidation: { fileMatch: string[]; url: string }[] } };
    const entry = manifest.contributes.jsonValidation.find((v) => v.url === './dist/input-set.schema.json');
    assert.deepEqual(entry?.fileMatch, ['**/inputs/*.json']);
    const build = readFileSync('esbuild.mjs', 'utf8');
    assert.match(build, /dist\/input-set\.schema\.json'\), JSON\.stringify\(testing\.INPUT_SET_JSON_SCHEMA/);
  });
});
