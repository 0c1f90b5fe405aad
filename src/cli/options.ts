/**
 * The options of a command as typed values, read once from what commander parsed (program.ts), so no
 * command casts them. Each option is a text (`--env <where>`), a flag (`--force`, `--no-diff`) or a
 * list (`-a <id...>`); a value of another shape, or an option this table does not know, is a bug of
 * the program, said at once rather than read as something else.
 */
import { type GlobalOptions } from './context';

export interface CommandOptions {
  /** `-a`: before the command's name and after it, one list (program.ts). */
  readonly application?: readonly string[];
  readonly concurrency?: string;
  readonly corsOrigins?: string;
  readonly data?: string;
  readonly delete?: boolean;
  readonly demo?: boolean;
  /** `--no-diff` sets it false. */
  readonly diff?: boolean;
  readonly dryRun?: boolean;
  readonly ensureApp?: readonly string[];
  readonly env?: string;
  readonly follow?: boolean;
  readonly force?: boolean;
  readonly from?: string;
  readonly grep?: string;
  readonly inputs?: string;
  readonly inputSet?: string;
  readonly inputsFile?: string;
  readonly limit?: string;
  readonly onlyLocal?: boolean;
  readonly output?: string;
  /** history's `--part code|metadata`. */
  readonly part?: string;
  readonly port?: string;
  readonly reporter?: string;
  readonly since?: string;
  readonly status?: string;
  readonly to?: string;
}

type Kind = 'text' | 'flag' | 'list';

/** Every option of every command, by the name commander gives its value. */
const COMMAND_OPTIONS = {
  application: 'list',
  concurrency: 'text',
  corsOrigins: 'text',
  data: 'text',
  delete: 'flag',
  demo: 'flag',
  diff: 'flag',
  dryRun: 'flag',
  ensureApp: 'list',
  env: 'text',
  follow: 'flag',
  force: 'flag',
  from: 'text',
  grep: 'text',
  inputs: 'text',
  inputSet: 'text',
  inputsFile: 'text',
  limit: 'text',
  onlyLocal: 'flag',
  output: 'text',
  part: 'text',
  port: 'text',
  reporter: 'text',
  since: 'text',
  status: 'text',
  to: 'text',
} as const satisfies Record<keyof CommandOptions, Kind>;

const GLOBAL_OPTIONS = {
  project: 'text',
  baseUrl: 'text',
  keyFile: 'text',
  json: 'flag',
  color: 'flag',
  timeout: 'text',
  target: 'text',
  yes: 'flag',
  quiet: 'flag',
  application: 'list',
} as const satisfies Record<keyof GlobalOptions, Kind>;

/** A command's own options (commander's `opts()`), typed. */
export function commandOptions(parsed: Readonly<Record<string, unknown>>): CommandOptions {
  return typed(parsed, COMMAND_OPTIONS, 'a command') as CommandOptions;
}

/**
 * The global options (before or after the command's name), typed, from commander's
 * `optsWithGlobals()`, which holds the command's own options too: those are left to `commandOptions`.
 */
export function globalOptions(parsed: Readonly<Record<string, unknown>>): GlobalOptions {
  const own = Object.fromEntries(Object.entries(parsed).filter(([name]) => name in GLOBAL_OPTIONS));
  return typed(own, GLOBAL_OPTIONS, 'the program') as GlobalOptions;
}

/** Whether an option of that name (commander's attribute name) has a type in this table, and which. */
export function optionKind(name: string, of: 'command' | 'global'): Kind | undefined {
  const kinds: Readonly<Record<string, Kind>> = of === 'command' ? COMMAND_OPTIONS : GLOBAL_OPTIONS;
  return kinds[name];
}

function typed(parsed: Readonly<Record<string, unknown>>, kinds: Readonly<Record<string, Kind>>, of: string): Record<string, unknown> {
  const options: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(parsed)) {
    if (value === undefined) continue;
    const kind = kinds[name];
    if (kind === undefined) throw new Error(`The option "${name}" of ${of} has no type: add it to src/cli/options.ts.`);
    if (!isKind(value, kind)) throw new Error(`The option "${name}" of ${of} is a ${kind} in src/cli/options.ts, but commander gave ${JSON.stringify(value)}.`);
    options[name] = value;
  }
  return options;
}

function isKind(value: unknown, kind: Kind): boolean {
  if (kind === 'text') return typeof value === 'string';
  if (kind === 'flag') return typeof value === 'boolean';
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}
