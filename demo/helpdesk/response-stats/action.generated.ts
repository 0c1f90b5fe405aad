// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/** The parameters of the action, by name. */
export interface Inputs {
  /** First-response times in minutes. */
  responseMinutes: number[];
}

/** The statistics. */
export type Result = {
  average: number;
  worst: number;
  breaches: number;
};

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [responseMinutes: number[]];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
