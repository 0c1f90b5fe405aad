// `npm start`: the extension in a real VS Code in your browser, on the demo workspace, with no account:
// demo/customactions.yaml asks the extension to start the local sandbox with demo data by itself.
//   npm start                      http://127.0.0.1:8080
//   npm start -- --port 9000       another port (loopback only: code-server runs without a password)
// The profile (settings, keys in secret storage, open editors) is kept in .vscode-test/start/.
// Rebuild with `npm run watch` in another terminal and reload the page to pick up changes.
import { existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { build, ensureHost, root, startCodeServer } from './host/codeServer.mjs';

const { values } = parseArgs({ options: { port: { type: 'string', default: '8080' }, folder: { type: 'string' } } });
const port = Number(values.port);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`--port must be a port number, not "${values.port}"`);
  process.exit(2);
}
const workspace = path.resolve(values.folder ?? path.join(root, 'demo'));
if (!existsSync(workspace)) {
  console.error(`${path.relative(root, workspace) || workspace} does not exist; pass --folder to open another workspace.`);
  process.exit(1);
}

const host = ensureHost();
console.log('start: building the extension (development build)');
build({ tests: false });
const userDataDir = path.join(root, '.vscode-test', 'start');
mkdirSync(userDataDir, { recursive: true });

let server;
try {
  server = await startCodeServer({
    host,
    workspace,
    userDataDir,
    port,
    log: (text) => {
      // The gallery is unreachable offline; that is not worth a line.
      if (/error/i.test(text) && !/ENOTFOUND|EAI_AGAIN/.test(text)) process.stderr.write(text);
    },
  });
} catch (error) {
  console.error(
    `start: code-server did not start on 127.0.0.1:${port} (is the port taken? try --port).\n${error instanceof Error ? error.message : String(error)}`,
  );
  process.exit(1);
}

console.log(`
Custom Actions is running in VS Code for the web on ${path.relative(root, workspace) || workspace}/.
Open this URL (it loads the extension from this checkout):

  ${server.url()}

Ctrl+C stops it.`);

let stopping = false;
const stop = async () => {
  if (stopping) return;
  stopping = true;
  console.log('\nstart: stopping');
  await server.stop();
  process.exit(0);
};
process.on('SIGINT', () => void stop());
process.on('SIGTERM', () => void stop());
server.child.once('exit', (code) => {
  if (stopping) return;
  console.error(`start: code-server exited (${code})`);
  process.exit(code ?? 1);
});
