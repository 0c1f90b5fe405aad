import * as assert from 'node:assert/strict';
import { assertMatchesSpec, withSandbox } from './support';

type Box = Awaited<ReturnType<typeof withSandbox>>;

describe('Sandbox health endpoint', function () {
  let box: Box;
  before(async () => (box = await withSandbox()));
  after(async () => box?.close());

  it('answers GET /healthz without a key: the database answers', async () => {
    const reply = await box.request('GET', '/healthz');
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json, { status: 'ok', database: 'ok' });
    assertMatchesSpec('GET', '/healthz', reply);
  });

  it('says nothing more with a key, even a wrong one, and allows only GET and HEAD', async () => {
    assert.equal((await box.request('GET', '/healthz', { key: 'ca_sk_wrong' })).status, 200);
    const post = await box.request('POST', '/healthz');
    assert.equal(post.status, 405);
    assert.equal(post.headers.get('allow'), 'GET, HEAD');
  });
});
