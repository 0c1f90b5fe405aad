import * as assert from 'node:assert/strict';
import { trustPolicy, untrustedMessage } from '../../src/core/trust';

describe('Workspace trust policy', () => {
  it('an untrusted workspace contacts no server, starts no sandbox, runs and deploys nothing, whatever the settings', () => {
    assert.deepEqual(trustPolicy(false, { deployOnSave: true }), { contactServer: false, startSandbox: false, runActions: false, deployOnSave: false });
  });

  it('a trusted workspace does all of it, deploying on save as the setting says', () => {
    assert.deepEqual(trustPolicy(true, { deployOnSave: true }), { contactServer: true, startSandbox: true, runActions: true, deployOnSave: true });
    assert.equal(trustPolicy(true, { deployOnSave: false }).deployOnSave, false);
  });

  it('tells the user it is about trust, and what waits for it', () => {
    const message = untrustedMessage('Pull');
    assert.match(message, /^Pull needs a trusted workspace/);
    assert.match(message, /trust this folder/);
  });
});
