import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Each rule of docs/architecture.md's *Every rule once* lives in src/core, and every face calls it:
 * the faces named import the core function, and no file of a face calls what only the core's rule
 * should (the pieces a face once put together itself). The rule's own behaviour is tested beside its
 * function (the file named in `tested`); this holds the faces to it.
 */
interface Rule {
  readonly name: string;
  /** The core module and the function every face calls. */
  readonly core: string;
  readonly fn: string;
  /** Files of the faces that must call it. */
  readonly faces: readonly string[];
  /** Calls no file of src/cli, src/extension or src/sandbox may make (the rule's parts, used by the core alone). */
  readonly onlyInCore: readonly string[];
  readonly tested: string;
}

const RULES: readonly Rule[] = [
  {
    name: 'pull planning',
    core: 'src/core/deploy/pull.ts',
    fn: 'planPull',
    faces: ['src/cli/commands/pull.ts', 'src/extension/pull/index.ts'],
    onlyInCore: ['localChanges(', 'pulledFiles(', 'pulledBase(', 'serverMetadata(', 'actionFolderForServerKey('],
    tested: 'test/unit/deploy-pull.test.ts',
  },
  {
    name: 'the folder a pull writes into',
    core: 'src/core/deploy/pull.ts',
    fn: 'pullFolder',
    faces: ['src/cli/commands/pull.ts', 'src/extension/pull/target.ts'],
    onlyInCore: ['directChildPath('],
    tested: 'test/unit/deploy-pull.test.ts',
  },
  {
    name: 'naming actions',
    core: 'src/core/workspace/actionNames.ts',
    fn: 'selectActions',
    faces: ['src/cli/workspace.ts', 'src/cli/actions.ts', 'src/extension/model/actionsModel.ts'],
    onlyInCore: ['new ActionSelection(', 'selection.includes('],
    tested: 'test/unit/workspace-action-names.test.ts',
  },
  {
    name: 'one key, one folder (a key two folders of an application declare is refused)',
    core: 'src/core/workspace/layout.ts',
    fn: 'sharedKeys',
    faces: ['src/core/deploy/plan.ts', 'src/cli/commands/check.ts', 'src/extension/model/actionsModel.ts'],
    onlyInCore: [],
    tested: 'test/unit/workspace-layout.test.ts',
  },
  {
    name: 'naming actions, in each command that takes action names',
    core: 'src/cli/workspace.ts',
    fn: 'selectNamed',
    faces: ['src/cli/commands/targets.ts', 'src/cli/commands/pull.ts', 'src/cli/commands/check.ts', 'src/cli/commands/promote.ts'],
    onlyInCore: [],
    tested: 'test/cli/cli-action-names.test.ts',
  },
  {
    name: 'which server action a folder is when its key was changed in it',
    core: 'src/core/deploy/renamed.ts',
    fn: 'renamedActions',
    faces: ['src/core/deploy/plan.ts', 'src/cli/commands/pull.ts', 'src/extension/model/actionsModel.ts', 'src/extension/model/entries.ts'],
    onlyInCore: ['.folder ?? entry.key', '.folder ?? actionFolderName('],
    tested: 'test/unit/deploy-renamed.test.ts',
  },
  {
    name: "what the list's version tag tells of a part unread",
    core: 'src/core/deploy/decide.ts',
    fn: 'listedAtBase',
    faces: ['src/core/deploy/pushPart.ts', 'src/core/deploy/status.ts'],
    onlyInCore: [],
    tested: 'test/unit/deploy-decide.test.ts',
  },
  {
    name: 'changed on the server',
    core: 'src/core/deploy/decide.ts',
    fn: 'changedSinceBase',
    faces: ['src/core/deploy/decide.ts', 'src/extension/deploy/drift.ts', 'src/extension/deploy/conflicts.ts'],
    // A tag compared with the base's tag decides nothing: a face that did would be a second rule.
    onlyInCore: ['base.etag === ', 'base?.etag === ', '.etag !== base', 'now[part] !== base'],
    tested: 'test/unit/deploy-decide.test.ts',
  },
  {
    name: 'which sandbox backend to open',
    core: 'src/core/sandbox/backend.ts',
    fn: 'sandboxBackend',
    faces: ['src/sandbox/index.ts', 'src/sandbox/cli.ts', 'src/sandbox/admin.ts', 'src/cli/commands/sandbox.ts'],
    onlyInCore: ['env.CUSTOM_ACTIONS_DATABASE_URL', 'process.env.CUSTOM_ACTIONS_DATABASE_URL'],
    tested: 'test/unit/sandbox-backend.test.ts',
  },
  {
    name: "a command line's failure document (custom-actions and sandbox admin)",
    core: 'src/core/commandLine.ts',
    fn: 'failureDocument',
    faces: ['src/cli/program.ts', 'src/sandbox/admin.ts'],
    onlyInCore: ['ok: false, error: { exitCode'],
    tested: 'test/sandbox/sandbox-admin.test.ts',
  },
  {
    name: 'when a server version becomes the base',
    core: 'src/core/deploy/base.ts',
    fn: 'baseAfter',
    faces: ['src/core/deploy/pushPart.ts', 'src/core/deploy/pull.ts', 'src/extension/deploy/conflicts.ts', 'src/extension/deploy/drift.ts'],
    // A base written out by hand from a server's answer is a second rule of when it moves.
    onlyInCore: ['{ etag: server.etag, hash', '{ etag, hash: local.', '{ etag: created.etag, hash'],
    tested: 'test/unit/deploy-base-after.test.ts',
  },
  {
    name: 'the base of an action just created',
    core: 'src/core/deploy/base.ts',
    fn: 'createdBase',
    faces: ['src/core/deploy/pipeline.ts', 'src/extension/deploy/create.ts'],
    onlyInCore: [],
    tested: 'test/unit/deploy-base-after.test.ts',
  },
];

const root = path.resolve(__dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');

function filesUnder(folder: string): string[] {
  return readdirSync(path.join(root, folder)).flatMap((name) => {
    const rel = `${folder}/${name}`;
    return statSync(path.join(root, rel)).isDirectory() ? filesUnder(rel) : rel.endsWith('.ts') ? [rel] : [];
  });
}

describe('Every rule once: each face calls the core function of a rule and does not put it together itself', () => {
  const faceFiles = ['src/cli', 'src/extension', 'src/sandbox'].flatMap(filesUnder);
  for (const rule of RULES) {
    it(`${rule.name}: ${rule.fn} (${rule.core}), called by ${rule.faces.join(', ')}`, () => {
      assert.match(read(rule.core), new RegExp(`export (async )?function ${rule.fn}\\b`), `${rule.core} exports ${rule.fn}`);
      assert.ok(read(rule.tested).length > 0, `${rule.tested} tests ${rule.fn}`);
      if (rule.tested.startsWith('test/unit/')) assert.match(read(rule.tested), new RegExp(`\\b${rule.fn}\\b`), `${rule.tested} tests ${rule.fn}`);
      for (const face of rule.faces) assert.match(read(face), new RegExp(`\\b${rule.fn}\\(`), `${face} calls ${rule.fn}`);
      const written = faceFiles.flatMap((file) => {
        const text = read(file);
        return rule.onlyInCore.filter((call) => new RegExp(`(^|[^\\w.])${call.replace('(', '\\(')}`, 'm').test(text)).map((call) => `${file}: ${call}`);
      });
      assert.deepEqual(written, [], 'the rule put together outside the core');
    });
  }
});
