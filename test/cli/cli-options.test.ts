// The options of every command are read into typed values once (src/cli/options.ts): each declared
// option has its type there, of the shape commander gives it, and a value of another shape is refused.
import assert from 'node:assert/strict';
import { Command } from 'commander';
import { COMMANDS } from '../../src/cli/commands/table';
import { commandOptions, globalOptions, optionKind } from '../../src/cli/options';

describe('custom-actions: typed options', () => {
  it('gives every option of every command a type of the shape commander parses it into', () => {
    for (const definition of COMMANDS) {
      const command = new Command(definition.name);
      definition.configure(command);
      for (const option of command.options) {
        const kind = optionKind(option.attributeName(), 'command');
        const shape = option.variadic ? 'list' : option.isBoolean() || option.negate ? 'flag' : 'text';
        assert.equal(kind, shape, `${definition.name} ${option.flags}`);
      }
    }
  });

  it('refuses an option it has no type for, and a value of the wrong shape', () => {
    assert.deepEqual(commandOptions({ force: true, concurrency: '8', application: ['a'], env: undefined }), {
      force: true,
      concurrency: '8',
      application: ['a'],
    });
    assert.throws(() => commandOptions({ unknownThing: 'x' }), /"unknownThing" of a command has no type: add it to src\/cli\/options.ts/);
    assert.throws(() => commandOptions({ force: 'yes' }), /"force" of a command is a flag/);
    assert.throws(() => commandOptions({ application: 'a' }), /"application" of a command is a list/);
    // optsWithGlobals holds the command's own options too: those are not the program's.
    assert.deepEqual(globalOptions({ json: true, timeout: '30', force: true }), { json: true, timeout: '30' });
    assert.throws(() => globalOptions({ json: 'x' }), /"json" of the program is a flag/);
  });
});
