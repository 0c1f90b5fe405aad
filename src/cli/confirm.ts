import { type ProjectTarget } from '../core/workspace';
import { type CommandContext } from './context';
import { CliError, EXIT } from './exitCodes';

/**
 * A yes before a write that must not happen by accident: `--yes`, or a person at a terminal who
 * answers yes; anywhere else (CI, a pipe) the command stops before it sends anything, exit code 2,
 * saying how to go on. `question` ends with what would be written.
 */
export async function confirm(context: CommandContext, question: string, refusal: string): Promise<void> {
  if (context.options.yes === true) return;
  const ask = context.io.ask;
  if (context.interactive && ask) {
    const answer = await ask(`${question} Go on? [y/N] `);
    if (/^\s*y(es)?\s*$/i.test(answer)) return;
    throw new CliError(EXIT.usage, `${refusal}: not confirmed.`);
  }
  throw new CliError(
    EXIT.usage,
    `${refusal}: it needs a confirmation.`,
    'Run it at a terminal to be asked, or pass --yes (in a pipeline: in the protected job only).',
  );
}

/** Before a write to a protected target (production): confirm, or `--yes` (said on stderr). */
export async function confirmTargetWrite(context: CommandContext, target: ProjectTarget, what: string): Promise<void> {
  if (!target.protected) return;
  if (context.options.yes === true) context.out.info(`Target ${target.name} is protected: writing to it, as --yes says.`);
  await confirm(context, `Target ${target.name} (${target.baseUrl}) is protected. ${what}`, `Nothing written to protected target ${target.name}`);
}
