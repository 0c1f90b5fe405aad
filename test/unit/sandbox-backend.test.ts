import assert from 'node:assert/strict';
import { sandboxBackend } from '../../src/core/sandbox/backend';

/**
 * Which store a sandbox opens (src/core/sandbox/backend.ts): one rule for the sandbox's server, its
 * admin commands and `custom-actions sandbox start`; rules-once.test.ts holds each to it.
 */
describe('Sandbox backend: one rule for the server, sandbox admin and custom-actions sandbox start', () => {
  const URL_ = 'postgres://team@db.example.invalid/sandbox';
  const rows: [string, { databaseUrl?: string; data?: string }, Record<string, string>, string][] = [
    ['nothing: memory', {}, {}, 'memory'],
    ['--data: the directory', { data: '.sandbox' }, {}, 'directory .sandbox'],
    ['--database-url: the server', { databaseUrl: URL_ }, {}, `postgres ${URL_} --database-url`],
    ['the variable: the server', {}, { CUSTOM_ACTIONS_DATABASE_URL: URL_ }, `postgres ${URL_} CUSTOM_ACTIONS_DATABASE_URL`],
    ['the flag over the variable', { databaseUrl: URL_ }, { CUSTOM_ACTIONS_DATABASE_URL: 'postgres://other/x' }, `postgres ${URL_} --database-url`],
    ['an empty variable is none', { data: 'd' }, { CUSTOM_ACTIONS_DATABASE_URL: '' }, 'directory d'],
    ['--data with --database-url: refused', { data: 'd', databaseUrl: URL_ }, {}, 'refused: --data and --database-url exclude each other'],
    [
      '--data with the variable: refused, saying how',
      { data: 'd' },
      { CUSTOM_ACTIONS_DATABASE_URL: URL_ },
      'unset CUSTOM_ACTIONS_DATABASE_URL to use the directory',
    ],
  ];
  for (const [name, flags, env, expected] of rows)
    it(name, () => {
      const chosen = sandboxBackend(flags, env);
      const said = !chosen.ok
        ? `refused: ${chosen.reason}`
        : chosen.backend.kind === 'postgres'
          ? `postgres ${chosen.backend.url} ${chosen.backend.from}`
          : chosen.backend.kind === 'directory'
            ? `directory ${chosen.backend.dir}`
            : 'memory';
      assert.ok(said.startsWith(expected) || said.includes(expected), `${said} ≠ ${expected}`);
    });
});
