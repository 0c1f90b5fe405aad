import * as vscode from 'vscode';

export const EVENTS_CHANNEL_NAME = 'Custom Actions Events';

/** The events channel, created on first use. */
export class EventsChannel implements vscode.Disposable {
  private channel: vscode.OutputChannel | undefined;

  appendLines(lines: readonly string[]): void {
    if (lines.length === 0) return;
    this.output().append(lines.join('\n') + '\n');
  }

  show(preserveFocus = true): void {
    this.output().show(preserveFocus);
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
