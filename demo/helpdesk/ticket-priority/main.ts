import type { Inputs, Result } from './action.generated';

/** Ticket Priority: P1 (most urgent) to P4. */
export async function main(severity: Inputs['severity'], affectedUsers: Inputs['affectedUsers']): Promise<Result> {
  const base = { low: 4, medium: 3, high: 2 }[severity];
  const bump = affectedUsers >= 100 ? 2 : affectedUsers >= 10 ? 1 : 0;
  const priority = `P${Math.max(1, base - bump)}`;
  console.log(`${severity} severity, ${affectedUsers} user(s): ${priority}`);
  return priority;
}
