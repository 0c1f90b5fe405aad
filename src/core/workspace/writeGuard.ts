/**
 * The rule that keeps every write of the extension inside the workspace folder it names (docs/security.md,
 * "Round two"). A write follows symbolic links: a link shipped in a cloned repository, as the file itself
 * or as any folder above it, would send the extension's text wherever it points. So before a write the
 * real path of the target (when it exists) and of every folder between it and the workspace folder must
 * stay inside the workspace folder's real path. The file system is read by the caller; this decides.
 */

/** What the file system says about one path on the way from the target up to the workspace folder. */
export type PathFact =
  /** Nothing there: the write would create it, inside whatever folder above it is. */
  | { readonly path: string; readonly state: 'absent' }
  /** A file or folder (or a link) whose real path is `real`. */
  | { readonly path: string; readonly state: 'present'; readonly real: string }
  /** A link that points nowhere: a write would create whatever it names, anywhere. */
  | { readonly path: string; readonly state: 'dangling' }
  /** A link whose target cannot be read on this file system (a virtual one): never written through. */
  | { readonly path: string; readonly state: 'link' };

export type WriteCheck = { readonly ok: true } | { readonly ok: false; readonly reason: string };

/**
 * The paths to look at before writing `target`, the target first, then each folder above it, down to
 * and excluding `root`; undefined when `target` is not inside `root` at all. Both are normalised paths
 * with `/` as separator (URI paths), as `Uri.joinPath` gives them.
 */
export function pathsToCheck(root: string, target: string): string[] | undefined {
  const base = trimSlash(root);
  const path = trimSlash(target);
  if (path === base || !path.startsWith(`${base}/`)) return undefined;
  const rest = path.slice(base.length + 1).split('/');
  if (rest.some((part) => part === '' || part === '.' || part === '..')) return undefined;
  const out: string[] = [];
  for (let i = rest.length; i > 0; i--) out.push(`${base}/${rest.slice(0, i).join('/')}`);
  return out;
}

/**
 * Whether a write to the first path of `facts` (and the folders after it, as `pathsToCheck` lists them)
 * stays inside `rootReal`, the real path of the workspace folder. `caseInsensitive` for file systems that
 * compare names so (Windows). The reason names the path that leaves, relative to the workspace folder,
 * and `place` says what that folder is to the reader (the command line's is "the project").
 */
export function judgeWrite(root: string, rootReal: string, facts: readonly PathFact[], caseInsensitive = false, place = 'the workspace folder'): WriteCheck {
  const name = (path: string) => trimSlash(path).slice(trimSlash(root).length + 1) || path;
  for (const fact of facts) {
    if (fact.state === 'absent') continue;
    if (fact.state === 'dangling') return { ok: false, reason: `${name(fact.path)} is a symbolic link that points to nothing` };
    if (fact.state === 'link') return { ok: false, reason: `${name(fact.path)} is a symbolic link` };
    if (!isInside(rootReal, fact.real, caseInsensitive)) {
      return { ok: false, reason: `${name(fact.path)} is a link to a place outside ${place}` };
    }
  }
  return { ok: true };
}

/** Whether `path` is `root` or below it; both absolute, with `/` or `\` as separator. */
export function isInside(root: string, path: string, caseInsensitive = false): boolean {
  const fold = (p: string) => {
    const slashed = trimSlash(p.replace(/\\/g, '/'));
    return caseInsensitive ? slashed.toLowerCase() : slashed;
  };
  const base = fold(root);
  const candidate = fold(path);
  return candidate === base || candidate.startsWith(base === '' ? '/' : `${base}/`);
}

function trimSlash(path: string): string {
  return path.length > 1 ? path.replace(/\/+$/, '') : path === '/' ? '' : path;
}
