import * as assert from 'node:assert/strict';
import { checkInputs as inputSetCheck, parseSimple, runInputProblems } from '../../src/core/events';
import { type SimpleType } from '../../src/core/schema';
import { checkInputs as sandboxCheck } from '../../src/sandbox/runner/inputs';
import { inputCases } from '../support/inputCases';
import { actionMetadata } from '../support/metadata';

/**
 * Every case a client accepts the sandbox accepts, and the reverse (docs/api.md, *Running an
 * action*): the client's faces (Run and `custom-actions run` by `runInputProblems`, an input set by
 * `checkInputs`) against the sandbox's run endpoint and local harness (`checkInputs` of its runner).
 * test/sandbox/run-inputs-agree.test.ts sends the same cases over HTTP.
 */
describe('Run inputs: one verdict on both sides of the wire', () => {
  for (const c of inputCases()) {
    it(c.name, () => {
      const metadata = actionMetadata({ key: 'k', parameters: [c.parameter] });
      const server = sandboxCheck(metadata, c.inputs).ok;
      const client = runInputProblems([c.parameter], c.inputs).length === 0;
      assert.equal(client, server, `client ${client ? 'accepts' : 'refuses'}, sandbox ${server ? 'accepts' : 'refuses'} ${JSON.stringify(c.inputs)}`);
      if (c.inputs !== null && typeof c.inputs === 'object' && !Array.isArray(c.inputs))
        assert.equal(inputSetCheck([c.parameter], c.inputs).length === 0, server, 'an input set of these inputs');
      if (c.known) assert.equal(server ? 'accepted' : 'refused', c.known);
    });
  }

  it('what the form makes of typed text, spaces around it included, the sandbox accepts', () => {
    const typed: Record<SimpleType, string[]> = {
      text: ['', ' a ', 'x'],
      number: [' 42 ', '-3.5', '1e3', ' 0x10 ', 'ten', ''],
      datetime: [' 2024-05-01T12:00:00Z ', '2024-05-01', '\t2024-05-01 12:00\n', 'soon'],
      email: [' ada@example.com ', 'ada@example.com\n', 'ada@'],
    };
    for (const [type, texts] of Object.entries(typed) as [SimpleType, string[]][]) {
      for (const text of texts) {
        const parsed = parseSimple(type, text);
        if (!parsed.ok) continue;
        const metadata = actionMetadata({ key: 'k', parameters: [{ name: 'value', type }] });
        assert.ok(sandboxCheck(metadata, { value: parsed.value }).ok, `${type} typed as ${JSON.stringify(text)} became ${JSON.stringify(parsed.value)}`);
      }
    }
  });
});
