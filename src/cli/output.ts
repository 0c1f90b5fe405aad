import { createColors } from 'picocolors';
import { redactKey } from '../core/client/redact';
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

/**
 * Everything a command prints goes through here: data (lines, or JSON with --json) to stdout,
 * messages to stderr, colour only where the stream takes it, a progress line only on a terminal.
 * Every text is scrubbed of the keys in use before it is written, so a key that a server or a
 * library echoes back cannot reach a log.
 */
export class Output {
  readonly color: Colors;
  readonly errColor: Colors;
  private readonly secrets = new Set<string>();
  private progressShown = false;

  constructor(
    private readonly io: CliIo,
    readonly json: boolean,
    noColor = false,
  ) {
    this.color = createColors(!noColor && colorEnabled(io.stdout, io.env));
    this.errColor = createColors(!noColor && colorEnabled(io.stderr, io.env));
  }

  /** A key in use: from now on it is replaced by `<redacted>` in everything written. */
  addSecret(key: string): void {
    if (key.length > 0) this.secrets.add(key);
  }

  /** A line of data on stdout (not written under --json, where `result` carries the data). */
  line(text = ''): void {
    if (this.json) return;
    this.clearProgress();
    this.io.stdout.write(this.scrub(text) + '\n');
  }

  /** The one JSON document of a command run with --json, on stdout. */
  result(value: unknown): void {
    if (!this.json) return;
    this.io.stdout.write(this.scrub(terminalSafeJson(JSON.stringify(value, null, 2))) + '\n');
  }

  /** One JSON line on stdout (for commands that stream, such as a follow of events). */
  jsonLine(value: unknown): void {
    this.io.stdout.write(this.scrub(terminalSafeJson(JSON.stringify(value))) + '\n');
  }

  /** A message for the person at the terminal, on stderr. */
  info(text: string): void {
    this.clearProgress();
    this.io.stderr.write(this.scrub(text) + '\n');
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
      const text = `${label} ${count}/${total}${item ? ` ${item}` : ''}`;
      stream.write(`\r\x1b[2K${this.scrub(text).slice(0, width)}`);
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
    this.io.stderr.write('\r\x1b[2K');
    this.progressShown = false;
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.secrets) out = redactKey(out, secret);
    return out;
  }
}
