import { readFile } from 'node:fs/promises';
import { type ProjectTarget } from '../core/workspace';
import { CliError, EXIT } from './exitCodes';

/** What a key is looked up for: a target's name, and whether it is the default target (which today's names serve). */
export type KeyTarget = Pick<ProjectTarget, 'name' | 'isDefault'>;

/** The environment variable of the key that serves every application without one of its own. */
export const DEFAULT_KEY_VARIABLE = 'CUSTOM_ACTIONS_KEY';

/**
 * The environment variable of one application's key: `CUSTOM_ACTIONS_KEY_` and the application id in
 * capitals, every character other than a letter or a digit written `_` (`billing-eu` →
 * `CUSTOM_ACTIONS_KEY_BILLING_EU`).
 */
export function applicationKeyVariable(applicationId: string): string {
  return `${DEFAULT_KEY_VARIABLE}_${variablePart(applicationId)}`;
}

/**
 * The variables of one application's key on a target, most particular first (docs/environments.md,
 * *Keys*): `CUSTOM_ACTIONS_KEY_<TARGET>_<APP>`, then `CUSTOM_ACTIONS_KEY_<TARGET>` (every application
 * of the target; the file's own baseUrl is the target `default`); and for the default target only,
 * today's `CUSTOM_ACTIONS_KEY_<APP>` and `CUSTOM_ACTIONS_KEY`. A target that is not the default never
 * takes today's names, so a key meant for one server is never sent to another (promote holds two
 * targets' keys in one process). `<APP>` is the application's id on that target.
 */
export function keyVariables(applicationId: string, target?: KeyTarget): string[] {
  const own = target
    ? [`${DEFAULT_KEY_VARIABLE}_${variablePart(target.name)}_${variablePart(applicationId)}`, `${DEFAULT_KEY_VARIABLE}_${variablePart(target.name)}`]
    : [];
  return target === undefined || target.isDefault ? [...own, applicationKeyVariable(applicationId), DEFAULT_KEY_VARIABLE] : own;
}

function variablePart(name: string): string {
  return name.toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** Which variable an application's key is read from, and from where (the environment, or a key file's name). */
export interface KeyOrigin {
  readonly variable: string;
  readonly from: string;
}

/** `CUSTOM_ACTIONS_KEY_BILLING from the environment`, `CUSTOM_ACTIONS_KEY in keys.env`. */
export function keyOriginText(origin: KeyOrigin): string {
  return origin.from === 'environment' ? `${origin.variable} from the environment` : `${origin.variable} in ${origin.from}`;
}

/**
 * Where keys come from: never an argument (shell history and process lists show those), only the
 * environment and a file named by `--key-file`. The file holds `NAME=key` lines with the names of
 * the environment variables, or one bare line: the default key. An application's own key comes
 * before the default one; at the same level the file, which was named on purpose, before the
 * environment.
 */
export class KeySource {
  private constructor(
    private readonly env: Readonly<Record<string, string | undefined>>,
    private readonly file: ReadonlyMap<string, string>,
    private readonly fileName: string | undefined,
  ) {}

  static async load(env: Readonly<Record<string, string | undefined>>, keyFile: string | undefined): Promise<KeySource> {
    if (keyFile === undefined) return new KeySource(env, new Map(), undefined);
    let text: string;
    try {
      text = await readFile(keyFile, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new CliError(EXIT.auth, `The key file ${keyFile} cannot be read (${code ?? 'error'}).`);
    }
    return new KeySource(env, parseKeyFile(text, keyFile), keyFile);
  }

  /**
   * The key of an application on a target (without one, as a file of one server), or undefined: the
   * names of keyVariables in their order, at each the file (named on purpose) before the environment.
   */
  keyFor(applicationId: string, target?: KeyTarget): string | undefined {
    for (const name of keyVariables(applicationId, target)) {
      const key = this.file.get(name) ?? nonEmpty(this.env[name]);
      if (key !== undefined) return key;
    }
    return undefined;
  }

  /**
   * Where an application's key comes from, named and never shown: the variable, and the key file or
   * the environment that holds it; undefined when there is none.
   */
  keyOrigin(applicationId: string, target?: KeyTarget): KeyOrigin | undefined {
    for (const variable of keyVariables(applicationId, target)) {
      if (this.file.has(variable)) return { variable, from: this.fileName! };
      if (nonEmpty(this.env[variable]) !== undefined) return { variable, from: 'environment' };
    }
    return undefined;
  }

  /** Every key this source holds for the applications named, so output can be scrubbed of them. */
  keysOf(applicationIds: readonly string[], target?: KeyTarget): string[] {
    return applicationIds.map((id) => this.keyFor(id, target)).filter((k): k is string => k !== undefined);
  }

  /** Where to put a key for this application, for the error that says none was found. */
  missingKeyHint(applicationId: string, target?: KeyTarget): string {
    const where = this.fileName ? `in ${this.fileName} or in the environment` : 'in the environment, or in a file named by --key-file';
    if (target === undefined || target.isDefault)
      return `Set ${applicationKeyVariable(applicationId)} (this application's key) or ${DEFAULT_KEY_VARIABLE} (a key for every application) ${where}.`;
    const [own, every] = keyVariables(applicationId, target);
    return `Set ${own} (this application's key on target ${target.name}) or ${every} (a key for every application of it) ${where}.`;
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/** `NAME=key` lines (blank lines and `#` comments skipped), or a single bare key. */
export function parseKeyFile(text: string, fileName: string): Map<string, string> {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'));
  const keys = new Map<string, string>();
  if (lines.length === 1 && !/^[A-Z][A-Z0-9_]*=/.test(lines[0]!)) {
    keys.set(DEFAULT_KEY_VARIABLE, lines[0]!);
    return keys;
  }
  lines.forEach((line) => {
    const match = /^(?:export\s+)?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    // The line is not quoted back: it may be a key.
    const at = text.split(/\r?\n/).findIndex((l) => l.trim() === line) + 1;
    if (!match) throw new CliError(EXIT.usage, `${fileName}:${at}: expected NAME=key, with a name such as ${DEFAULT_KEY_VARIABLE}.`);
    const value = match[2]!.trim().replace(/^(["'])(.*)\1$/, '$2');
    if (value) keys.set(match[1]!, value);
  });
  return keys;
}
