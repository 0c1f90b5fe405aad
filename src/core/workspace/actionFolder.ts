import { limits } from '../schema/limits';

/**
 * The one rule for a name from a server that is about to name a folder of the workspace. An action's
 * folder is named after its key, and the key comes from the server's list: a server (hostile, or just
 * wrong) can send `../../outside/evil`, `score-lead/` or `CON`. Only a key that is valid metadata and a
 * safe folder name on every system names a folder; the others are shown, never written.
 */
export type KeyCheck = { readonly ok: true; readonly key: string } | { readonly ok: false; readonly reason: string };

/** Names Windows reserves for devices, whatever the case and extension: a folder cannot be called so. */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9]|lpt[0-9])$/i;

export function checkServerKey(key: unknown): KeyCheck {
  if (typeof key !== 'string' || key.length === 0) return { ok: false, reason: 'the server sent no key' };
  if (key.length > limits.keyMaxLength) return { ok: false, reason: `the key is longer than ${limits.keyMaxLength} characters` };
  if (!limits.keyPattern.test(key))
    return { ok: false, reason: 'the key holds characters other than letters, digits, _ and -, or does not start with a letter' };
  if (WINDOWS_DEVICE.test(key)) return { ok: false, reason: 'the key is a device name on Windows, which cannot name a folder' };
  return { ok: true, key };
}

/**
 * The path of `name` as a direct child of `parent` (both '/'-separated, as in a URI's path), or
 * undefined when, after normalisation, it would be anything else: the parent itself, a grandchild,
 * or somewhere outside. Checked even for names that passed `checkServerKey`, so a change to that rule
 * cannot open a way out of the application's folder.
 */
export function directChildPath(parent: string, name: string): string | undefined {
  // A backslash separates folders on Windows, and NUL ends a path for the system.
  if (name.includes('\\') || name.includes('\0')) return undefined;
  const base = normalize(parent.split('/'));
  const child = normalize([...parent.split('/'), ...name.split('/')]);
  if (base === undefined || child === undefined) return undefined;
  const isDirectChild = child.length === base.length + 1 && base.every((segment, i) => child[i] === segment) && child[base.length] === name;
  return isDirectChild ? '/' + child.join('/') : undefined;
}

/** Path segments with `.`, empty segments and `..` resolved; undefined when `..` climbs above the root. */
function normalize(segments: readonly string[]): string[] | undefined {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') {
      if (out.length === 0) return undefined;
      out.pop();
      continue;
    }
    out.push(segment);
  }
  return out;
}

export type ActionFolderCheck = { readonly ok: true; readonly path: string } | { readonly ok: false; readonly reason: string };

/** Where the action with this server key goes inside its application's folder, if it may go anywhere. */
export function actionFolderForServerKey(applicationFolder: string, key: unknown): ActionFolderCheck {
  const checked = checkServerKey(key);
  if (!checked.ok) return checked;
  const path = directChildPath(applicationFolder, checked.key);
  return path === undefined ? { ok: false, reason: "the key would name a folder outside the application's folder" } : { ok: true, path };
}
