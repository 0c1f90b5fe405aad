// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/**
 * The choices of category, by id:
 * - 'billing': Billing
 * - 'technical': Technical problem
 * - 'account': Account and access
 */
export type CategoryChoice = 'billing' | 'technical' | 'account';

/** The parameters of the action, by name. */
export interface Inputs {
  category: CategoryChoice;
  /** An e-mail address. */
  requesterEmail: string;
}

/**
 * The mailbox of the team.
 * An e-mail address.
 */
export type Result = string;

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [category: CategoryChoice, requesterEmail: string];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
