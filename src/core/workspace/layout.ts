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
 * Keys (lower-cased) listed more than once among the actions of one application, with the folders holding
 * each. The server refuses a second action with the same key (409), so the workspace reports it
 * before pushing. Keys that differ only in case are reported too: their folders would be one
 * folder on a case-insensitive file system.
 */
export function duplicateKeys(actions: readonly { readonly key: string; readonly folder: string }[]): Map<string, string[]> {
  const byKey = new Map<string, string[]>();
  for (const { key, folder } of actions) {
    const id = key.toLowerCase();
    byKey.set(id, [...(byKey.get(id) ?? []), folder]);
  }
  return new Map([...byKey].filter(([, folders]) => folders.length > 1));
}
