/**
 * The folder of an action is named after its key: a valid key (letters, digits, _ and -, starting
 * with a letter) is already a safe folder name on every system, so it is used as it is. Anything
 * else a key could hold before it is valid is replaced, so a half-typed key never names a path
 * outside the application's folder.
 */
export function actionFolderName(key: string): string {
  const safe = key
    .trim()
    .replace(/[^A-Za-z0-9_-]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return safe === '' ? 'action' : safe;
}

/**
 * The actions of one application whose key another of its folders declares too, each with all the
 * actions of its key (itself first). Keys that differ only in case count as one: their folders would
 * be one folder on a case-insensitive file system. The server keeps one action per key, so which
 * folder is that action would be a guess: none of them is deployed, by a save or by a deploy, until
 * each has a key of its own (docs/deploy.md, *One key, one folder*).
 */
export function sharedKeys<T extends { readonly key: string }>(actions: readonly T[]): Map<T, T[]> {
  const byKey = new Map<string, T[]>();
  for (const action of actions) {
    const id = action.key.toLowerCase();
    byKey.set(id, [...(byKey.get(id) ?? []), action]);
  }
  const shared = new Map<T, T[]>();
  for (const group of byKey.values())
    if (group.length > 1) for (const action of group) shared.set(action, [action, ...group.filter((other) => other !== action)]);
  return shared;
}

/** Why a pull of a key that several folders declare (their action.yaml files) writes nowhere, the same in every face. */
export function sharedKeyPullReason(key: string, files: readonly string[]): string {
  return `the key "${key}" is declared in ${files.length} folders here (${[...files].sort().join(', ')}): which of them to pull into would be a guess, so give each a key of its own first`;
}

/** What is said at one folder of a key that `others` (their action.yaml files) declare too, the same in every face. */
export function sharedKeyMessage(key: string, others: readonly string[]): string {
  return `the key "${key}" is also declared in ${others.join(', ')}: the server keeps one action per key, so no folder with this key is deployed until each has a key of its own`;
}
