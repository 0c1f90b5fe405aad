/**
 * `sandbox admin <command> …`: the administration of a shared sandbox's database, without a running
 * server (docs/team-sandbox.md). It works on the same database the server processes use
 * (--database-url or CUSTOM_ACTIONS_DATABASE_URL; or a PGlite --data directory no sandbox has open).
 * A key is printed once, when it is minted; only its hash is stored. A revoked key is refused by
 * every process from its next request on: no process keeps keys in memory.
 *
 * It keeps `custom-actions`' conventions (src/core/commandLine.ts, docs/cli.md): the same exit codes
 * (2 usage, an unknown application or key included; 5 the database server cannot be reached; 7 any
 * other failure), one `--json` document with `ok` and a failure's `error` in the same shape, and
 * help on every subcommand (on stdout, exit 0). Which database is `sandboxBackend`'s rule, the
 * server's and `custom-actions sandbox start`'s.
 */
import { parseArgs } from 'node:util';
import { EXIT, type ExitCode, failureDocument } from '../core/commandLine';
import { sandboxBackend } from '../core/sandbox/backend';
import { checkApplicationId } from './index';
import { openDatabase } from './store/database';
import { openPostgres } from './store/postgres';
import { KeyNameError, Store } from './store/store';

export const ADMIN_USAGE = `usage: sandbox admin COMMAND [--database-url URL | --data DIR] [--json]
  create-app ID [--name NAME]  create an application (or rename it) and print a new key for it
  issue-key ID                 print a new key for an existing application (its other keys stay valid)
  list-apps                    list the applications and how many keys each has
  list-keys ID                 list an application's keys by id (never the keys themselves)
  revoke-key KEY-ID            revoke a key, named by its id (from list-keys) or given whole
The database: --database-url postgres://… (or CUSTOM_ACTIONS_DATABASE_URL), or --data DIR for a
PGlite data directory that no running sandbox has open; a data directory with a database server is refused.
Exit codes as custom-actions': 0 done, 2 usage (an unknown application or key too), 5 the database
server cannot be reached, 7 another failure. --json: one document, {"ok": true, …} or
{"ok": false, "error": {"exitCode", "message"}}. sandbox admin COMMAND --help says more of one.`;

const COMMANDS: Readonly<Record<string, { readonly operand?: string; readonly help: string }>> = {
  'create-app': {
    operand: 'ID',
    help: 'Creates application ID (or renames it, with --name NAME) and prints a new key for it, once.\n--json: {"ok": true, "id", "name", "key", "keyId"}.',
  },
  'issue-key': { operand: 'ID', help: 'Prints a new key for application ID, once; its other keys stay valid.\n--json: {"ok": true, "id", "key", "keyId"}.' },
  'list-apps': { help: 'Lists the applications and how many keys each has.\n--json: {"ok": true, "applications": [{"id", "name", "keys"}]}.' },
  'list-keys': {
    operand: 'ID',
    help: 'Lists the keys of application ID by id (never the keys themselves).\n--json: {"ok": true, "keys": [{"keyId", "createdAt"}]}.',
  },
  'revoke-key': {
    operand: 'KEY-ID',
    help: 'Revokes a key, named by its id (from list-keys) or given whole; every process refuses it from its next request.\n--json: {"ok": true, "applicationId", "keyId"}.',
  },
};

/** A failure of the command with its exit code, said on stderr and, under --json, as the failure document. */
class AdminFailure extends Error {
  constructor(
    readonly exitCode: ExitCode,
    message: string,
  ) {
    super(message);
  }
}

/** Runs one admin command; resolves to the exit code. `out` gets the answer, `err` the errors. */
export async function admin(args: string[], env: NodeJS.ProcessEnv, out: (text: string) => void, err: (text: string) => void): Promise<number> {
  const json = args.includes('--json');
  const fail = (exitCode: ExitCode, message: string, usage = false): ExitCode => {
    err(`sandbox admin: ${message}\n${usage ? `${ADMIN_USAGE}\n` : ''}`);
    if (json) out(`${JSON.stringify(failureDocument(exitCode, message))}\n`);
    return exitCode;
  };
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: {
        'database-url': { type: 'string' },
        data: { type: 'string' },
        name: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
    });
  } catch (error) {
    return fail(EXIT.usage, error instanceof Error ? error.message : String(error), true);
  }
  const { values, positionals } = parsed;
  const [command, target, ...extra] = positionals;
  const known = command === undefined ? undefined : COMMANDS[command];
  if (values.help) {
    out(
      known
        ? `usage: sandbox admin ${command}${known.operand ? ` ${known.operand}` : ''} [--database-url URL | --data DIR] [--json]\n${known.help}\n`
        : `${ADMIN_USAGE}\n`,
    );
    return EXIT.ok;
  }
  if (!command || !known || (known.operand !== undefined && !target) || (known.operand === undefined && target !== undefined) || extra.length > 0)
    return fail(EXIT.usage, command ? `cannot run "${positionals.join(' ')}"` : 'a command is needed', true);
  const chosen = sandboxBackend({ databaseUrl: values['database-url'], data: values.data }, env);
  if (!chosen.ok) return fail(EXIT.usage, chosen.reason, true);
  const backend = chosen.backend;
  if (backend.kind === 'memory') return fail(EXIT.usage, 'say which database: --database-url, CUSTOM_ACTIONS_DATABASE_URL or --data', true);
  let store: Store;
  try {
    store = new Store(backend.kind === 'postgres' ? await openPostgres(backend.url, err) : await openDatabase(backend.dir));
  } catch (error) {
    return fail(
      backend.kind === 'postgres' ? EXIT.network : EXIT.failed,
      `cannot open the database: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
  const print = (human: string, document: object) => out(`${values.json ? JSON.stringify({ ok: true, ...document }) : human}\n`);
  try {
    await run(store, command, target, values.name, print);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof AdminFailure) return fail(error.exitCode, error.message);
    if (error instanceof KeyNameError) return fail(EXIT.usage, error.message);
    return fail(EXIT.failed, error instanceof Error ? error.message : String(error));
  } finally {
    await store.close();
  }
}

async function run(
  store: Store,
  command: string,
  target: string | undefined,
  name: string | undefined,
  print: (human: string, document: object) => void,
): Promise<void> {
  switch (command) {
    case 'create-app': {
      try {
        checkApplicationId(target!);
      } catch (error) {
        throw new AdminFailure(EXIT.usage, error instanceof Error ? error.message : String(error));
      }
      const app = await store.ensureApplication(target!, name?.trim() || undefined);
      const keyId = (await store.listKeys(app.id)).at(-1)?.keyId;
      print(`application ${app.id} (${app.name})\nkey ${keyId}: ${app.key}\nThe key is shown only now: give it to whoever uses the application.`, {
        id: app.id,
        name: app.name,
        key: app.key,
        keyId,
      });
      return;
    }
    case 'issue-key': {
      const issued = await store.issueKey(target!);
      if (!issued) throw new AdminFailure(EXIT.usage, `no application "${target}" (create-app makes one)`);
      print(`key ${issued.keyId}: ${issued.key}\nThe key is shown only now.`, { id: target, key: issued.key, keyId: issued.keyId });
      return;
    }
    case 'list-apps': {
      const apps = await store.listApplications();
      print(apps.map((a) => `${a.id}\t${a.name}\t${a.keys} key(s)`).join('\n') || '(no applications)', { applications: apps });
      return;
    }
    case 'list-keys': {
      const keys = await store.listKeys(target!);
      print(keys.map((k) => `${k.keyId}\tcreated ${new Date(k.createdAt).toISOString()}`).join('\n') || '(no keys)', { keys });
      return;
    }
    case 'revoke-key': {
      const revoked = await store.revokeKey(target!);
      print(`revoked key ${revoked.keyId} of ${revoked.applicationId}`, revoked);
      return;
    }
  }
}
