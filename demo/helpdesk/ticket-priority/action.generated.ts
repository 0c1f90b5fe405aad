// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/**
 * The choices of severity, by id:
 * - 'low': Low
 * - 'medium': Medium
 * - 'high': High
 */
export type SeverityChoice = 'low' | 'medium' | 'high';

/** The parameters of the action, by name. */
export interface Inputs {
  /** Severity reported by the customer. */
  severity: SeverityChoice;
  /** How many users are affected. */
  affectedUsers: number;
}

/** P1 (most urgent) to P4. */
export type Result = string;

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [severity: SeverityChoice, affectedUsers: number];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
