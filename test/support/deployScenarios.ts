/**
 * The scenario table of issue #37, one decision in two faces: each row is an action in one state,
 * decided by the command line's `deploy` (test/cli/cli-scenarios.test.ts) and by a save in the editor
 * (test/host/suite/deploy-scenarios.test.ts). The rows are data, so each face performs the same set-up
 * its own way: file writes, a colleague's push and a delete on the server through the client.
 */
import { type Verdict } from '../../src/core/deploy/outcome';

/** The code of an action with no parameters and a text result (`actionMetadata`'s defaults): main returns `text`. */
export function textMain(text: string): string {
  return `export async function main(): Promise<string> {\n  return ${JSON.stringify(text)};\n}\n`;
}

export type ScenarioFile = 'main.ts' | 'action.yaml';

/** What happens to the action after its first deploy, in order. */
export type ScenarioChange =
  /** The file's text changes here: what a write to disk, or an edit in the editor, makes of it. */
  | { readonly kind: 'edit'; readonly file: ScenarioFile; readonly edit: (text: string) => string }
  /** A colleague pushes this code, with no condition. */
  | { readonly kind: 'colleague-pushes'; readonly code: string }
  /** The action's folder is deleted here. */
  | { readonly kind: 'delete-folder' }
  /** The action's folder is copied here into `<key>-copy`: two folders declare its key. */
  | { readonly kind: 'copy-folder' }
  /** A colleague deletes the action on the server. */
  | { readonly kind: 'delete-on-server' };

export interface DeployScenario {
  readonly name: string;
  /** The first main.ts; undefined: the action has none (created on the server without code). */
  readonly firstCode: string | undefined;
  /** Deployed (created on the server) before the changes, so the lock has its base. */
  readonly deployed: boolean;
  readonly changes: readonly ScenarioChange[];
  /** The file the editor saves. */
  readonly saves: ScenarioFile;
  /** The command line's verdict, and the save's unless `save` says otherwise. */
  readonly verdict: Verdict;
  /** Where the faces differ by a documented rule: the save's verdict, and the rule. */
  readonly save?: { readonly verdict: Verdict | 'no save'; readonly because: string };
  /** The row's requests for the action lose their connection. */
  readonly dropped?: boolean;
}

/** Code that disagrees with `actionMetadata`'s metadata: a parameter it does not declare, a number where text is. */
export const MISMATCH = 'export async function main(n: number): Promise<string> {\n  return String(n);\n}\n';
export const MARKERS = `${textMain('a')}<<<<<<< Local\nconst x = 1;\n=======\nconst x = 2;\n>>>>>>> Server\n`;

const write = (file: ScenarioFile, text: string): ScenarioChange => ({ kind: 'edit', file, edit: () => text });
const renamed: ScenarioChange = { kind: 'edit', file: 'action.yaml', edit: (yaml) => yaml.replace(/^name: .*$/m, 'name: Renamed') };
/** The key changed in the folder (and the name, so the server's copy tells the push apart): `<key>-renamed`. */
const rekeyed: ScenarioChange = {
  kind: 'edit',
  file: 'action.yaml',
  edit: (yaml) => yaml.replace(/^key: (.*)$/m, 'key: $1-renamed').replace(/^name: .*$/m, 'name: Renamed'),
};

export const DEPLOY_SCENARIOS: readonly DeployScenario[] = [
  {
    name: 'new (created on the server, no code yet)',
    firstCode: undefined,
    deployed: true,
    changes: [write('main.ts', textMain('first'))],
    saves: 'main.ts',
    verdict: 'updated',
  },
  { name: 'changed here', firstCode: textMain('a'), deployed: true, changes: [write('main.ts', textMain('mine'))], saves: 'main.ts', verdict: 'updated' },
  {
    name: 'changed on the server',
    firstCode: textMain('a'),
    deployed: true,
    changes: [{ kind: 'colleague-pushes', code: textMain('theirs') }],
    saves: 'main.ts',
    verdict: 'held',
  },
  {
    name: 'changed on both',
    firstCode: textMain('a'),
    deployed: true,
    changes: [{ kind: 'colleague-pushes', code: textMain('theirs') }, write('main.ts', textMain('mine'))],
    saves: 'main.ts',
    verdict: 'held',
  },
  {
    name: 'deleted here',
    firstCode: textMain('a'),
    deployed: true,
    changes: [{ kind: 'delete-folder' }],
    saves: 'main.ts',
    verdict: 'only-on-server',
    save: { verdict: 'no save', because: 'a deleted folder has no file to save' },
  },
  {
    name: 'deleted on the server',
    firstCode: textMain('a'),
    deployed: true,
    changes: [{ kind: 'delete-on-server' }],
    saves: 'main.ts',
    verdict: 'held',
    save: { verdict: 'not-on-server', because: 'the editor forgets the base of an action its list no longer holds, and offers Create on Server' },
  },
  { name: 'metadata only', firstCode: textMain('a'), deployed: true, changes: [renamed], saves: 'action.yaml', verdict: 'updated' },
  {
    // The server keeps the action and its history under the new key: neither face makes a second one.
    name: 'key changed in its folder',
    firstCode: textMain('a'),
    deployed: true,
    changes: [rekeyed],
    saves: 'action.yaml',
    verdict: 'updated',
  },
  {
    name: 'code that disagrees with its metadata',
    firstCode: textMain('a'),
    deployed: true,
    changes: [write('main.ts', MISMATCH)],
    saves: 'main.ts',
    verdict: 'refused',
  },
  {
    name: 'key declared by a second folder',
    firstCode: textMain('a'),
    deployed: true,
    changes: [{ kind: 'copy-folder' }, write('main.ts', textMain('mine'))],
    saves: 'main.ts',
    verdict: 'refused',
  },
  { name: 'conflict markers', firstCode: textMain('a'), deployed: true, changes: [write('main.ts', MARKERS)], saves: 'main.ts', verdict: 'refused' },
  {
    name: 'not on the server',
    firstCode: textMain('a'),
    deployed: false,
    changes: [],
    saves: 'main.ts',
    verdict: 'created',
    save: { verdict: 'not-on-server', because: 'a save never creates an action: it offers Create on Server (docs/deploy.md)' },
  },
  {
    name: 'connection dropped',
    firstCode: textMain('a'),
    deployed: true,
    changes: [write('main.ts', textMain('mine'))],
    saves: 'main.ts',
    verdict: 'failed',
    dropped: true,
  },
];

/** The row's title in both faces: its verdict, and the save's where a documented rule makes it differ. */
export function scenarioTitle(row: DeployScenario): string {
  return `${row.name}: ${row.verdict}${row.save ? `; a save: ${row.save.verdict} (${row.save.because})` : ', in both'}`;
}
