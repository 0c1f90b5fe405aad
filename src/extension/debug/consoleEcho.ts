import type * as vscode from 'vscode';

interface OutputMessage {
  type?: unknown;
  event?: unknown;
  body?: { category?: unknown; output?: unknown };
}

/**
 * js-debug starts the Debug Console of a launch with the command line it ran: for a local run, the
 * Node binary, the harness and the run's temporary request and outcome files, each by its path on
 * this machine, none of which the user wrote or can use. The tracker puts `intro` (what runs, in the
 * user's words) in that line's place as the message passes through the extension host, before the
 * workbench shows it; a host test checks that no path of this machine reaches the Debug Console.
 * The line is known by the request file, which only the command line names.
 */
export function consoleEchoTracker(requestFile: string, intro: string): vscode.DebugAdapterTracker {
  let replaced = false;
  return {
    onDidSendMessage: (message: OutputMessage) => {
      if (replaced || message.type !== 'event' || message.event !== 'output') return;
      const body = message.body;
      if (body?.category !== 'console' || typeof body.output !== 'string' || !body.output.includes(requestFile)) return;
      body.output = intro.endsWith('\n') ? intro : `${intro}\n`;
      replaced = true;
    },
  };
}
