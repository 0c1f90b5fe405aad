import { LineCounter, parseDocument } from 'yaml';
import { type Parameter } from '../schema';
import { whyUnreadable } from '../client/eventBounds';
import { checkInputs, INPUT_SET_MAX_CHARS } from '../events/inputs';
import { type PositionedProblem, rangeOf, rangeOfPath } from '../workspace/positions';
import { type Expectation } from './expectation';
import { compilePattern } from './pattern';

/**
 * An input set file (`inputs/<name>.json` beside action.yaml), in one of two forms:
 *
 * - plain: the inputs themselves, `{"a": 1, "b": 2}` (what Save as Input Set has always written);
 * - test case: `{"inputs": {...}, "expect": {...}, "description": "..."}`, where `expect` is one of
 *   `{"result": value}`, `{"resultContains": {...}}` or `{"error": true | {"message": "regex", "name": "TypeError"}}`.
 *
 * A file is a test case when its top level has `inputs` and nothing but these members; for an
 * action with a parameter named `inputs` a file that holds exactly the parameters stays plain.
 */
export interface InputSetFile {
  readonly form: 'plain' | 'case';
  /** Undefined when the file is not valid JSON. */
  readonly inputs: unknown;
  readonly expect: Expectation | undefined;
  readonly description: string | undefined;
  readonly problems: readonly PositionedProblem[];
}

/** A file beyond what is read (its size, depth or number of values). */
class TooLarge extends Error {}

const CASE_MEMBERS = new Set(['$schema', 'inputs', 'expect', 'description']);

export function parseInputSetFile(text: string, parameters: readonly Parameter[] | undefined): InputSetFile {
  const lines = new LineCounter();
  let value: unknown;
  try {
    // Bounded before anything walks it: the file is a clone's text, read again with every keystroke.
    if (text.length > INPUT_SET_MAX_CHARS) throw new TooLarge(`longer than ${INPUT_SET_MAX_CHARS} characters`);
    value = JSON.parse(text);
    const beyond = whyUnreadable(value);
    if (beyond) throw new TooLarge(beyond);
  } catch (error) {
    // Some syntax errors name their position; for the others VS Code's own JSON support shows the spot.
    const offset = Number(/position (\d+)/.exec(String(error))?.[1] ?? 0);
    lineStarts(lines, text);
    const problem: PositionedProblem = {
      path: [],
      message: error instanceof TooLarge ? `not read: ${error.message}` : `not valid JSON: ${error instanceof Error ? error.message : String(error)}`,
      range: rangeOf(lines, offset, offset + 1),
      severity: 'error',
    };
    return { form: 'plain', inputs: undefined, expect: undefined, description: undefined, problems: [problem] };
  }
  // JSON is YAML, and the YAML parser says where each value stands.
  const doc = parseDocument(text, { lineCounter: lines, uniqueKeys: false });
  const at = (path: (string | number)[], message: string, onKey = false): PositionedProblem => ({
    path,
    message,
    range: rangeOfPath(doc, lines, path, text, onKey),
    severity: 'error',
  });
  const names = parameters?.map((p) => p.name);
  if (!isCase(value, names)) {
    return { form: 'plain', inputs: value, expect: undefined, description: undefined, problems: parameters ? inputProblems(parameters, value, [], at) : [] };
  }
  const problems: PositionedProblem[] = [];
  if (parameters) problems.push(...inputProblems(parameters, value.inputs, ['inputs'], at));
  const description = typeof value.description === 'string' ? value.description : undefined;
  if (value.description !== undefined && description === undefined) problems.push(at(['description'], 'must be a string'));
  const expect = readExpectation(value.expect, at, problems);
  return { form: 'case', inputs: value.inputs, expect, description, problems };
}

function isCase(value: unknown, parameterNames: readonly string[] | undefined): value is Record<string, unknown> & { inputs: unknown } {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('inputs' in value)) return false;
  const keys = Object.keys(value);
  if (!keys.every((k) => CASE_MEMBERS.has(k))) return false;
  const plainOfSameShape = parameterNames?.includes('inputs') && keys.length === parameterNames.length && keys.every((k) => parameterNames.includes(k));
  return !plainOfSameShape;
}

type At = (path: (string | number)[], message: string, onKey?: boolean) => PositionedProblem;

function inputProblems(parameters: readonly Parameter[], inputs: unknown, base: (string | number)[], at: At): PositionedProblem[] {
  return checkInputs(parameters, inputs).map((problem) => {
    // checkInputs says "<name>: <what>"; point at that member when it is there.
    const name = /^([^:]+): /.exec(problem)?.[1];
    const known = name !== undefined && typeof inputs === 'object' && inputs !== null && name in inputs;
    return at(known ? [...base, name] : base, problem, known && problem.endsWith('no such parameter'));
  });
}

function readExpectation(raw: unknown, at: At, problems: PositionedProblem[]): Expectation | undefined {
  if (raw === undefined) return undefined;
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    problems.push(at(['expect'], 'must be an object: {"result": …}, {"resultContains": {…}} or {"error": …}'));
    return undefined;
  }
  const record = raw as Record<string, unknown>;
  const kinds = ['result', 'resultContains', 'error'].filter((k) => k in record);
  for (const key of Object.keys(record))
    if (!kinds.includes(key)) problems.push(at(['expect', key], `unknown member "${key}" (result, resultContains or error)`, true));
  if (kinds.length !== 1) {
    problems.push(at(['expect'], kinds.length === 0 ? 'needs one of result, resultContains or error' : `has ${kinds.join(' and ')}: give one`));
    return undefined;
  }
  if ('result' in record) return { kind: 'result', value: record.result };
  if ('resultContains' in record) {
    const value = record.resultContains;
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return { kind: 'resultContains', value: value as Record<string, unknown> };
    problems.push(at(['expect', 'resultContains'], 'must be an object: the members the result must have'));
    return undefined;
  }
  const error = record.error;
  if (error === true) return { kind: 'error' };
  if (typeof error === 'object' && error !== null && !Array.isArray(error)) {
    const { message, name, ...rest } = error as Record<string, unknown>;
    const found = Object.keys(rest).map((key) => at(['expect', 'error', key], `unknown member "${key}" (message or name)`, true));
    if (message !== undefined && typeof message !== 'string') found.push(at(['expect', 'error', 'message'], 'must be a regular expression, as a string'));
    const compiled = typeof message === 'string' ? compilePattern(message) : undefined;
    if (compiled && !compiled.ok) found.push(at(['expect', 'error', 'message'], compiled.reason));
    if (name !== undefined && typeof name !== 'string') found.push(at(['expect', 'error', 'name'], 'must be a string, such as "TypeError"'));
    problems.push(...found);
    return found.length === 0 ? { kind: 'error', message: message as string | undefined, name: name as string | undefined } : undefined;
  }
  problems.push(at(['expect', 'error'], 'must be true, or {"message": "regex", "name": "TypeError"}'));
  return undefined;
}

/** The line starts of `text`, for positions in a file the YAML parser could not read. */
function lineStarts(lines: LineCounter, text: string): void {
  lines.addNewLine(0);
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines.addNewLine(i + 1);
}

/** The JSON Schema of an input set file, for completion and checks in the editor (the inputs themselves depend on the action). */
export const INPUT_SET_JSON_SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  title: 'Input set of a custom action',
  description: 'The inputs of one run of main, by parameter name; or a test case: {"inputs": …, "expect": …}.',
  anyOf: [
    {
      type: 'object',
      required: ['inputs'],
      additionalProperties: false,
      properties: {
        $schema: { type: 'string' },
        description: { type: 'string', description: 'What this case checks.' },
        inputs: { type: 'object', description: 'The inputs, by parameter name.' },
        expect: {
          description: 'What the run should give. Without it, the case passes when main does not throw.',
          oneOf: [
            { type: 'object', required: ['result'], additionalProperties: false, properties: { result: { description: 'Exactly this result.' } } },
            {
              type: 'object',
              required: ['resultContains'],
              additionalProperties: false,
              properties: { resultContains: { type: 'object', description: 'An object result holding at least these members.' } },
            },
            {
              type: 'object',
              required: ['error'],
              additionalProperties: false,
              properties: {
                error: {
                  description:
                    'main fails; optionally with a message matching a regular expression (RE2 syntax: no lookahead, lookbehind or backreferences), and an error name.',
                  oneOf: [
                    { const: true },
                    { type: 'object', additionalProperties: false, properties: { message: { type: 'string' }, name: { type: 'string' } } },
                  ],
                },
              },
            },
          ],
        },
      },
    },
    { type: 'object', description: 'The inputs, by parameter name.' },
  ],
} as const;
