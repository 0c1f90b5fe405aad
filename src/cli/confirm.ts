/**
 * The one rule for a write that must not happen by accident (a deploy's `--delete`, `--force` over a
 * change made on the server, any write to a protected target, a promote): on a terminal, a question;
 * `--yes` answers it beforehand; without a terminal (or in CI) and without `--yes`, a refusal that
 * says how to go on (exit 2), never a silent yes (clig.dev: no prompt without a terminal, and a flag
 * to skip it). An answer other than yes writes nothing, and the command ends with exit 1.
 */
import { type ProjectTarget } from '../core/workspace';
import { type CommandContext } from './context';
import { CliError, EXIT } from './exitCodes';

export interface Confirmation {
  /** What will happen, said before the question: `Delete 2 actions on https://…: app/a, app/b.` */
  readonly what: string;
  /** What a refusal says first: `Nothing done` unless told (`Nothing written to protected target production`). */
  readonly refusal?: string;
  /** The command again with `--yes`, for the refusal: `custom-actions deploy --delete --yes`. */
  readonly again?: string;
  /**
   * What shows beforehand what would happen, for the refusal: `--dry-run` unless told (a command
   * without a dry run names another: `custom-actions deploy --dry-run` for `test --env Test`).
   */
  readonly check?: string;
}

/**
 * Whether to go on: true with `--yes` or when the person answers yes; false when they answer anything
 * else (nothing was done, said on stderr; the caller ends with exit 1, "the answer is no"). Without a
 * terminal and without `--yes` it throws a usage error (exit 2) that says how to go on.
 */
export async function confirm(context: CommandContext, confirmation: Confirmation): Promise<boolean> {
  if (context.options.yes === true) return true;
  const refusal = confirmation.refusal ?? 'Nothing done';
  const readLine = context.io.readLine;
  if (!context.interactive || !readLine)
    throw new CliError(
      EXIT.usage,
      `${confirmation.what} ${refusal}: it needs a confirmation, and there is no terminal to ask (or CI is set).`,
      `Check what would happen with ${confirmation.check ?? '--dry-run'}, then run it with --yes${confirmation.again ? `: ${confirmation.again}` : ''} (in a pipeline: in the protected job only).`,
    );
  context.out.info(confirmation.what);
  context.io.stderr.write('Go on? [y/N] ');
  const answer = (await readLine())?.trim().toLowerCase();
  const yes = answer === 'y' || answer === 'yes';
  if (!yes) context.out.info(`${refusal}.`);
  return yes;
}

/**
 * Before a write to a protected target (production): the same confirmation, and `--yes` said on
 * stderr. True for a target that is not protected.
 */
export async function confirmTargetWrite(
  context: CommandContext,
  target: ProjectTarget,
  what: string,
  how: Pick<Confirmation, 'again' | 'check'> = {},
): Promise<boolean> {
  if (!target.protected) return true;
  return confirm(context, protectedConfirmation(context, target, what, how));
}

/**
 * The confirmation of a write to a protected target, naming what else it asks about (`what`: the
 * actions `--delete` deletes), so one question says both and is asked once.
 */
export function protectedConfirmation(
  context: CommandContext,
  target: ProjectTarget,
  what: string,
  how: Pick<Confirmation, 'again' | 'check'> = {},
): Confirmation {
  if (context.options.yes === true) context.out.info(`Target ${target.name} is protected: writing to it, as --yes says.`);
  return {
    what: `Target ${target.name} (${target.baseUrl}) is protected. ${what}`,
    refusal: `Nothing written to protected target ${target.name}`,
    ...how,
  };
}
