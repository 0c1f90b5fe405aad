import { randomBytes } from 'node:crypto';
import { createColors } from 'picocolors';
import { scrubKeyShapes } from '../core/client/redact';
import { terminalText } from '../core/text';
import { type CliIo, type Stream } from './io';
import { terminalSafeJson } from './jsonText';

export type Colors = ReturnType<typeof createColors>;

/**
 * Colour on a stream: never with NO_COLOR (any value but empty), always with FORCE_COLOR (but `0`),
 * else only on a terminal that is not `dumb` (https://no-color.org, clig.dev).
 */
export function colorEnabled(stream: Stream, env: CliIo['env']): boolean {
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== '') return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false';
  return stream.isTTY && env.TERM !== 'dumb';
}

const GUARD = Symbol('terminal guard');

/** An io whose streams write only through the guard. */
export interface GuardedIo extends CliIo {
  readonly [GUARD]: TerminalGuard;
}

/**
 * The one place where the command line's text meets a stream (docs/security.md, *Round three*). Any
 * part of a text may have come from outside: a server's error, a field error, a 5xx body, an event,
 * an action's key, a file of the clone, an argument. So every text written, on stdout or stderr, a
 * message, a line, a JSON document or a library's message alike, is
 * - scrubbed of the keys in use and of anything shaped like a key (`scrubKeyShapes`), and
 * - escaped for the terminal (`terminalText`): no ESC, C1, DEL, CR or bidi character is written raw.
 * The command line's own colours survive because they are not characters of the text: its `Colors`
 * wrap a text in marks made with a secret of this process, which no server can forge, and the guard
 * turns them into the terminal's codes only after the text between them was escaped.
 */
export class TerminalGuard {
  private readonly secrets = new Set<string>();
  private readonly mark = `\uE000${randomBytes(12).toString('hex')}`;
  private readonly marks: RegExp;
  private readonly paint = createColors(true);

  constructor(readonly raw: CliIo) {
    this.marks = new RegExp(`${this.mark}(?:([a-zA-Z]+)\uE001|\uE002)`, 'g');
  }

  /** A key in use: from now on it is replaced by `<redacted>` in everything written. */
  addSecret(key: string): void {
    if (key.length >= 4) this.secrets.add(key);
  }

  /** Colours that stay the command line's own through the guard (plain text when `enabled` is false). */
  colors(enabled: boolean): Colors {
    if (!enabled) return createColors(false);
    const styled = Object.fromEntries(
      Object.keys(this.paint)
        .filter((name) => name !== 'isColorSupported')
        .map((name) => [name, (text: unknown) => `${this.mark}${name}\uE001${String(text)}${this.mark}\uE002`]),
    );
    return { ...styled, isColorSupported: true } as unknown as Colors;
  }

  /**
   * `text` as it may reach a terminal. `keyShapes: 'shown'` only for the keys a command exists to
   * print (`sandbox start`'s throwaway keys); the keys in use are scrubbed all the same.
   */
  text(text: string, keyShapes: 'scrubbed' | 'shown' = 'scrubbed'): string {
    let out = keyShapes === 'scrubbed' ? scrubKeyShapes(text) : text;
    for (const secret of this.secrets) out = out.split(secret).join('<redacted>');
    if (!out.includes(this.mark)) return terminalText(out);
    // Styles nest: each closing mark paints what its opening mark began, escaped first.
    const stack: { style?: string; text: string }[] = [{ text: '' }];
    let from = 0;
    for (const match of out.matchAll(this.marks)) {
      stack[stack.length - 1]!.text += terminalText(out.slice(from, match.index));
      from = match.index + match[0].length;
      if (match[1] !== undefined) stack.push({ style: match[1], text: '' });
      else if (stack.length > 1) this.close(stack);
    }
    stack[stack.length - 1]!.text += terminalText(out.slice(from));
    while (stack.length > 1) this.close(stack);
    return stack[0]!.text;
  }

  private close(stack: { style?: string; text: string }[]): void {
    const done = stack.pop()!;
    const paint = (this.paint as unknown as Record<string, ((s: string) => string) | undefined>)[done.style!];
    stack[stack.length - 1]!.text += paint ? paint(done.text) : done.text;
  }
}

/** `io` with streams that write through a guard; an io already guarded is returned as it is. */
export function guardIo(io: CliIo): GuardedIo {
  if (GUARD in io) return io as GuardedIo;
  const guard = new TerminalGuard(io);
  const through = (stream: Stream): Stream => ({
    write: (text) => stream.write(guard.text(text)),
    get isTTY() {
      return stream.isTTY;
    },
    get columns() {
      return stream.columns;
    },
  });
  return {
    stdout: through(io.stdout),
    stderr: through(io.stderr),
    stdinIsTTY: io.stdinIsTTY,
    ...(io.readLine ? { readLine: io.readLine } : {}),
    ...(io.stdoutGone ? { stdoutGone: io.stdoutGone } : {}),
    env: io.env,
    cwd: io.cwd,
    interrupts: io.interrupts,
    bundles: io.bundles,
    ...(io.afterCommand ? { afterCommand: io.afterCommand } : {}),
    [GUARD]: guard,
  };
}

/** The guard of a guarded io. */
export function guardOf(io: GuardedIo): TerminalGuard {
  return io[GUARD];
}

/**
 * Everything a command prints goes through here: data (lines, or JSON with --json) to stdout,
 * messages to stderr, colour only where the stream takes it, a progress line only on a terminal.
 * It writes through the terminal guard, so every text is scrubbed of keys and escaped.
 */
export class Output {
  readonly color: Colors;
  readonly errColor: Colors;
  private readonly io: GuardedIo;
  private readonly guard: TerminalGuard;
  private progressShown = false;
  private annotations: Record<string, unknown> = {};
  /** The server the command talks to, once it has said so: carried by the `--json` document. */
  server: unknown;
  /**
   * The fields `--json=a,b` picked for each item of a listing, with the member that holds the list
   * (`lines`: each JSON line is an item); undefined for every field.
   */
  picked?: { readonly list: string; readonly fields: readonly string[] };

  constructor(
    io: CliIo,
    readonly json: boolean,
    noColor = false,
  ) {
    this.io = guardIo(io);
    this.guard = guardOf(this.io);
    this.color = this.guard.colors(!noColor && colorEnabled(io.stdout, io.env));
    this.errColor = this.guard.colors(!noColor && colorEnabled(io.stderr, io.env));
  }

  /** A key in use: from now on it is replaced by `<redacted>` in everything written. */
  addSecret(key: string): void {
    this.guard.addSecret(key);
  }

  /** A line of data on stdout (not written under --json, where `result` carries the data). */
  line(text = ''): void {
    if (this.json) return;
    this.clearProgress();
    this.io.stdout.write(text + '\n');
  }

  /** Fields every JSON result of this command carries besides its own (the target it worked on). */
  annotate(fields: Record<string, unknown>): void {
    this.annotations = { ...this.annotations, ...fields };
  }

  /** The one JSON document of a command run with --json, on stdout. */
  result(value: unknown): void {
    if (!this.json) return;
    let document = isRecord(value) ? { ...value, ...this.annotations } : value;
    if (this.server !== undefined && isRecord(document) && !('server' in document)) document = { ...document, server: this.server };
    const picked = this.picked;
    if (picked && isRecord(document) && Array.isArray(document[picked.list]))
      document = { ...document, [picked.list]: (document[picked.list] as unknown[]).map((item) => pick(item, picked.fields)) };
    this.io.stdout.write(terminalSafeJson(JSON.stringify(document, null, 2)) + '\n');
  }

  /** One JSON line on stdout (for commands that stream, such as a follow of events). */
  jsonLine(value: unknown): void {
    if (this.picked?.list === 'lines') value = pick(value, this.picked.fields);
    this.io.stdout.write(terminalSafeJson(JSON.stringify(value)) + '\n');
  }

  /**
   * A line on stdout that exists to hand over keys (`sandbox start`'s `NAME=key` lines or its JSON):
   * escaped like every line, but the key shapes in it are kept.
   */
  keyLine(text: string): void {
    this.clearProgress();
    this.guard.raw.stdout.write(this.guard.text(text + '\n', 'shown'));
  }

  /** A message for the person at the terminal, on stderr. */
  info(text: string): void {
    this.clearProgress();
    this.io.stderr.write(text + '\n');
  }

  warn(text: string): void {
    this.info(`${this.errColor.yellow('warning:')} ${text}`);
  }

  error(text: string, hint?: string): void {
    this.info(`${this.errColor.red('error:')} ${text}`);
    if (hint) this.info(`  ${hint}`);
  }

  /**
   * Progress through `total` items of work on stderr, as one line rewritten in place, only on a
   * terminal; elsewhere it prints nothing (CI logs get the result lines instead).
   */
  progress(total: number, label: string): { tick(item?: string): void; done(): void } {
    const stream = this.io.stderr;
    if (!stream.isTTY || this.json || total < 2) return { tick: () => undefined, done: () => undefined };
    let count = 0;
    const draw = (item?: string) => {
      const width = Math.max(20, (stream.columns ?? 80) - 1);
      const text = this.guard.text(`${label} ${count}/${total}${item ? ` ${item}` : ''}`).slice(0, width);
      // The one sequence of the command line's own written raw: return, and clear the line.
      this.guard.raw.stderr.write(`\r\x1b[2K${text}`);
      this.progressShown = true;
    };
    draw();
    return {
      tick: (item) => {
        count++;
        draw(item);
      },
      done: () => this.clearProgress(),
    };
  }

  private clearProgress(): void {
    if (!this.progressShown) return;
    this.guard.raw.stderr.write('\r\x1b[2K');
    this.progressShown = false;
  }
}

/** The named members of an item, in the order named. */
function pick(item: unknown, fields: readonly string[]): unknown {
  if (!isRecord(item)) return item;
  return Object.fromEntries(fields.filter((f) => f in item).map((f) => [f, item[f]]));
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
