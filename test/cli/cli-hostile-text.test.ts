// Round three (docs/security.md): a server's text reaches no terminal as control characters, on any
// command's path, errors included, on stdout and stderr, as text and as --json.
import assert from 'node:assert/strict';
import { createServer, type Server, type ServerResponse } from 'node:http';
import { type AddressInfo } from 'node:net';
import { actionMetadata } from '../support/metadata';
import { eventually } from '../support/eventually';
import { runCli, Scratch, textMain, writeAction, writeProject } from './support';
import { RunningCli, writeInputSet } from './server';

/**
 * What a terminal obeys: C0 but tab and line feed, DEL, C1 (U+009B is a CSI of its own), and the bidi
 * controls that reorder what is shown.
 */
// eslint-disable-next-line no-control-regex -- these characters are what the check looks for
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u;

/** A title, the clipboard (OSC 52), a link (OSC 8), a screen clear, a C1 CSI, DEL and a bidi override. */
const HOSTILE =
  'Denied \u001b]0;pwned\u0007 \u001b]52;c;Y3VybCBldmlsfHNo\u0007 \u001b]8;;https://evil.example/\u001b\\click\u001b]8;;\u001b\\ \u001b[2J \u009b31mred \u007f \u202etxt';
/** The command line's own colours (FORCE_COLOR is set): taken out before looking for raw bytes. */
// eslint-disable-next-line no-control-regex -- the command line's own ESC is what is taken out
const OWN_COLOUR = /\u001b\[\d+m/g;
/** The readable part of it, which must still show. */
const READABLE = /Denied \\u001B\]0;pwned\\u0007/;

type Mode = 'problem' | 'fields' | '5xx';

/** Answers the list of app-a's actions with one action, and every other request with hostile text in the form `mode` says. */
function hostileServer(mode: Mode): Promise<{ url: string; server: Server }> {
  const server = createServer((request, response) => {
    request.resume();
    request.on('end', () => {
      const url = request.url ?? '';
      if (request.method === 'GET' && url === '/api')
        return answer(response, 200, 'application/json', JSON.stringify({ extensions: { getAction: true, getImplementation: true, run: true } }));
      if (request.method === 'GET' && url.startsWith('/api/application/app-a/actions')) {
        if (mode === '5xx') return answer(response, 500, 'text/plain', HOSTILE);
        return answer(
          response,
          200,
          'application/json',
          JSON.stringify([
            { id: 'h1', key: 'hello', eventsUrls: { Test: '/api/actions/h1/environments/test/events', Live: '/api/actions/h1/environments/live/events' } },
          ]),
        );
      }
      if (mode === 'fields')
        return answer(
          response,
          400,
          'application/problem+json',
          JSON.stringify({ title: HOSTILE, status: 400, code: `bad${HOSTILE}`, errors: [{ path: `/name${HOSTILE}`, message: HOSTILE }] }),
        );
      answer(response, 403, 'application/problem+json', JSON.stringify({ title: 'Forbidden', status: 403, detail: HOSTILE, code: HOSTILE }));
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server })));
}

function answer(response: ServerResponse, status: number, type: string, body: string): void {
  response.writeHead(status, { 'content-type': `${type}; charset=utf-8` }).end(body);
}

describe('custom-actions shows a hostile server its text, never its control characters', function () {
  const scratch = new Scratch();
  const env = { CUSTOM_ACTIONS_KEY: 'ca_sk_hostileTextSuiteKey000000000000000000000', FORCE_COLOR: '1' };

  for (const mode of ['problem', 'fields', '5xx'] as const) {
    describe(`answering with ${mode === 'problem' ? 'problem details' : mode === 'fields' ? 'field errors' : 'a 5xx body'}`, () => {
      let hostile: { url: string; server: Server };
      let dir: string;
      before(async () => {
        hostile = await hostileServer(mode);
        dir = scratch.dir();
        writeProject(dir, hostile.url);
        const folder = writeAction(dir, 'app-a', actionMetadata({ key: 'hello', result: { type: 'text' } }), textMain('hi'));
        writeInputSet(folder, 'one', { inputs: {}, expect: { result: 'hi' } });
      });
      after(async () => {
        hostile.server.closeAllConnections();
        await new Promise((resolve) => hostile.server.close(resolve));
      });

      for (const args of [['status'], ['deploy'], ['run', 'hello'], ['test', '--env', 'Test'], ['pull', '--force']]) {
        it(`${args.join(' ')}: readable, no raw control byte, as text and as --json`, async () => {
          for (const json of [false, true]) {
            const result = await runCli(json ? [...args, '--json'] : args, { cwd: dir, env });
            assert.notEqual(result.code, 0, result.output);
            assert.doesNotMatch(result.output.replace(OWN_COLOUR, ''), RAW, `${args.join(' ')}${json ? ' --json' : ''}: ${JSON.stringify(result.output)}`);
            if (json) {
              const doc = JSON.parse(result.stdout) as { ok: boolean };
              assert.equal(doc.ok, false);
              assert.ok(JSON.stringify(doc).includes('pwned'), `the JSON document says what the server said: ${result.stdout}`);
            } else {
              assert.match(result.output, READABLE, result.output);
              assert.match(result.output, OWN_COLOUR, "the command line's own colour is kept");
            }
          }
        });
      }

      if (mode === 'problem')
        it('events --follow: the status line of a stopped follow is readable, with no raw control byte', async () => {
          for (const json of [false, true]) {
            const follow = new RunningCli(['events', 'hello', '--follow', ...(json ? ['--json'] : [])], { cwd: dir, env });
            try {
              const { code } = await follow.exited;
              assert.notEqual(code, 0);
              await eventually(() => READABLE.test(follow.stderr) || undefined, 'the status line', 10_000);
              assert.doesNotMatch((follow.stdout + follow.stderr).replace(OWN_COLOUR, ''), RAW, JSON.stringify(follow.stderr));
            } finally {
              follow.kill();
            }
          }
        });
    });
  }
});
