import * as vscode from 'vscode';

export const EVENTS_CHANNEL_NAME = 'Custom Actions Events';
/** Lines kept for reading back (tests, copy); the output channel itself has its own limits. */
const KEEP_LINES = 5_000;

/**
 * The events channel, created on first use. Everything appended is also kept in a bounded buffer, so
 * what the channel shows can be read back: output channels offer no way to read their content.
 */
export class EventsChannel implements vscode.Disposable {
  private channel: vscode.OutputChannel | undefined;
  private readonly lines: string[] = [];

  appendLines(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.output().append(lines.join('\n') + '\n');
    this.lines.push(...lines);
    if (this.lines.length > KEEP_LINES) this.lines.splice(0, this.lines.length - KEEP_LINES);
  }

  show(preserveFocus = true): void {
    this.output().show(preserveFocus);
  }

  /** The most recent lines appended, oldest first. */
  text(): string {
    return this.lines.join('\n');
  }

  dispose(): void {
    this.channel?.dispose();
    this.channel = undefined;
  }

  private output(): vscode.OutputChannel {
    this.channel ??= vscode.window.createOutputChannel(EVENTS_CHANNEL_NAME);
    return this.channel;
  }
}
