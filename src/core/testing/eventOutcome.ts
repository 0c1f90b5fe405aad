import { type NormalizedEvent } from '../client';
import { type RunOutcome } from './expectation';

/**
 * How a run on the server ended, from its event, for `judgeCase`. Events carry an error's message
 * and stack but seldom its name; the name is then read from where JavaScript writes it, the start
 * of the message or of the stack (`RangeError: …`), so `expect.error.name` judges a server run as it
 * judges a local one. The message is kept as the server sent it.
 */
export function eventOutcome(event: NormalizedEvent): RunOutcome {
  if (event.ok) return { ok: true, result: event.result };
  const message = event.error?.message ?? event.unreadable ?? 'the run failed';
  const stack = event.error?.stack;
  const name = errorNameIn(message) ?? errorNameIn(stack);
  return { ok: false, error: { message, ...(name ? { name } : {}), ...(stack ? { stack } : {}) } };
}

function errorNameIn(text: string | undefined): string | undefined {
  return text === undefined ? undefined : /^([A-Z][\w$]*(?:Error|Exception)): /.exec(text)?.[1];
}
