import { type ActionMetadata, type CollectionType, type MultipleSelectType, type Parameter, type SingleChoiceType } from '../../src/core/schema';

/**
 * A valid action with what a test does not care about filled in (no parameters, a text result, an empty
 * description); `fields` name what it does care about.
 */
export function actionMetadata(fields: Partial<ActionMetadata> & Pick<ActionMetadata, 'key'>): ActionMetadata {
  return { name: fields.key, description: '', developerEmail: 'dev@example.com', parameters: [], result: { type: 'text' }, ...fields };
}

const choicesOf = (labels: Record<string, string>) => Object.entries(labels).map(([id, label]) => ({ id, label }));

/** A single choice of the ids `labels` names, each shown as its label: `singleChoice({ gold: 'Gold' })`. */
export const singleChoice = (labels: Record<string, string>): SingleChoiceType => ({ type: 'single-choice', choices: choicesOf(labels) });

/** A multiple select of the ids `labels` names, each shown as its label. */
export const multipleSelect = (labels: Record<string, string>): MultipleSelectType => ({ type: 'multiple-select', choices: choicesOf(labels) });

/** A collection of `items`. */
export const collectionOf = (items: CollectionType['items']): CollectionType => ({ type: 'collection', items });

/** Two numbers, `a` and `b`: the parameters of the adding actions. */
export const twoNumbers = (): Parameter[] => [
  { name: 'a', type: 'number' },
  { name: 'b', type: 'number' },
];

/** A single choice of two ids whose labels are not the ids (`'gold' | 'silver'` in generated types). */
export const TIER: Parameter = { name: 'tier', type: singleChoice({ gold: 'Gold', silver: 'Silver' }) };

/** A number, and a mode that tells main to succeed or to throw: the parameters of the actions the debug and events tests run. */
export const N_AND_MODE: Parameter[] = [
  { name: 'n', type: 'number' },
  { name: 'mode', type: singleChoice({ ok: 'Succeed', fail: 'Fail' }) },
];

/** A small valid action (two numbers in, their sum out), shared by the client's unit and sandbox tests. */
export const ADD_ACTION: ActionMetadata = {
  key: 'add',
  name: 'Add',
  description: 'Adds two numbers',
  developerEmail: 'dev@example.com',
  parameters: [
    { name: 'a', type: 'number', description: 'first' },
    { name: 'b', type: 'number', description: 'second' },
  ],
  result: { type: 'number', description: 'the sum' },
};

/** One parameter of every form the spec has: each simple type, a single choice, a multiple select, a collection. */
export const PARAMETERS_OF_EVERY_TYPE: Parameter[] = [
  { name: 'company', type: 'text' },
  { name: 'employees', type: 'number' },
  { name: 'foundedAt', type: 'datetime' },
  { name: 'contact', type: 'email' },
  TIER,
  { name: 'channels', type: multipleSelect({ mail: 'Mail', phone: 'Phone' }) },
  { name: 'scores', type: collectionOf('number') },
];

/** A valid action with those parameters and an object result of every property type; `overrides` replace whole fields. */
export function scoreLeadAction(overrides: Partial<ActionMetadata> = {}): ActionMetadata {
  return {
    key: 'score-lead',
    name: 'Score lead',
    description: 'Scores a lead',
    developerEmail: 'dev@example.com',
    parameters: PARAMETERS_OF_EVERY_TYPE,
    result: {
      type: {
        type: 'object',
        properties: {
          score: { type: 'number' },
          owner: { type: 'email' },
          at: { type: 'datetime' },
          note: { type: 'text' },
          tags: { type: collectionOf('text') },
        },
      },
      description: 'The score',
    },
    ...overrides,
  };
}
