import * as assert from 'node:assert/strict';
import { documentState, setIn } from '../../src/core/webview';
import { updateActionYaml } from '../../src/core/workspace';

/**
 * The form's round trip as it happens in VS Code: the host posts the document's value to the webview
 * (postMessage serialises it as JSON), the form changes one path and sends its whole value back (as
 * JSON again), and the host applies it to the text. What JSON cannot carry (.inf, .nan, integers
 * beyond 2^53, aliases) arrives changed in fields the user never touched; those must stay as written.
 */
function formEdit(text: string, path: readonly (string | number)[], next: unknown): string {
  const state = documentState(text);
  assert.equal(state.kind, 'value');
  const shown = JSON.parse(JSON.stringify(state.kind === 'value' ? state.value : {})) as Record<string, unknown>;
  const sent = JSON.parse(JSON.stringify(setIn(shown, path, next))) as Record<string, unknown>;
  return updateActionYaml(text, sent);
}

const ODD = `# hand-written, with values JSON cannot carry
key: score-lead    # spaced as the author likes
name: 'Score lead' # single-quoted on purpose
description: "Scores a \\"lead\\""
developerEmail: dev@example.com
x-weight: .inf
x-floor: -.inf
x-unknown: .nan
x-big: 12345678901234567890123
x-just-over: 9007199254740993
x-hex: 0x1F
x-tagged: !!str 123
x-nothing: ~
x-defaults: &text-type
  type: text
parameters:
  - name: company # the company, as typed
    type: text
    x-score: .inf
    x-id: 18446744073709551615
  - name: tier
    type: *text-type
result:
  type: number
`;

describe('Metadata form edits keep what they did not edit', () => {
  it('an edited name changes that line only: .inf, -.inf, .nan, big integers, tags, anchors and comments stay', () => {
    const next = formEdit(ODD, ['name'], 'Score a lead');
    assert.equal(next, ODD.replace("name: 'Score lead' #", "name: 'Score a lead' #"));
  });

  it('an edit inside a list item keeps the item’s .inf and its integer beyond 2^53', () => {
    const next = formEdit(ODD, ['parameters', 0, 'description'], 'Who is buying');
    // The form adds a field at the end of its item, so the file gets it there too.
    assert.equal(next, ODD.replace('    x-id: 18446744073709551615\n', '    x-id: 18446744073709551615\n    description: Who is buying\n'));
  });

  it('an edit of the item holding an alias keeps the alias', () => {
    const next = formEdit(ODD, ['parameters', 1, 'name'], 'level');
    assert.equal(next, ODD.replace('  - name: tier', '  - name: level'));
  });

  it('a removed parameter takes only its own lines; the others keep their odd values', () => {
    const next = formEdit(ODD, ['parameters', 1], undefined);
    assert.equal(next, ODD.replace('  - name: tier\n    type: *text-type\n', ''));
  });

  it('a reordered list keeps each item’s values and comments', () => {
    const state = documentState(ODD);
    assert.ok(state.kind === 'value');
    const shown = JSON.parse(JSON.stringify(state.value)) as { parameters: unknown[] };
    const sent = JSON.parse(JSON.stringify({ ...shown, parameters: [shown.parameters[1], shown.parameters[0]] })) as Record<string, unknown>;
    const next = updateActionYaml(ODD, sent);
    const first = '  - name: company # the company, as typed\n    type: text\n    x-score: .inf\n    x-id: 18446744073709551615\n';
    const second = '  - name: tier\n    type: *text-type\n';
    assert.equal(next, ODD.replace(first + second, second + first));
  });

  it('an unknown field the form sends back as null, having shown .nan, stays .nan; a value the user did set is written', () => {
    const next = formEdit(ODD, ['x-unknown'], 'now text');
    assert.match(next, /^x-unknown: now text$/m);
    assert.match(next, /^x-weight: \.inf$/m);
    assert.equal(formEdit(ODD, ['x-weight'], null), ODD, 'null where the document holds .inf is how JSON carries .inf: not an edit');
  });

  it('an unchanged value sent back through JSON leaves the text byte for byte', () => {
    const state = documentState(ODD);
    assert.ok(state.kind === 'value');
    assert.equal(updateActionYaml(ODD, JSON.parse(JSON.stringify(state.value)) as Record<string, unknown>), ODD);
  });
});
