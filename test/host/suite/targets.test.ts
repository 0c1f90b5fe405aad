import * as assert from 'node:assert/strict';
import { type ActionMetadata } from '../../../src/core/schema';
import { normalizeBaseUrl } from '../../../src/extension/keyStore';
import { type Services } from '../../../src/extension/services';
import { api, eventually, fixtureApplication, removeActions } from '../support';
import { keepProjectFile, projectFile, sandboxKeyAt, writeText } from '../suiteFixture';

const metadata: ActionMetadata = {
  key: 'on-staging-only',
  name: 'On staging only',
  description: '',
  developerEmail: 'dev@example.com',
  parameters: [],
  result: { type: 'number', description: '' },
};

describe('Targets in the editor', function () {
  this.timeout(120_000);
  let services: Services;
  let created: string | undefined;
  const project = keepProjectFile();

  before(async () => {
    services = (await api()).services;
  });

  after(async () => {
    const other = await fixtureApplication(services, 'other-app');
    await removeActions(services, other, created ? [created] : [], []);
  });

  it('works on the target that says default: true, as the command line does: its server and its ids', async () => {
    // One server, two targets: the sandbox as the file's own server, and the sandbox again by its URL as
    // "staging", where test-app's id is other-app. An action only other-app has tells which one the editor reads.
    const other = await fixtureApplication(services, 'other-app');
    created = (await services.connections.call(other, (c) => c.createAction('other-app', metadata))).id;
    const { actual } = await services.connections.baseUrl();
    await sandboxKeyAt(services, actual, 'other-app');
    const targets = `\ntargets:\n  staging:\n    baseUrl: ${actual}\n    default: true\n    applications:\n      test-app: other-app\n`;
    await writeText(projectFile(), project.text + targets);

    await services.project.reload();

    const state = await services.project.only();
    assert.ok(state.kind === 'ok', 'the project with targets is valid');
    assert.equal(state.target.target.name, 'staging');
    assert.equal(state.baseUrl, actual);
    assert.equal(state.isSandbox, false);
    const app = state.applications.find((a) => a.projectId === 'test-app');
    assert.ok(app);
    assert.equal(app.id, 'other-app', 'test-app is other-app on staging');
    assert.equal((await services.connections.baseUrl()).logical, normalizeBaseUrl(actual), 'requests go to staging');
    services.model.refresh();
    await eventually(
      async () => ((await services.model.actions(app)).some((e) => e.key === metadata.key && e.remote) ? true : undefined),
      'staging lists the action under Test App',
    );

    // Picking the file's own target, as Switch Target does, goes back to test-app's own list.
    const back = await services.project.pickTarget('default');
    assert.ok(back.kind === 'ok' && back.isSandbox && back.target.target.name === 'default');
    const own = back.applications.find((a) => a.projectId === 'test-app');
    assert.ok(own);
    assert.equal(own.id, 'test-app');
    services.model.refresh();
    const entries = await services.model.actions(own);
    assert.ok(!entries.some((e) => e.key === metadata.key && e.remote), 'test-app on the default target does not have it');
  });
});
