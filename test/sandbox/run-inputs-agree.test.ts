import assert from 'node:assert/strict';
import { type ActionResource } from '../../src/core/schema';
import { runInputProblems } from '../../src/core/events';
import { inputCases } from '../support/inputCases';
import { metadata, withSandbox } from './support';

/**
 * The cases of test/unit/run-inputs-agree.test.ts sent to the sandbox's run endpoint over real HTTP:
 * what the client lets through is run (200), what it refuses is `400 invalid-inputs`, never the
 * other way (docs/api.md, *Running an action*).
 */
describe('sandbox: run inputs agree with the client, over HTTP', () => {
  let box: Awaited<ReturnType<typeof withSandbox>>;
  let key: string;
  const actions = new Map<string, ActionResource>();
  before(async () => {
    box = await withSandbox({ limits: { requestsPerMinute: 0 } });
    key = box.applications[0]!.key;
  });
  after(() => box.close());

  async function actionFor(parameterJson: string): Promise<ActionResource> {
    const known = actions.get(parameterJson);
    if (known) return known;
    const created = await box.request('POST', '/api/application/app-a/actions', {
      key,
      json: metadata({ key: `k${actions.size}`, parameters: [JSON.parse(parameterJson)], result: { type: 'text' } }),
    });
    assert.equal(created.status, 201, created.text);
    const action = created.json as ActionResource;
    const put = await box.request('PUT', `/api/actions/${action.id}/implementation`, {
      key,
      body: 'export function main() { return null; }\n',
      type: 'application/typescript',
    });
    assert.equal(put.status, 204, put.text);
    actions.set(parameterJson, action);
    return action;
  }

  it('gives every case the client judges the same verdict', async function () {
    this.timeout(120_000);
    const disagreements: string[] = [];
    for (const c of inputCases()) {
      const action = await actionFor(JSON.stringify(c.parameter));
      const reply = await box.request('POST', action.eventsUrls.Test.replace(/events$/, 'runs'), { key, json: { inputs: c.inputs } });
      assert.ok(reply.status === 200 || reply.status === 400, `${c.name}: ${reply.status} ${reply.text}`);
      if (reply.status === 400) assert.equal((reply.json as { code?: string }).code, 'invalid-inputs', reply.text);
      const client = runInputProblems([c.parameter], c.inputs).length === 0;
      if (client !== (reply.status === 200)) disagreements.push(`${c.name}: client ${client ? 'accepts' : 'refuses'}, sandbox answers ${reply.status}`);
    }
    assert.deepEqual(disagreements, []);
  });
});
