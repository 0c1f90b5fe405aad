/**
 * A server that lost everything this repository deployed to it: a sandbox restarted on the same port
 * (a new database), a server rebuilt. Each action then reads "deleted on the server since the base",
 * which is true one by one but misleads as a whole: nobody deleted them, and pulling cannot bring
 * them back. Said once per application instead, with the way to deploy them again.
 */
import { type DeployTarget } from './pipeline';

/**
 * Whether the server holds none of the actions the lock names for an application there: the lock
 * names at least one, and the server lists none of them (by key or by the id the lock recorded).
 * Decided on all of the application's actions, never on a selection: one action deleted by a
 * colleague is a deletion, not a reset.
 */
export function looksReset(targets: readonly Pick<DeployTarget, 'base' | 'listed'>[], listedIds: ReadonlySet<string>): boolean {
  const based = targets.filter((t) => t.base !== undefined);
  return based.length > 0 && based.every((t) => t.listed === undefined && !listedIds.has(t.base!.id));
}
