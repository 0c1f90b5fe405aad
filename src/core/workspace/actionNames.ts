/**
 * Naming actions: the one rule by which a command of the command line and the editor find an action
 * by its key. A name is `key`, or `application/key`. A key held by one application names its action;
 * a key held by two or more is an error naming each as `application/key` (whatever the command: a
 * deploy of the wrong one is worse than a question), and a name that finds nothing is an error too.
 * No names means every action.
 */

export interface ActionName {
  /** The name as given, for messages. */
  readonly text: string;
  readonly application?: string;
  readonly key: string;
}

/**
 * `key` or `application/key` (split at the last `/`, since a key holds none and an application id
 * may); undefined when either side is empty.
 */
export function parseActionName(text: string): ActionName | undefined {
  const slash = text.lastIndexOf('/');
  const name: ActionName = slash < 0 ? { text, key: text } : { text, application: text.slice(0, slash), key: text.slice(slash + 1) };
  return name.key === '' || name.application === '' ? undefined : name;
}

/** Where an action is: its application (and any other id it answers to there) and its key. */
export interface NamedAction {
  readonly application: string;
  /** Other ids that name the same application (a target's application id beside the project's). */
  readonly aliases?: readonly string[];
  readonly key: string;
}

export type NameProblem =
  | { readonly kind: 'unknown'; readonly name: string }
  | { readonly kind: 'ambiguous'; readonly name: string; readonly choices: readonly string[] };

/**
 * The candidates the names choose, in the candidates' order, and the names that choose none or more
 * than one application's action. Every candidate when there are no names.
 */
export function selectActions<T>(
  names: readonly ActionName[],
  candidates: readonly T[],
  where: (candidate: T) => NamedAction,
): { readonly chosen: T[]; readonly problems: NameProblem[] } {
  if (names.length === 0) return { chosen: [...candidates], problems: [] };
  const chosen = new Set<T>();
  const problems: NameProblem[] = [];
  for (const name of names) {
    const found = candidates.filter((c) => {
      const at = where(c);
      return at.key === name.key && (name.application === undefined || at.application === name.application || (at.aliases ?? []).includes(name.application));
    });
    const applications = [...new Set(found.map((c) => where(c).application))];
    if (found.length === 0) problems.push({ kind: 'unknown', name: name.text });
    else if (applications.length > 1) problems.push({ kind: 'ambiguous', name: name.text, choices: applications.map((a) => `${a}/${name.key}`) });
    else for (const c of found) chosen.add(c);
  }
  return { chosen: candidates.filter((c) => chosen.has(c)), problems };
}

/** What a face says of the problems: the ambiguous names with their choices, then the unknown ones. */
export function describeNameProblems(problems: readonly NameProblem[]): string {
  const lines: string[] = [];
  for (const p of problems)
    if (p.kind === 'ambiguous') lines.push(`"${p.name}" is in ${p.choices.length} applications: name one as ${p.choices.join(' or ')}.`);
  const unknown = problems.filter((p) => p.kind === 'unknown').map((p) => p.name);
  if (unknown.length > 0) lines.push(`No such action: ${unknown.join(', ')}.`);
  return lines.join(' ');
}
