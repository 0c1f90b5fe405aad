/**
 * Deploy outcomes for a person (one line per action, stable words a log can be grepped for) and for
 * a program (--json), and the exit code they add up to.
 */
import { ApiError } from '../core/client';
import { type ActionOutcome, type FileProblem, type Outcome, type ServerVersionInfo, type Step, type Verdict, verdictOf } from '../core/deploy/outcome';
import { serverText } from '../core/text';
import { exitOfKind } from './context';
import { EXIT, type ExitCode, worstExit } from './exitCodes';
import { type Colors } from './output';

export { type Verdict } from '../core/deploy/outcome';

export function exitOfOutcome(outcome: ActionOutcome): ExitCode {
  return worstExit(
    outcome.steps.map((s) => {
      switch (s.kind) {
        case 'failed':
          return s.error instanceof ApiError ? exitOfKind(s.error.kind) : EXIT.failed;
        case 'held':
          return EXIT.conflict;
        case 'refused':
          return EXIT.refused;
        default:
          return EXIT.ok;
      }
    }),
  );
}

const STEP_NAMES: Record<Step, string> = { action: 'action', metadata: 'metadata', implementation: 'code' };

/** The word of a verdict as a line prints it: in a dry run, what would be done (`would-create`). */
export function verdictWord(verdict: Verdict, dryRun: boolean): string {
  return dryRun && ['created', 'updated', 'deleted'].includes(verdict) ? `would-${verdict.replace(/d$/, '')}` : verdict;
}

/** The lines of one action: `verb  application/key  details`, then one line per problem. */
export function outcomeLines(outcome: ActionOutcome, color: Colors, options: { readonly noCode?: boolean } = {}): string[] {
  const verdict = verdictOf(outcome.steps);
  const word = verdictWord(verdict, outcome.dryRun).padEnd(15);
  const paint = {
    created: color.green,
    updated: color.green,
    deleted: color.yellow,
    unchanged: color.dim,
    held: color.yellow,
    refused: color.red,
    failed: color.red,
    'only-on-server': color.dim,
    'not-on-server': color.yellow,
    cancelled: color.dim,
  }[verdict];
  // The parts of an action it creates have nothing on the server to be checked against.
  const creating = outcome.steps.some((s) => s.kind === 'pushed' && s.op === 'create');
  const details = outcome.steps.map((s) => stepDetail(s, creating)).filter((d): d is string => d !== undefined);
  // An action folder without main.ts deploys its metadata alone: said, so it is not taken for a whole deploy.
  if (options.noCode && (verdict === 'created' || verdict === 'updated')) details.push('metadata only: no main.ts here');
  const lines = [`${paint(word)}${actionName(outcome)}${details.length ? `  ${details.join('; ')}` : ''}`];
  for (const s of outcome.steps) if (s.kind === 'refused') lines.push(...s.problems.map((p) => `  ${problemLine(p)}`));
  return lines;
}

/** `application/key`: the key of an action only on the server is the server's text, shown and never obeyed. */
function actionName(outcome: ActionOutcome): string {
  return `${outcome.application}/${serverText(outcome.key, 120)}`;
}

/** How many of the actions only on the server a deploy's summary line names. */
const NAMED_ONLY_ON_SERVER = 3;

/**
 * The actions a deploy found only on the server, as lines. One is its own line; more are one line
 * (their count, the first few, where to see them all), since on a shared server they can outnumber
 * the actions of the repository and bury the lines that need reading. Those this repository deployed
 * or pulled (their folder is gone since) are named first: `deploy --delete` would remove them.
 */
export function onlyOnServerLines(actions: readonly { readonly outcome: ActionOutcome; readonly deployedHere: boolean }[], color: Colors): string[] {
  if (actions.length === 0) return [];
  if (actions.length === 1) {
    // Said of this one action: whether --delete would remove it, never a rule it may not fall under.
    const [{ outcome, deployedHere }] = actions as [(typeof actions)[number]];
    const why = deployedHere ? 'this repository deployed it: deploy --delete removes it' : 'this repository never deployed it: deploy --delete leaves it too';
    return [`${color.dim('only-on-server'.padEnd(15))}${actionName(outcome)}  on the server only, left alone (${why})`];
  }
  const ordered = [...actions.filter((a) => a.deployedHere), ...actions.filter((a) => !a.deployedHere)];
  const named = ordered.slice(0, NAMED_ONLY_ON_SERVER).map(({ outcome }) => actionName(outcome));
  const more = actions.length - named.length;
  const deployedHere = actions.filter((a) => a.deployedHere).length;
  const removable =
    deployedHere === 0
      ? ''
      : `; deploy --delete removes the ${deployedHere === 1 ? 'one' : deployedHere} this repository deployed${deployedHere < actions.length ? ', named first' : ''}`;
  return [
    `${color.dim('only-on-server'.padEnd(15))}${actions.length} actions on the server only, left alone: ${named.join(', ')}${more > 0 ? ` and ${more} more` : ''}` +
      ` (custom-actions status lists them${removable})`,
  ];
}

function stepDetail(s: Outcome, creating: boolean): string | undefined {
  const name = STEP_NAMES[s.step];
  switch (s.kind) {
    case 'pushed':
      return s.step === 'action' ? undefined : `${name}${s.checked || creating ? '' : ' (unchecked)'}`;
    case 'held':
      return heldText(s.step, s.why, s.server);
    case 'refused':
      if (s.why === 'invalid-metadata') return 'action.yaml is invalid';
      if (s.why === 'conflict-markers') return `${name} holds conflict markers`;
      if (s.why === 'no-main') return 'the code defines no main';
      if (s.why === 'shared-key') return 'its key is declared in other folders too';
      // The parser's errors alone say nothing of the metadata: the code is not yet code.
      return s.problems.length > 0 && s.problems.every((p) => p.code === 'syntax') ? 'the code does not parse' : 'the code disagrees with its metadata';
    case 'failed':
      return `${name}: ${s.message}`;
    case 'skipped':
      return `${name} not sent (${STEP_NAMES[s.because]} did not go through)`;
    case 'superseded':
      return `${name} superseded`;
    case 'only-on-server':
      return 'on the server only, left alone (deploy --delete removes what this repository deployed)';
    case 'not-on-server':
      return 'not on the server';
    case 'cancelled':
      return `${name} cancelled`;
    default:
      return undefined;
  }
}

export function heldText(step: Step, why: string, server: ServerVersionInfo | undefined): string {
  const name = STEP_NAMES[step];
  const what =
    why === 'deleted-on-server'
      ? 'deleted on the server since the base'
      : why === 'no-base'
        ? `${name} on the server was never deployed or pulled from this repository`
        : `${name} changed on the server since the base`;
  return `${what}${serverVersionText(server)}`;
}

function serverVersionText(server: ServerVersionInfo | undefined): string {
  if (!server) return '';
  const parts = [
    server.version !== undefined ? `version ${server.version}` : server.etag ? `version ${serverText(server.etag, 60)}` : undefined,
    server.at ? `at ${serverText(server.at, 40)}` : undefined,
    server.by ? `by ${serverText(server.by, 80)}` : undefined,
  ].filter(Boolean);
  return parts.length ? ` (${parts.join(', ')})` : '';
}

/** `file:line:column: message`, lines and columns from 1, as editors and CI annotations read them. */
export function problemLine(p: FileProblem): string {
  return `${p.file}:${p.range.start.line + 1}:${p.range.start.character + 1}: ${p.message}`;
}

/** An outcome as JSON: no error objects (they may hold anything), only their words. */
export function outcomeJson(outcome: ActionOutcome): unknown {
  return {
    application: outcome.application,
    key: outcome.key,
    id: outcome.id,
    result: verdictOf(outcome.steps),
    steps: outcome.steps.map((s) => {
      if (s.kind === 'failed') return { kind: s.kind, step: s.step, message: s.message, ...(s.error instanceof ApiError ? { errorKind: s.error.kind } : {}) };
      if (s.kind === 'refused')
        return {
          kind: s.kind,
          step: s.step,
          problems: s.problems.map((p) => ({ file: p.file, line: p.range.start.line + 1, column: p.range.start.character + 1, message: p.message })),
        };
      return s;
    }),
  };
}

/**
 * A unified diff (src/core/deploy/contentDiff.ts) as lines under its action's: coloured as git colours
 * one where the stream takes colour. The lines hold server text; the terminal guard escapes them as
 * every line is escaped.
 */
export function diffLines(lines: readonly string[], color: Colors, indent = '    '): string[] {
  return lines.map((line) => {
    const paint = /^(---|\+\+\+) /.test(line)
      ? color.bold
      : line.startsWith('@@')
        ? color.cyan
        : line.startsWith('+')
          ? color.green
          : line.startsWith('-')
            ? color.red
            : (text: string) => text;
    return `${indent}${paint(line)}`;
  });
}

/** A status's or a plan's diffs as JSON: each part's unified diff as one text, as `git diff` prints it. */
export function diffJson(diff: { readonly metadata?: readonly string[]; readonly implementation?: readonly string[] } | undefined): unknown {
  if (!diff) return undefined;
  const text = (lines: readonly string[] | undefined) => (lines && lines.length > 0 ? `${lines.join('\n')}\n` : undefined);
  return { ...(diff.metadata ? { metadata: text(diff.metadata) } : {}), ...(diff.implementation ? { implementation: text(diff.implementation) } : {}) };
}
