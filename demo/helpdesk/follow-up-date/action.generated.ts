// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/** The parameters of the action, by name. */
export interface Inputs {
  /** A date and time as an ISO 8601 string. */
  openedAt: string;
  /** Business days to wait (weekends do not count). */
  businessDays: number;
}

/**
 * When to follow up (UTC).
 * A date and time as an ISO 8601 string.
 */
export type Result = string;

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [openedAt: string, businessDays: number];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
