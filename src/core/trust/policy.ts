/**
 * What the extension does in a workspace VS Code does not trust (Restricted Mode). A cloned
 * repository's customactions.yaml names the server every request goes to, with the user's key, and
 * its main.ts is code the local sandbox would run: until the user trusts the folder, neither happens.
 * Reading and editing the files (the metadata form, the YAML schemas) stays available.
 */
export interface TrustPolicy {
  /** Send requests, every one carrying a key, to the base URL the workspace names. */
  readonly contactServer: boolean;
  /** Start the local sandbox, which runs the workspace's main.ts. */
  readonly startSandbox: boolean;
  /** Run an action (on the server or in the sandbox). */
  readonly runActions: boolean;
  /** Push on save (customActions.deployOnSave). */
  readonly deployOnSave: boolean;
}

export function trustPolicy(trusted: boolean, settings: { readonly deployOnSave: boolean }): TrustPolicy {
  return { contactServer: trusted, startSandbox: trusted, runActions: trusted, deployOnSave: trusted && settings.deployOnSave };
}

/** What the user is told when something waits for trust; `what` says what was asked for ("Pull"). */
export function untrustedMessage(what: string): string {
  return `${what} needs a trusted workspace. Until you trust this folder, Custom Actions sends no request to the server its customactions.yaml names, starts no sandbox, runs nothing and deploys nothing.`;
}
