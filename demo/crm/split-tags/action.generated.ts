// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/** The parameters of the action, by name. */
export interface Inputs {
  /** Tags separated by commas or semicolons. */
  raw: string;
}

/** The tags, in their first order. */
export type Result = string[];

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [raw: string];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
