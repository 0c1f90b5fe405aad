import assert from 'node:assert/strict';
import { canonicalJson, codeHash, metadataFields, metadataHash } from '../../src/core/deploy/base';
import { ADD_ACTION } from '../support/metadata';

describe('deploy base: content hashes', () => {
  it('hashes code by its exact text, apart from a leading byte order mark', () => {
    const code = 'export function main() {\n  return 1;\n}\n';
    assert.match(codeHash(code), /^sha256:[0-9a-f]{64}$/);
    assert.equal(codeHash(code), codeHash(code));
    assert.equal(codeHash(`\uFEFF${code}`), codeHash(code));
    assert.notEqual(codeHash(code.replace(/\n/g, '\r\n')), codeHash(code));
    assert.notEqual(codeHash(`${code} `), codeHash(code));
    // A known value, so a change of the hash (and with it of every recorded base) is noticed.
    assert.equal(codeHash(''), 'sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
  });

  it('writes canonical JSON: members sorted, no whitespace, undefined left out as JSON does', () => {
    assert.equal(canonicalJson({ b: 1, a: [true, null, undefined, 'x'], c: { z: undefined, y: -0 } }), '{"a":[true,null,null,"x"],"b":1,"c":{"y":0}}');
    assert.equal(canonicalJson({ é: 1, Z: 2, a: 3 }), '{"Z":2,"a":3,"é":1}');
    assert.equal(canonicalJson('line\nbreak'), '"line\\nbreak"');
    assert.equal(canonicalJson(undefined), 'null');
  });

  it("hashes metadata by content: member order and the server's own fields do not count", () => {
    const reordered = JSON.parse(JSON.stringify(Object.fromEntries(Object.entries(ADD_ACTION).reverse()))) as object;
    const resource = { id: 'a1', ...ADD_ACTION, eventsUrls: { Test: 'http://h/t/events' }, hasImplementation: true, updatedAt: '2026-01-01T00:00:00Z' };
    assert.equal(metadataHash(reordered), metadataHash(ADD_ACTION));
    assert.equal(metadataHash(resource), metadataHash(ADD_ACTION));
    assert.deepEqual(metadataFields(resource), ADD_ACTION);
    assert.equal(metadataHash({ ...ADD_ACTION, extra: undefined }), metadataHash(ADD_ACTION));
  });

  it('tells different metadata apart, parameter order included', () => {
    const swapped = { ...ADD_ACTION, parameters: [...ADD_ACTION.parameters].reverse() };
    assert.notEqual(metadataHash(swapped), metadataHash(ADD_ACTION));
    assert.notEqual(metadataHash({ ...ADD_ACTION, description: 'Adds two numbers.' }), metadataHash(ADD_ACTION));
    assert.notEqual(metadataHash({ ...ADD_ACTION, unknownField: 1 }), metadataHash(ADD_ACTION), 'fields the schema does not know are metadata too');
  });

  it('refuses a value nested deeper than metadata can be, rather than overflowing the stack', () => {
    let deep: unknown = 'bottom';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.throws(() => metadataHash({ key: 'k', result: deep }), RangeError);
  });
});
