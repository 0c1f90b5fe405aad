// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/** The parameters of the action, by name. */
export interface Inputs {
  firstName: string;
  lastName: string;
  /** An e-mail address. */
  email: string;
  /**
   * When someone last spoke to the contact.
   * A date and time as an ISO 8601 string.
   */
  lastContacted: string;
}

/** The card. */
export type Result = {
  displayName: string;
  /** An e-mail address. */
  email: string;
  daysSinceContact: number;
  /** A date and time as an ISO 8601 string. */
  followUpOn: string;
  labels: string[];
};

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [firstName: string, lastName: string, email: string, lastContacted: string];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
