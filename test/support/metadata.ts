import { type ActionMetadata } from '../../src/core/schema';

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
