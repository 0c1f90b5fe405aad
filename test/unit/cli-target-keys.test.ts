import * as assert from 'node:assert/strict';
import { KeySource, keyVariables } from '../../src/cli/keys';

const staging = { name: 'staging', isDefault: false };
const own = { name: 'default', isDefault: true };

describe('keys by target', () => {
  it('a target that is not the default has only its own names', () => {
    assert.deepEqual(keyVariables('stg-billing', staging), ['CUSTOM_ACTIONS_KEY_STAGING_STG_BILLING', 'CUSTOM_ACTIONS_KEY_STAGING']);
  });

  it("the default target takes its own names first, then today's", () => {
    assert.deepEqual(keyVariables('billing', own), [
      'CUSTOM_ACTIONS_KEY_DEFAULT_BILLING',
      'CUSTOM_ACTIONS_KEY_DEFAULT',
      'CUSTOM_ACTIONS_KEY_BILLING',
      'CUSTOM_ACTIONS_KEY',
    ]);
    assert.deepEqual(keyVariables('billing'), ['CUSTOM_ACTIONS_KEY_BILLING', 'CUSTOM_ACTIONS_KEY']);
  });

  it('looks the names up in order, the key file before the environment at each', async () => {
    const keys = await KeySource.load(
      { CUSTOM_ACTIONS_KEY: 'bare', CUSTOM_ACTIONS_KEY_STAGING: 'target-wide', CUSTOM_ACTIONS_KEY_STAGING_STG_BILLING: 'own' },
      undefined,
    );
    assert.equal(keys.keyFor('stg-billing', staging), 'own');
    assert.equal(keys.keyFor('stg-crm', staging), 'target-wide');
    assert.equal(keys.keyFor('prod', { name: 'production', isDefault: false }), undefined, "today's bare key went to another target");
    assert.equal(keys.keyFor('billing', own), 'bare');
  });
});
