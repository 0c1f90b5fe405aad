/**
 * What the extension host can do: here, Node's (desktop VS Code, a remote, code-server's server side).
 * platform.browser.ts stands in for this module in VS Code for the Web, where no process starts.
 */
export const PLATFORM = {
  /** Whether a process can be started: the local sandbox, Debug and the Testing view's Local runs need one. */
  processes: true,
} as const satisfies Platform;

export interface Platform {
  readonly processes: boolean;
}

/** What VS Code for the Web leaves out and why, said wherever one of them is asked for. */
export const NO_PROCESSES =
  "VS Code for the Web runs no process on your machine, so the local sandbox, Debug and the Testing view's Local runs are left out here; " +
  'runs go to the server (Run, and the Testing view\'s "Test environment" profile). Open the folder in desktop VS Code for them.';
