/**
 * Loading a bundle (dist/analysis.js, the TypeScript compiler) through a V8 code cache: compiling its
 * 3.6 MB and running its top level takes most of a second of a changed deploy, and the bytecode V8
 * keeps after a first use brings that to about a tenth (docs/cli.md, *The compiler's code cache*).
 *
 * The cache is code, so where it lives is a trust question. Never in the workspace: a cloned
 * repository must not be able to hand this process bytecode. Beside the bundle when that folder is
 * writable (it is as trusted as the bundle itself), else a folder of the user's own in their cache
 * directory that no one else can write to, else nowhere. A file is used only when its header names
 * this exact bundle, Node, V8 and architecture and its bytes hash to what the header says; V8 then
 * checks its own version and flags, and anything it rejects is rebuilt.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  closeSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  statSync,
  unlinkSync,
  writeSync,
} from 'node:fs';
import Module, { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Script } from 'node:vm';

/** The variable that turns the cache off (`off`) or names its folder. */
export const CODE_CACHE_VARIABLE = 'CUSTOM_ACTIONS_CODE_CACHE';

const MAGIC = 'custom-actions code cache 1';
const SUFFIX = '.v8cache';
/** Caches kept in one folder: one per Node version in use, the oldest removed when a new one is written. */
const KEEP = 3;

/** How a load went: `used` a cache; none there (`absent`) or V8 refused it (`rejected`), so `save` writes one; `off`: no place for one. */
export type CacheState = 'used' | 'absent' | 'rejected' | 'off';

export interface CachedLoad<T> {
  readonly exports: T;
  readonly state: CacheState;
  /** The cache file read or to be written; undefined when there is no place for one. */
  readonly file?: string;
  /**
   * Writes the cache when none was used, from what V8 compiled by now (so call it after the module
   * did its work: the functions compiled lazily are then in it). Never throws; true when written.
   */
  save(): boolean;
}

export interface CodeCacheOptions {
  readonly env: Readonly<Record<string, string | undefined>>;
  /** Folders that must never hold the cache nor supply one: the project's and the current one. */
  readonly workspace: readonly string[];
  /** Told why a folder named by the variable is not used. */
  readonly warn?: (message: string) => void;
}

/** Requires `file` as `require` would, through the code cache where there is a safe place for one. */
export function loadCached<T>(file: string, options: CodeCacheOptions): CachedLoad<T> {
  const source = readFileSync(file, 'utf8');
  const dir = cacheFolder(path.dirname(file), options);
  const key = dir === undefined ? '' : cacheKey(source);
  const cacheFile = dir === undefined ? undefined : path.join(dir, `${path.basename(file, '.js')}-${key.slice(0, 24)}${SUFFIX}`);
  const cached = cacheFile === undefined ? undefined : readCache(cacheFile, key);
  const script = new Script(Module.wrap(source), { filename: file, cachedData: cached });
  const state: CacheState = cacheFile === undefined ? 'off' : cached === undefined ? 'absent' : script.cachedDataRejected === true ? 'rejected' : 'used';
  const exports = run<T>(script, file);
  let saved = false;
  return {
    exports,
    state,
    file: cacheFile,
    save() {
      if (saved || cacheFile === undefined || state === 'used') return false;
      saved = true;
      try {
        writeCache(cacheFile, key, script.createCachedData());
        return true;
      } catch {
        // A cache is only ever a saving: a full disk or a folder gone since costs the next run its load, nothing more.
        return false;
      }
    },
  };
}

/** The module's code run as CommonJS does: its own `module`, `require` resolving from its folder. */
function run<T>(script: Script, file: string): T {
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  const module = new Module(file);
  module.filename = file;
  module.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(path.dirname(file));
  wrapper.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  return module.exports as T;
}

/** What a cache must have been made from: this bundle's bytes, this Node, V8, platform and architecture. */
function cacheKey(source: string): string {
  return createHash('sha256')
    .update(`${MAGIC}\0${process.version}\0${process.versions.v8}\0${process.platform}\0${process.arch}\0`)
    .update(source)
    .digest('hex');
}

/** The folder the cache goes to, by the rules above, or undefined for none. */
export function cacheFolder(bundleDir: string, options: CodeCacheOptions): string | undefined {
  const setting = options.env[CODE_CACHE_VARIABLE]?.trim();
  if (setting && /^(off|0|false|no|none)$/i.test(setting)) return undefined;
  const workspace = options.workspace.map(real);
  const outside = (dir: string) => !workspace.some((w) => isWithin(real(dir), w));
  if (setting) {
    const why = !path.isAbsolute(setting)
      ? 'is not an absolute path'
      : !outside(setting)
        ? 'is inside the workspace'
        : ownFolder(setting)
          ? undefined
          : 'is not a folder of your own that only you can write to';
    if (why === undefined) return setting;
    options.warn?.(`${CODE_CACHE_VARIABLE}: ${setting} ${why}; the compiler loads without its cache.`);
    return undefined;
  }
  if (outside(bundleDir) && writable(bundleDir)) return bundleDir;
  const user = userCacheFolder(options.env);
  return user !== undefined && outside(user) && ownFolder(user) ? user : undefined;
}

/** `$XDG_CACHE_HOME/custom-actions`, else `~/.cache/custom-actions` (`%LOCALAPPDATA%` on Windows). */
function userCacheFolder(env: CodeCacheOptions['env']): string | undefined {
  const xdg = env.XDG_CACHE_HOME;
  if (xdg && path.isAbsolute(xdg)) return path.join(xdg, 'custom-actions');
  if (process.platform === 'win32' && env.LOCALAPPDATA && path.isAbsolute(env.LOCALAPPDATA)) return path.join(env.LOCALAPPDATA, 'custom-actions', 'cache');
  const home = env.HOME ?? os.homedir();
  return home && path.isAbsolute(home) ? path.join(home, '.cache', 'custom-actions') : undefined;
}

/** Made if missing (only its owner may enter), then: a folder, not a link, of this user, that no group or other may write to. */
function ownFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    if (!stat.isDirectory()) return false;
    if (process.platform === 'win32') return true;
    return stat.uid === process.getuid?.() && (stat.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

function writable(dir: string): boolean {
  try {
    // Tried rather than asked (access() says yes to root on a read-only mount).
    const probe = path.join(dir, `.custom-actions-probe-${process.pid}-${randomBytes(4).toString('hex')}`);
    closeSync(openSync(probe, 'wx', 0o600));
    unlinkSync(probe);
    return true;
  } catch {
    return false;
  }
}

/** The cache's bytes when the file is this user's regular file, made for `key`, and whole; else undefined. */
function readCache(file: string, key: string): Buffer | undefined {
  try {
    const stat = lstatSync(file);
    if (!stat.isFile() || (process.platform !== 'win32' && stat.uid !== process.getuid?.())) return undefined;
    const bytes = readFileSync(file);
    const header = `${MAGIC}\n${key}\n`;
    if (bytes.length < header.length + 65 || bytes.toString('latin1', 0, header.length) !== header) return undefined;
    const digest = bytes.toString('latin1', header.length, header.length + 64);
    const data = bytes.subarray(header.length + 65);
    return createHash('sha256').update(data).digest('hex') === digest ? data : undefined;
  } catch {
    return undefined;
  }
}

/** Written whole or not at all: a temporary file of this process, then renamed over the name. */
function writeCache(file: string, key: string, data: Buffer): void {
  const temp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${MAGIC}\n${key}\n${createHash('sha256').update(data).digest('hex')}\n`);
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    renameSync(temp, file);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  removeOld(path.dirname(file), path.basename(file));
}

/** Of this bundle's caches in the folder (other Node versions), only the newest few stay. */
function removeOld(dir: string, kept: string): void {
  const prefix = kept.slice(0, kept.lastIndexOf('-') + 1);
  const others = readdirSync(dir)
    .filter((f) => f !== kept && f.startsWith(prefix) && f.endsWith(SUFFIX))
    .map((f) => ({ f, at: statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { f } of others.slice(KEEP - 1)) unlinkSync(path.join(dir, f));
}

function real(p: string): string {
  try {
    return realpathSync(p);
  } catch {
    return path.resolve(p);
  }
}

function isWithin(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}
