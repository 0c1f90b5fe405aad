// Generated from action.yaml by Custom Actions. Do not edit: it is rewritten when the metadata changes.

/**
 * The choices of source, by id:
 * - 'web': Website form
 * - 'referral': Referral
 * - 'event': Event or trade fair
 */
export type SourceChoice = 'web' | 'referral' | 'event';

/**
 * The choices of interests, by id:
 * - 'pricing': Pricing
 * - 'demo': Product demo
 * - 'integrations': Integrations
 */
export type InterestsChoice = 'pricing' | 'demo' | 'integrations';

/** The parameters of the action, by name. */
export interface Inputs {
  /**
   * The lead's e-mail address; free-mail domains score lower.
   * An e-mail address.
   */
  email: string;
  /** Number of employees. */
  companySize: number;
  /** Where the lead came from. */
  source: SourceChoice;
  /** What the lead asked about. */
  interests: InterestsChoice[];
}

/** The score, 0 to 100. */
export type Result = number;

/** The arguments of main, in the order of the parameters. */
export type MainParameters = [email: string, companySize: number, source: SourceChoice, interests: InterestsChoice[]];

/** The type of main in main.ts. */
export type Main = (...args: MainParameters) => Result | Promise<Result>;
