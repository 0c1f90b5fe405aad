/**
 * `node dist/sandbox.js [--port N] [--data DIR] [--demo] [--json] [--ensure-app ID[:NAME]]…`
 * plus the options of a team's shared sandbox (cliNetwork.ts: --host, TLS, rate and size limits)
 * (or `npm run sandbox -- …`). With --json, stdout carries exactly one line once the sandbox is
 * ready: {"url", "applications": [{id, name, key}]}; everything else goes to stderr.
 */
import { parseArgs } from 'node:util';
import { applicationSpec } from '../core/schema/project';
import { admin } from './admin';
import { NETWORK_FLAGS, NETWORK_USAGE, networkOptions } from './cliNetwork';
import { startSandbox } from './index';
import { sandboxBackend } from '../core/sandbox/backend';

const USAGE = `usage: sandbox [--port N] [--data DIR] [--demo] [--json] [--ensure-app ID[:NAME]]... [--host ADDR] [--tls-cert FILE --tls-key FILE] [--rate-limit N] [--max-json-bytes N] [--max-code-bytes N]
  --port N              port (0 or absent: a free one)
  --data DIR            keep the data in DIR (absent: in memory, gone on exit)
  --demo                create the demo applications demo-crm and demo-helpdesk with example actions
  --ensure-app ID:NAME  create the application (or rename it) and mint a new key for it; repeatable
  --json                print one JSON line {"url", "applications"} when ready, nothing else on stdout
  --database-url URL    keep the data on a PostgreSQL server (postgres://…; or CUSTOM_ACTIONS_DATABASE_URL),
                        which several sandbox processes may share; not with --data
${NETWORK_USAGE}
sandbox admin …         create applications, issue and revoke keys (sandbox admin --help)`;

async function main(): Promise<void> {
  if (process.argv[2] === 'admin') {
    process.exitCode = await admin(
      process.argv.slice(3),
      process.env,
      (t) => process.stdout.write(t),
      (t) => process.stderr.write(t),
    );
    return;
  }
  let values;
  try {
    ({ values } = parseArgs({
      options: {
        port: { type: 'string' },
        data: { type: 'string' },
        demo: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        'ensure-app': { type: 'string', multiple: true, default: [] },
        'database-url': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
        ...NETWORK_FLAGS,
      },
      strict: true,
    }));
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    process.stderr.write(`${USAGE}\n`);
    return;
  }
  const port = values.port === undefined ? 0 : Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) return usage(`--port must be a port number, not "${values.port}"`);
  const applications = values['ensure-app'].map((spec) => {
    const { id, name } = applicationSpec(spec);
    return { id, name: name ?? '' };
  });
  let network;
  try {
    network = networkOptions(values, process.env);
  } catch (error) {
    return usage(error instanceof Error ? error.message : String(error));
  }
  const chosen = sandboxBackend({ databaseUrl: values['database-url'], data: values.data }, process.env);
  if (!chosen.ok) return usage(chosen.reason);
  const backend = chosen.backend;
  const databaseUrl = backend.kind === 'postgres' ? backend.url : undefined;
  if (values['database-url'] !== undefined && URL.canParse(values['database-url']) && new URL(values['database-url']).password) {
    process.stderr.write('sandbox: the process list shows --database-url with its password; prefer CUSTOM_ACTIONS_DATABASE_URL\n');
  }
  const sandbox = await startSandbox({
    port,
    dataDir: backend.kind === 'directory' ? backend.dir : undefined,
    databaseUrl,
    demo: values.demo,
    applications,
    ...network,
  });
  if (values.json) {
    process.stdout.write(`${JSON.stringify({ url: sandbox.url, applications: sandbox.applications })}\n`);
  } else {
    const bound = network.host ? ` (bound to ${network.host})` : '';
    const where = databaseUrl !== undefined ? ' (data on the database server)' : values.data ? ` (data in ${values.data})` : ' (in memory)';
    process.stderr.write(`Custom actions sandbox listening on ${sandbox.url}${bound}${where}\n`);
    for (const app of sandbox.applications) process.stderr.write(`  ${app.id} (${app.name}): Authorization: Bearer ${app.key}\n`);
  }
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    process.stderr.write(`sandbox: ${signal}, closing\n`);
    sandbox.close().then(
      () => process.exit(0),
      (error: unknown) => {
        process.stderr.write(`sandbox: close failed: ${String(error)}\n`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // The extension's child process: when the parent goes, so does the sandbox.
  process.on('disconnect', () => stop('disconnect'));
}

function usage(message: string): void {
  process.stderr.write(`sandbox: ${message}\n${USAGE}\n`);
  process.exitCode = 2;
}

process.on('uncaughtException', (error) => {
  // The server never throws here by design; if it does, keep serving and say so.
  process.stderr.write(`sandbox: uncaught exception: ${error.stack ?? error.message}\n`);
});

main().catch((error: unknown) => {
  process.stderr.write(`sandbox: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
