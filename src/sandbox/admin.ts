/**
 * `sandbox admin <command> …`: the administration of a shared sandbox's database, without a running
 * server (docs/team-sandbox.md). It works on the same database the server processes use
 * (--database-url or CUSTOM_ACTIONS_DATABASE_URL; or a PGlite --data directory no sandbox has open).
 * A key is printed once, when it is minted; only its hash is stored. A revoked key is refused by
 * every process from its next request on: no process keeps keys in memory.
 */
import { parseArgs } from 'node:util';
import { checkApplicationId } from './index';
import { openDatabase } from './store/database';
import { openPostgres } from './store/postgres';
import { Store } from './store/store';

export const ADMIN_USAGE = `usage: sandbox admin COMMAND [--database-url URL | --data DIR] [--json]
  create-app ID [--name NAME]  create an application (or rename it) and print a new key for it
  issue-key ID                 print a new key for an existing application (its other keys stay valid)
  list-apps                    list the applications and how many keys each has
  list-keys ID                 list an application's keys by id (never the keys themselves)
  revoke-key KEY-ID            revoke a key, named by its id (from list-keys) or given whole
The database: --database-url postgres://… (or CUSTOM_ACTIONS_DATABASE_URL), or --data DIR for a
PGlite data directory that no running sandbox has open.`;

/** Runs one admin command; resolves to the exit code. `out` gets the answer, `err` the errors. */
export async function admin(args: string[], env: NodeJS.ProcessEnv, out: (text: string) => void, err: (text: string) => void): Promise<number> {
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
    err(`sandbox admin: ${error instanceof Error ? error.message : String(error)}\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    err(`${ADMIN_USAGE}\n`);
    return 0;
  }
  const [command, target, ...extra] = positionals;
  const needsTarget = command === 'create-app' || command === 'issue-key' || command === 'list-keys' || command === 'revoke-key';
  if (!command || !['create-app', 'issue-key', 'list-apps', 'list-keys', 'revoke-key'].includes(command) || (needsTarget && !target) || extra.length > 0) {
    err(`sandbox admin: ${command ? `cannot run "${positionals.join(' ')}"` : 'a command is needed'}\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const databaseUrl = values['database-url'] ?? (values.data === undefined ? env.CUSTOM_ACTIONS_DATABASE_URL || undefined : undefined);
  if (databaseUrl === undefined && values.data === undefined) {
    err(`sandbox admin: say which database: --database-url, CUSTOM_ACTIONS_DATABASE_URL or --data\n${ADMIN_USAGE}\n`);
    return 2;
  }
  const database = databaseUrl !== undefined ? await openPostgres(databaseUrl, err) : await openDatabase(values.data);
  const store = new Store(database);
  const print = (human: string, json: unknown) => out(`${values.json ? JSON.stringify(json) : human}\n`);
  try {
    switch (command) {
      case 'create-app': {
        checkApplicationId(target!);
        const app = await store.ensureApplication(target!, values.name?.trim() || undefined);
        const keyId = (await store.listKeys(app.id)).at(-1)?.keyId;
        print(`application ${app.id} (${app.name})\nkey ${keyId}: ${app.key}\nThe key is shown only now: give it to whoever uses the application.`, {
          id: app.id,
          name: app.name,
          key: app.key,
          keyId,
        });
        return 0;
      }
      case 'issue-key': {
        const issued = await store.issueKey(target!);
        if (!issued) {
          err(`sandbox admin: no application "${target}" (create-app makes one)\n`);
          return 1;
        }
        print(`key ${issued.keyId}: ${issued.key}\nThe key is shown only now.`, { id: target, key: issued.key, keyId: issued.keyId });
        return 0;
      }
      case 'list-apps': {
        const apps = await store.listApplications();
        print(apps.map((a) => `${a.id}\t${a.name}\t${a.keys} key(s)`).join('\n') || '(no applications)', apps);
        return 0;
      }
      case 'list-keys': {
        const keys = await store.listKeys(target!);
        print(keys.map((k) => `${k.keyId}\tcreated ${new Date(k.createdAt).toISOString()}`).join('\n') || '(no keys)', keys);
        return 0;
      }
      case 'revoke-key': {
        const revoked = await store.revokeKey(target!);
        print(`revoked key ${revoked.keyId} of ${revoked.applicationId}`, revoked);
        return 0;
      }
    }
    return 2;
  } catch (error) {
    err(`sandbox admin: ${error instanceof Error ? error.message : String(error)}\n`);
    return 1;
  } finally {
    await store.close();
  }
}
