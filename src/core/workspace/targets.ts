/**
 * The targets of a project (docs/environments.md): the file's own `baseUrl` and application ids are the
 * target named `default`; `targets` adds named ones (staging, production), each a server and the ids
 * of the applications on it. Which one a command or the editor works on is chosen here once, for both
 * faces: a name given (the command line's flag, the editor's pick), the variable, the branch in CI
 * through `branches`, else the default.
 */
import { type ApplicationEntry, DEFAULT_TARGET, type ProjectFile, TARGET_NAME } from '../schema/project';

/** The variable that names the target of a command (below `--target`, above the branch). */
export const TARGET_VARIABLE = 'CUSTOM_ACTIONS_TARGET';

export interface ProjectTarget {
  readonly name: string;
  /** A URL, or `local-sandbox`. */
  readonly baseUrl: string;
  /** Nothing writes to it without a confirmation or `--yes`. */
  readonly protected: boolean;
  readonly isDefault: boolean;
  /** Whether the file names it under `targets` (the `default` target is the file's own baseUrl and ids). */
  readonly named: boolean;
  /** The ids of the file's applications on this target's server, by the id the applications list gives. */
  readonly applicationIds: Readonly<Record<string, string>>;
}

/** An application of the project file on one target: `id` is its id there, `projectId` the file's. */
export type TargetApplication<A extends ApplicationEntry = ApplicationEntry> = A & { readonly projectId: string };

/** Every target of the file, the `default` one first. */
export function projectTargets(file: ProjectFile): ProjectTarget[] {
  const named = Object.entries(file.targets ?? {});
  const anyDefault = named.some(([, t]) => t.default === true);
  const own: ProjectTarget = {
    name: DEFAULT_TARGET,
    baseUrl: file.baseUrl,
    protected: false,
    isDefault: !anyDefault,
    named: false,
    applicationIds: Object.fromEntries(file.applications.map((a) => [a.id, a.id])),
  };
  return [
    own,
    ...named.map(([name, t]) => ({
      name,
      baseUrl: t.baseUrl,
      protected: t.protected === true,
      isDefault: t.default === true,
      named: true,
      // An application the target leaves out keeps the file's id.
      applicationIds: Object.fromEntries(file.applications.map((a) => [a.id, t.applications?.[a.id] ?? a.id])),
    })),
  ];
}

export function defaultTarget(file: ProjectFile): ProjectTarget {
  return projectTargets(file).find((t) => t.isDefault)!;
}

export function findTarget(file: ProjectFile, name: string): ProjectTarget | undefined {
  return projectTargets(file).find((t) => t.name === name);
}

/** Whether the file names targets of its own: without, everything is as a file of one server. */
export function hasNamedTargets(file: ProjectFile): boolean {
  return Object.keys(file.targets ?? {}).length > 0;
}

/** The file's applications as they are on `target`: each with its id there. */
export function applicationsOn<A extends ApplicationEntry>(target: ProjectTarget, applications: readonly A[]): TargetApplication<A>[] {
  return applications.map((app) => ({ ...app, projectId: app.id, id: target.applicationIds[app.id] ?? app.id }));
}

/** Why a target was chosen, for the line a command prints and its JSON. */
export type TargetReason =
  | { readonly source: 'flag' }
  | { readonly source: 'variable'; readonly variable: string }
  | { readonly source: 'branch'; readonly branch: string; readonly from: string; readonly pattern: string }
  | { readonly source: 'default'; readonly branch?: { readonly name: string; readonly from: string } };

export interface TargetChoice {
  readonly target: ProjectTarget;
  readonly why: TargetReason;
}

export interface TargetAsk {
  /** A name given by hand: the command line's `--target`, the editor's pick. */
  readonly given?: string;
  /** The environment, for `CUSTOM_ACTIONS_TARGET`. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The branch being built, only in CI (ciBranch, or git's), and where its name came from. */
  readonly branch?: { readonly name: string; readonly from: string };
}

export type TargetProblem = { readonly problem: string; readonly known: readonly string[] };

/**
 * The target to work on: the name given, else the variable, else the branch's through `branches`,
 * else the default. A name the file does not know is a problem, never a fall back to another target.
 */
export function chooseTarget(file: ProjectFile, ask: TargetAsk): TargetChoice | TargetProblem {
  const known = projectTargets(file).map((t) => t.name);
  const named = (name: string, why: TargetReason, where: string): TargetChoice | TargetProblem => {
    const target = findTarget(file, name);
    return target ? { target, why } : { problem: `${where} names the target "${name}", which customactions.yaml does not have`, known };
  };
  if (ask.given !== undefined && ask.given.trim() !== '') return named(ask.given.trim(), { source: 'flag' }, '--target');
  const variable = ask.env?.[TARGET_VARIABLE]?.trim();
  if (variable) return named(variable, { source: 'variable', variable: TARGET_VARIABLE }, TARGET_VARIABLE);
  if (ask.branch) {
    const match = branchTarget(file.branches ?? {}, ask.branch.name);
    if (match)
      return named(match.target, { source: 'branch', branch: ask.branch.name, from: ask.branch.from, pattern: match.pattern }, `branches: ${match.pattern}`);
    return { target: defaultTarget(file), why: { source: 'default', branch: ask.branch } };
  }
  return { target: defaultTarget(file), why: { source: 'default' } };
}

export function isTargetProblem(choice: TargetChoice | TargetProblem): choice is TargetProblem {
  return 'problem' in choice;
}

/** The entry of `branches` a branch matches: its own name first, then the patterns in the file's order. */
export function branchTarget(branches: Readonly<Record<string, string>>, branch: string): { readonly pattern: string; readonly target: string } | undefined {
  if (Object.hasOwn(branches, branch)) return { pattern: branch, target: branches[branch]! };
  for (const [pattern, target] of Object.entries(branches)) if (pattern.includes('*') && branchMatches(pattern, branch)) return { pattern, target };
  return undefined;
}

/** `*` stands for any characters, `/` included (`release/*` matches release/1.2 and release/1.2/hotfix); the rest is literal. */
export function branchMatches(pattern: string, branch: string): boolean {
  const source = pattern
    .split('*')
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${source}$`, 's').test(branch);
}

/** The variables a CI names its branch in, in the order they are read. */
export const CI_BRANCH_VARIABLES = ['GITHUB_REF_NAME', 'CI_COMMIT_REF_NAME'] as const;

/** Whether the environment is a CI's: there the branch picks the target, on a person's machine it does not. */
export function inCi(env: Readonly<Record<string, string | undefined>>): boolean {
  return ['CI', 'GITHUB_ACTIONS', 'GITLAB_CI'].some((name) => (env[name]?.trim() ?? '') !== '' && env[name] !== 'false');
}

/**
 * The branch a CI says it builds, from its own variables (GitHub's ref name of the push; GitLab's
 * ref name). Undefined when none says: the caller may ask git.
 */
export function ciBranch(env: Readonly<Record<string, string | undefined>>): { readonly name: string; readonly from: string } | undefined {
  for (const variable of CI_BRANCH_VARIABLES) {
    const name = env[variable]?.trim();
    if (name) return { name, from: variable };
  }
  return undefined;
}

/** The words of a choice: `production (branch main from GITHUB_REF_NAME, branches: main)`. */
export function describeTargetChoice({ target, why }: TargetChoice): string {
  const server = target.baseUrl;
  switch (why.source) {
    case 'flag':
      return `${target.name} at ${server} (--target)`;
    case 'variable':
      return `${target.name} at ${server} (${why.variable})`;
    case 'branch':
      return `${target.name} at ${server} (branch ${why.branch} from ${why.from}, branches: '${why.pattern}')`;
    case 'default':
      return `${target.name} at ${server} (the default${why.branch ? `; branch ${why.branch.name} from ${why.branch.from} matches no entry of branches` : ''})`;
  }
}

/** The choice as `--json` carries it. */
export function targetChoiceJson({ target, why }: TargetChoice): Record<string, unknown> {
  return { name: target.name, baseUrl: target.baseUrl, protected: target.protected, why };
}

/** Whether `name` could be a target's name (for a flag's value checked before the file is read). */
export function isTargetName(name: string): boolean {
  return TARGET_NAME.test(name);
}
